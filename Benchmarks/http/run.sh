#!/usr/bin/env bash
# HTTP server benchmark: builds release, starts http-conformance-target on 127.0.0.1, and drives it with wrk
# (Debian package `wrk`) for GET / at 1, 16 and 64 connections and a small JSON POST at 64 connections.
# Prints the median of RUNS runs of requests/s, p50 and p99 for each case.
#
#   Benchmarks/http/run.sh                 # 3 runs of 10 s each
#   RUNS=5 DURATION=5s LOOPS=2 Benchmarks/http/run.sh
#   EXTRA_ARGS=--access-log Benchmarks/http/run.sh    # with the JSON access log (written to /dev/null)
set -euo pipefail

RUNS=${RUNS:-3}
DURATION=${DURATION:-10s}
LOOPS=${LOOPS:-$(nproc)}
EXTRA_ARGS=${EXTRA_ARGS:-}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }

cd "$ROOT"
swift build -c release --product http-conformance-target >&2
BIN="$(swift build -c release --show-bin-path)/http-conformance-target"

OUT=$(mktemp)
# shellcheck disable=SC2086
"$BIN" --port 0 --loops "$LOOPS" $EXTRA_ARGS >"$OUT" 2>/dev/null &
SERVER=$!
trap 'kill -TERM $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; rm -f "$OUT"' EXIT
for _ in $(seq 50); do grep -q listening "$OUT" && break; sleep 0.1; done
PORT=$(sed -n 's/.*:\([0-9]*\)$/\1/p' "$OUT")
URL="http://127.0.0.1:$PORT/"

# Latency in ms from wrk's "50%  235.00us" style figures.
to_ms() { awk '{ v=$1; if (v ~ /us$/) { sub(/us$/,"",v); v=v/1000 } else if (v ~ /ms$/) { sub(/ms$/,"",v) } else if (v ~ /s$/) { sub(/s$/,"",v); v=v*1000 }; printf "%.3f", v }'; }
median() { sort -g | awk '{ a[NR]=$1 } END { print a[int((NR+1)/2)] }'; }

run_case() {
    local name=$1 connections=$2 script=${3:-}
    local threads=2
    [ "$connections" -lt 2 ] && threads=1
    local rps=() p50=() p99=()
    for _ in $(seq "$RUNS"); do
        local args=(-t"$threads" -c"$connections" -d"$DURATION" --latency)
        [ -n "$script" ] && args+=(-s "$script")
        local report
        report=$(wrk "${args[@]}" "$URL")
        rps+=("$(awk '/Requests\/sec/ { print $2 }' <<<"$report")")
        p50+=("$(awk '$1 == "50%" { print $2 }' <<<"$report" | to_ms)")
        p99+=("$(awk '$1 == "99%" { print $2 }' <<<"$report" | to_ms)")
    done
    printf "%-22s %5s conns  %10.0f req/s  p50 %8s ms  p99 %8s ms   (runs: %s)\n" "$name" "$connections" \
        "$(printf '%s\n' "${rps[@]}" | median)" "$(printf '%s\n' "${p50[@]}" | median)" \
        "$(printf '%s\n' "${p99[@]}" | median)" "$(printf '%.0f ' "${rps[@]}")"
}

echo "http-conformance-target, $LOOPS event loops, wrk $DURATION x $RUNS runs (median), $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
run_case "GET /" 1
run_case "GET /" 16
run_case "GET /" 64
run_case "POST / (JSON, 110 B)" 64 "$HERE/post.lua"
