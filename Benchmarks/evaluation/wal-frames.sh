#!/usr/bin/env bash
# What each group commit writes to the WAL: strace follows the server's pwrite64 calls for a few seconds under wrk
# load, and the frame headers SQLite writes (24 bytes: page number, then the database size, non-zero only on a
# commit's last frame) are counted per commit. strace slows the server, so batches are larger than without it.
#
#   Benchmarks/evaluation/wal-frames.sh [connections=64] [traced-seconds=2]
#   BIN=/path/to/trust-insights Benchmarks/evaluation/wal-frames.sh     # a given build instead of this tree's
set -euo pipefail
CONNECTIONS=${1:-64}
TRACED=${2:-2}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
for tool in wrk strace python3; do command -v $tool >/dev/null || { echo "$tool is missing: apt-get install -y $tool" >&2; exit 1; }; done
if [ -z "${BIN:-}" ]; then
  (cd "$ROOT" && swift build -c release --product trust-insights >&2)
  BIN="$(cd "$ROOT" && swift build -c release --show-bin-path)/trust-insights"
fi
. "$HERE/server.sh"
TRACE=$(mktemp)
trap 'kill -TERM $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; rm -rf "$DATA" "$OUT" "$TRACE"' EXIT
wrk -t2 -c16 -d2s -s "$HERE/evaluate.lua" "$URL" >/dev/null
wrk -t2 -c"$CONNECTIONS" -d$((TRACED + 3))s -s "$HERE/evaluate.lua" "$URL" >/dev/null &
WRK=$!
sleep 1
# The writer's WAL descriptor: the lowest-numbered one open on the -wal file (ls sorts names as text: "11" < "5").
WAL_FD=$(ls -l /proc/$SERVER/fd | awk '/sqlite-wal$/ { print $9 }' | sort -n | head -1)
timeout -s INT "$TRACED" strace -f -e trace=pwrite64 -e signal=none -p "$SERVER" -o "$TRACE" 2>/dev/null || true
wait $WRK
python3 - "$TRACE" "$WAL_FD" <<'PY'
import re, statistics, sys
frames, commits, current = 0, [], []
pattern = re.compile(r'pwrite64\(' + sys.argv[2] + r', "((?:[^"\\]|\\.)*)"\.*, 24, \d+\)')
for line in open(sys.argv[1]):
    match = pattern.search(line)
    if not match:
        continue
    header = match.group(1).encode('latin1').decode('unicode_escape').encode('latin1')
    if len(header) < 8:
        continue
    frames += 1
    current.append(int.from_bytes(header[0:4], 'big'))
    if int.from_bytes(header[4:8], 'big'):
        commits.append(current)
        current = []
if not commits:
    sys.exit("no commits seen: is the server under load?")
sizes = [len(c) for c in commits]
distinct = [len(set(c)) for c in commits]
print(f"commits {len(commits)}  frames {frames}  frames-per-commit median {statistics.median(sizes)}"
      f" (distinct pages {statistics.median(distinct)})  page 1 in {sum(1 in c for c in commits) * 100 // len(commits)}% of commits")
PY
echo "writes-per-batch $(curl -s "$URL/metrics" | awk '/^trust_insights_store_batches_total/ { b = $2 } /^trust_insights_store_writes_total/ { w = $2 } END { if (b > 0) printf "%.1f", w / b }')"
