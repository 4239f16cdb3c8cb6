#!/usr/bin/env bash
# Evaluation benchmark: the full POST /v1/evaluations path (authentication, hand-written decoding, catalogue
# validation, velocity, two model scores, durable group-committed record, ES256 COSE signature) driven by wrk on
# 127.0.0.1 at 16 and 64 connections. Prints the median of RUNS runs of requests/s, p50 and p99.
#
#   Benchmarks/evaluation/run.sh             # 3 runs of 10 s each
#   RUNS=5 DURATION=20s Benchmarks/evaluation/run.sh
set -euo pipefail
RUNS=${RUNS:-3}
DURATION=${DURATION:-10s}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
cd "$ROOT"
swift build -c release --product trust-insights >&2
BIN="$(swift build -c release --show-bin-path)/trust-insights"

. "$HERE/server.sh"

to_ms() { awk '{ v=$1; if (v ~ /us$/) { sub(/us$/,"",v); v=v/1000 } else if (v ~ /ms$/) { sub(/ms$/,"",v) } else if (v ~ /s$/) { sub(/s$/,"",v); v=v*1000 }; printf "%.3f", v }'; }
median() { sort -g | awk '{ a[NR]=$1 } END { print a[int((NR+1)/2)] }'; }

# Warm up (velocity state, page cache, statement caches).
wrk -t2 -c16 -d3s -s "$HERE/evaluate.lua" "$URL" >/dev/null
printf '%-12s %12s %10s %10s %s\n' connections requests/s p50-ms p99-ms non-2xx
for connections in 16 64; do
  rps=(); p50=(); p99=(); errors=0
  for _ in $(seq "$RUNS"); do
    report=$(wrk -t2 -c"$connections" -d"$DURATION" --latency -s "$HERE/evaluate.lua" "$URL")
    rps+=("$(awk '/Requests\/sec/ { print $2 }' <<<"$report")")
    p50+=("$(awk '$1 == "50%" { print $2 }' <<<"$report" | to_ms)")
    p99+=("$(awk '$1 == "99%" { print $2 }' <<<"$report" | to_ms)")
    errors=$((errors + $(awk '/Non-2xx/ { print $5 }' <<<"$report" | tr -d ' ' || echo 0) + 0))
  done
  printf '%-12s %12s %10s %10s %s\n' "$connections" "$(printf '%s\n' "${rps[@]}" | median)" \
    "$(printf '%s\n' "${p50[@]}" | median)" "$(printf '%s\n' "${p99[@]}" | median)" "$errors"
done
