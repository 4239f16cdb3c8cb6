#!/usr/bin/env bash
# Server CPU per evaluation: one wrk run against the release binary, with the process's utime+stime (and each
# thread's, in clock ticks) read from /proc before and after. Less sensitive to other load than requests/s.
#
#   Benchmarks/evaluation/cpu.sh [connections=64] [seconds=8]
#   BIN=/path/to/trust-insights Benchmarks/evaluation/cpu.sh 64 8     # a given build instead of this tree's
#   ROUTE=reference Benchmarks/evaluation/cpu.sh 64 8     # the reference route (run.sh) instead of evaluations
#   ROUTE=hummingbird HUMMINGBIRD_BIN=/path/to/HummingbirdReference Benchmarks/evaluation/cpu.sh 64 8
#                                                          # Hummingbird 2's reference route (docs/BENCHMARKS.md)
set -euo pipefail
CONNECTIONS=${1:-64}
SECONDS_=${2:-8}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
SCRIPT=evaluate.lua
if [ "${ROUTE:-evaluation}" = reference ]; then
  (cd "$ROOT" && swift build -c release --product http-conformance-target >&2)
  REFERENCE_BIN="$(cd "$ROOT" && swift build -c release --show-bin-path)/http-conformance-target"
  OUT=$(mktemp)
  "$REFERENCE_BIN" --port 0 >"$OUT" 2>/dev/null &
  SERVER=$!
  trap 'kill -TERM $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; rm -f "$OUT"' EXIT
  for _ in $(seq 100); do grep -q listening "$OUT" && break; sleep 0.2; done
  URL="http://127.0.0.1:$(sed -n 's/.*listening on [^:]*:\([0-9]*\).*/\1/p' "$OUT")"
  SCRIPT=numbers.lua
elif [ "${ROUTE:-evaluation}" = hummingbird ]; then
  [ -n "${HUMMINGBIRD_BIN:-}" ] || { echo "ROUTE=hummingbird needs HUMMINGBIRD_BIN" >&2; exit 1; }
  PORT=18089
  while (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; do PORT=$((PORT + 1)); done
  "$HUMMINGBIRD_BIN" "$PORT" >/dev/null 2>&1 &
  SERVER=$!
  trap 'kill -TERM $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true' EXIT
  URL="http://127.0.0.1:$PORT"
  for _ in $(seq 100); do curl -s -o /dev/null "$URL/" && break; sleep 0.2; done
  SCRIPT=numbers.lua
else
  if [ -z "${BIN:-}" ]; then
    (cd "$ROOT" && swift build -c release --product trust-insights >&2)
    BIN="$(cd "$ROOT" && swift build -c release --show-bin-path)/trust-insights"
  fi
  . "$HERE/server.sh"
fi
wrk -t2 -c16 -d2s -s "$HERE/$SCRIPT" "$URL" >/dev/null
ticks() { awk '{ print $14 + $15 }' "$1"; }
declare -A BEFORE
for task in /proc/$SERVER/task/*; do BEFORE[$task]=$(ticks "$task/stat"); done
START=$(ticks /proc/$SERVER/stat)
REPORT=$(wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_}s" --latency -s "$HERE/$SCRIPT" "$URL")
END=$(ticks /proc/$SERVER/stat)
THREADS=""
for task in /proc/$SERVER/task/*; do THREADS="$THREADS $(( $(ticks "$task/stat") - ${BEFORE[$task]:-0} ))"; done
REQUESTS=$(awk '/requests in/ { print $1 }' <<<"$REPORT")
HZ=$(getconf CLK_TCK)
# Writes per group commit, from the server's own counters (the reference routes have none).
BATCH=-
if [ "${ROUTE:-evaluation}" = evaluation ]; then
  BATCH=$(curl -s "$URL/metrics" | awk '/^trust_insights_store_batches_total/ { b = $2 } /^trust_insights_store_writes_total/ { w = $2 }
    /^trust_insights_store_checkpoint_catchups_total/ { c = $2 }
    END { if (b > 0) printf "%.1f  catch-ups %d", w / b, c; else print "-" }')
fi
echo "requests/s $(awk '/Requests\/sec/ { print $2 }' <<<"$REPORT")  p99 $(awk '$1 == "99%" { print $2 }' <<<"$REPORT")" \
  " server-us-per-request $(( (END - START) * 1000000 / HZ / REQUESTS ))  ticks-per-thread [$THREADS ]" \
  " writes-per-batch $BATCH  wal-bytes $( [ -n "${DATA:-}" ] && stat -c %s "$DATA/trust-insights.sqlite-wal" || echo -)  load $(cut -d' ' -f1 /proc/loadavg)"
