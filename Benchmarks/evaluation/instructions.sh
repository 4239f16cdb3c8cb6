#!/usr/bin/env bash
# Instructions per evaluation, counted by valgrind's callgrind: the release binary runs under callgrind, wrk warms
# it up, the counters are zeroed, wrk runs again (one thread, 8 connections), and the counters are dumped. Unlike
# requests/s on this noisy 2-core machine, the count hardly moves from run to run (a group commit's batch size
# still varies a little), so it resolves changes of 1-2% that a wrk A/B cannot. Prints the whole process's count
# per evaluation and the callgrind file, for `callgrind_annotate --inclusive=yes <file>`.
#
#   Benchmarks/evaluation/instructions.sh [seconds=15]
#   BIN=/path/to/trust-insights Benchmarks/evaluation/instructions.sh 15   # a given build instead of this tree's
set -euo pipefail
SECONDS_=${1:-15}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind is missing: apt-get install -y valgrind" >&2; exit 1; }
if [ -z "${BIN:-}" ]; then
  (cd "$ROOT" && swift build -c release --product trust-insights >&2)
  BIN="$(cd "$ROOT" && swift build -c release --show-bin-path)/trust-insights"
fi
PROFILE=$(mktemp -d)
LAUNCHER="valgrind --tool=callgrind --callgrind-out-file=$PROFILE/callgrind.out.%p"
. "$HERE/server.sh"
wrk -t1 -c8 -d5s -s "$HERE/evaluate.lua" "$URL" >/dev/null
callgrind_control -z "$SERVER" >/dev/null
REQUESTS=$(wrk -t1 -c8 -d"${SECONDS_}s" -s "$HERE/evaluate.lua" "$URL" | awk '/requests in/ { print $1 }')
callgrind_control -d "$SERVER" >/dev/null
sleep 1
FILE=$(ls -t "$PROFILE"/callgrind.out.* | head -1)
INSTRUCTIONS=$(awk '/^(summary|totals):/ { print $2; exit }' "$FILE")
echo "evaluations $REQUESTS  instructions $INSTRUCTIONS  per-evaluation $((INSTRUCTIONS / REQUESTS))  profile $FILE"
