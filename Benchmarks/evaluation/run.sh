#!/usr/bin/env bash
# Evaluation benchmark: the full POST /v1/evaluations path (authentication, hand-written decoding, catalogue
# validation, velocity, two model scores, durable group-committed record, ES256 COSE signature) driven by wrk on
# 127.0.0.1 at 16 and 64 connections, side by side in one run with the reference routes, which decode 32 numbers
# with Foundation's JSONDecoder and do no work behind them:
#   hummingbird  the issue's reference, Hummingbird 2 serving POST /numbers, when HUMMINGBIRD_BIN names a build of
#                it (docs/BENCHMARKS.md gives its source; the product takes no package dependencies, so it is built
#                outside this repository);
#   reference    POST /numbers on http-conformance-target, the same route on our own HTTP server.
# The servers run one at a time, alternating, so each has the machine to itself. Prints the median of RUNS runs of
# requests/s, p50, p90 and p99 for each, and the ratio of the evaluation's median to each reference's.
#
#   Benchmarks/evaluation/run.sh             # 3 runs of 10 s each
#   RUNS=5 DURATION=20s Benchmarks/evaluation/run.sh
#   HUMMINGBIRD_BIN=/tmp/hb-ref/.build/release/HummingbirdReference Benchmarks/evaluation/run.sh
#   ONLY=evaluation Benchmarks/evaluation/run.sh   # without the references
#   BIN=/path/to/trust-insights Benchmarks/evaluation/run.sh   # a given build instead of this tree's
set -euo pipefail
RUNS=${RUNS:-3}
DURATION=${DURATION:-10s}
ONLY=${ONLY:-}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
cd "$ROOT"
. "$HERE/references.sh"

. "$HERE/server.sh"
EVALUATION_URL=$URL
REFERENCE_OUT=$(mktemp)
HUMMINGBIRD_OUT=$(mktemp)
REFERENCE=""
HUMMINGBIRD=""
trap 'kill -TERM $SERVER $REFERENCE $HUMMINGBIRD 2>/dev/null || true; wait $SERVER $REFERENCE $HUMMINGBIRD 2>/dev/null || true; rm -rf "$DATA" "$OUT" "$REFERENCE_OUT" "$HUMMINGBIRD_OUT"' EXIT
ROUTES=evaluation
if [ "$ONLY" != evaluation ]; then
  start_reference "$REFERENCE_OUT"
  ROUTES="reference $ROUTES"
  if [ -n "${HUMMINGBIRD_BIN:-}" ]; then
    start_hummingbird "$HUMMINGBIRD_OUT"
    ROUTES="hummingbird $ROUTES"
  fi
fi

to_ms() { awk '{ v=$1; if (v ~ /us$/) { sub(/us$/,"",v); v=v/1000 } else if (v ~ /ms$/) { sub(/ms$/,"",v) } else if (v ~ /s$/) { sub(/s$/,"",v); v=v*1000 }; printf "%.3f", v }'; }
median() { sort -g | awk '{ a[NR]=$1 } END { print a[int((NR+1)/2)] }'; }
url_of() { case $1 in evaluation) echo "$EVALUATION_URL" ;; reference) echo "$REFERENCE_URL" ;; hummingbird) echo "$HUMMINGBIRD_URL" ;; esac; }
script_of() { if [ "$1" = evaluation ]; then echo evaluate.lua; else echo numbers.lua; fi; }

# Warm up (velocity state, page cache, statement caches).
for route in $ROUTES; do wrk -t2 -c16 -d3s -s "$HERE/$(script_of "$route")" "$(url_of "$route")" >/dev/null; done

declare -A RPS P50 P90 P99 ERRORS
measure() { # route connections
  local report
  report=$(wrk -t2 -c"$2" -d"$DURATION" --latency -s "$HERE/$(script_of "$1")" "$(url_of "$1")")
  RPS[$1]+="$(awk '/Requests\/sec/ { print $2 }' <<<"$report") "
  P50[$1]+="$(awk '$1 == "50%" { print $2 }' <<<"$report" | to_ms) "
  P90[$1]+="$(awk '$1 == "90%" { print $2 }' <<<"$report" | to_ms) "
  P99[$1]+="$(awk '$1 == "99%" { print $2 }' <<<"$report" | to_ms) "
  ERRORS[$1]=$(( ${ERRORS[$1]:-0} + $(awk '/Non-2xx/ { print $5 }' <<<"$report" | tr -d ' ' || echo 0) + 0 ))
}
of() { tr ' ' '\n' <<<"$1" | grep . | median; }

printf '%-11s %-12s %12s %10s %10s %10s %8s %s\n' route connections requests/s p50-ms p90-ms p99-ms non-2xx "ratio (evaluation / route)"
for connections in 16 64; do
  RPS=(); P50=(); P90=(); P99=(); ERRORS=()
  for _ in $(seq "$RUNS"); do
    for route in $ROUTES; do measure "$route" "$connections"; done
  done
  for route in $ROUTES; do
    ratio=""
    if [ "$route" != evaluation ]; then
      ratio=$(awk -v e="$(of "${RPS[evaluation]}")" -v r="$(of "${RPS[$route]}")" 'BEGIN { printf "%.2fx", e / r }')
    fi
    printf '%-11s %-12s %12s %10s %10s %10s %8s %s\n' "$route" "$connections" "$(of "${RPS[$route]}")" \
      "$(of "${P50[$route]}")" "$(of "${P90[$route]}")" "$(of "${P99[$route]}")" "${ERRORS[$route]:-0}" "$ratio"
  done
done
