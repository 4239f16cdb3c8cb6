#!/usr/bin/env bash
# What the load generator costs: wrk shares the server's two cores, so a request that is dearer to send leaves less
# CPU to the server. Runs, one after another and ROUNDS times, wrk against the evaluation route (evaluate.lua) and
# against Hummingbird's reference route with the issue's script (numbers.lua: 32 numbers formatted per request) and
# with its bodies made once (numbers-precomputed.lua). Prints requests/s and wrk's own CPU (user+system, from bash's
# `time`) per request.
#
#   HUMMINGBIRD_BIN=/path/to/HummingbirdReference Benchmarks/evaluation/client-cost.sh [connections=64] [seconds=6] [rounds=3]
#   BIN=/path/to/trust-insights ...       # a given build instead of this tree's
set -euo pipefail
CONNECTIONS=${1:-64}
SECONDS_=${2:-6}
ROUNDS=${3:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
[ -n "${HUMMINGBIRD_BIN:-}" ] || { echo "client-cost.sh needs HUMMINGBIRD_BIN (docs/BENCHMARKS.md, \"Hummingbird 2 side by side\")" >&2; exit 1; }
. "$HERE/references.sh"
. "$HERE/server.sh"
HUMMINGBIRD_OUT=$(mktemp)
REPORT=$(mktemp)
TIMES=$(mktemp)
start_hummingbird "$HUMMINGBIRD_OUT"
trap 'kill -TERM $SERVER $HUMMINGBIRD 2>/dev/null || true; wait $SERVER $HUMMINGBIRD 2>/dev/null || true; rm -rf "$DATA" "$OUT" "$HUMMINGBIRD_OUT" "$REPORT" "$TIMES"' EXIT

# Prints "requests/s wrk-us-per-request non-2xx" for one run of script $2 against URL $1 (after a 2 s warm-up).
measure() {
  wrk -t2 -c"$CONNECTIONS" -d2s -s "$2" "$1" >/dev/null
  TIMEFORMAT='%U %S'
  { time wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_}s" -s "$2" "$1" >"$REPORT" 2>/dev/null; } 2>"$TIMES"
  awk -v t="$(cat "$TIMES")" '
    /requests in/ { n = $1 }
    /Requests\/sec/ { rate = $2 }
    /Non-2xx/ { bad = $5 }
    END { split(t, c, " "); printf "%12.0f %14.1f %8d\n", rate, (c[1] + c[2]) * 1e6 / n, bad }' "$REPORT"
}
printf '%-5s %-38s %12s %14s %8s\n' round "route (wrk script)" requests/s "wrk us/request" non-2xx
for round in $(seq "$ROUNDS"); do
  printf '%-5s %-38s %s\n' "$round" "evaluation (evaluate.lua)" "$(measure "$URL" "$HERE/evaluate.lua")"
  printf '%-5s %-38s %s\n' "$round" "hummingbird (numbers.lua)" "$(measure "$HUMMINGBIRD_URL" "$HERE/numbers.lua")"
  printf '%-5s %-38s %s\n' "$round" "hummingbird (numbers-precomputed.lua)" "$(measure "$HUMMINGBIRD_URL" "$HERE/numbers-precomputed.lua")"
done
