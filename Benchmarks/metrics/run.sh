#!/usr/bin/env bash
# Label metrics benchmark: full exports of a generated data folder (default 10,000,000 evaluations and 100,000
# labels over a year, scripts/generate-metrics-data.sh), through the CLI and through the API, in release mode.
# Prints the median of RUNS runs of wall time, the CLI's peak RSS, the output size, and the server's peak RSS.
#
#   Benchmarks/metrics/run.sh                         # data in /tmp/trust-insights-metrics-bench (made if missing)
#   RUNS=7 Benchmarks/metrics/run.sh /data/folder
set -euo pipefail
RUNS=${RUNS:-5}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DATA=${1:-/tmp/trust-insights-metrics-bench}
command -v curl >/dev/null || { echo "curl is missing" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "GNU time is missing: apt-get install -y time" >&2; exit 1; }
cd "$ROOT"
swift build -c release --product trust-insights >&2
BIN="$(swift build -c release --show-bin-path)/trust-insights"
if [ ! -e "$DATA/trust-insights.sqlite" ]; then
  BIN="$BIN" scripts/generate-metrics-data.sh "$DATA" >/dev/null
fi
KEY=$(cat "$DATA/analyst.key")
FROM=$(date -u -d '-365 days' +%F)
TO=$(date -u +%F)
ALL=category,modelVersion,outcome,consumption,environment
OUT=$(mktemp)
LOG=$(mktemp)
median() { sort -g | awk '{ a[NR]=$1 } END { print a[int((NR+1)/2)] }'; }

echo "data: $(sqlite3 "$DATA/trust-insights.sqlite" 'SELECT count(*) FROM evaluation') evaluations," \
  "$(sqlite3 "$DATA/trust-insights.sqlite" 'SELECT count(*) FROM label') labels," \
  "$(sqlite3 "$DATA/trust-insights.sqlite" 'SELECT count(*) FROM metrics_daily') daily aggregate rows"
printf '%-44s %9s %11s %11s\n' case median-s peak-RSS-MB output-MB

cli() {
  local name=$1; shift
  local times=() rss=()
  for _ in $(seq "$RUNS"); do
    /usr/bin/time -f '%e %M' -o "$LOG" "$BIN" export metrics --tenant bench --data-dir "$DATA" --from "$FROM" --to "$TO" "$@" --out "$OUT" 2>/dev/null
    read -r seconds kilobytes <"$LOG"
    times+=("$seconds"); rss+=("$kilobytes")
  done
  printf '%-44s %9s %11s %11s\n' "$name" "$(printf '%s\n' "${times[@]}" | median)" \
    "$(( $(printf '%s\n' "${rss[@]}" | median) / 1024 ))" "$(awk -v b="$(stat -c %s "$OUT")" 'BEGIN { printf "%.1f", b / 1048576 }')"
}
cli "CLI json, all 5 dimensions, both envs" --group-by "$ALL" --environment all
cli "CLI csv, all 5 dimensions, both envs" --group-by "$ALL" --environment all --format csv
cli "CLI json, by model version" --group-by modelVersion
cli "CLI json, no grouping" 

SERVER_LOG=$(mktemp)
"$BIN" serve --port 0 --data-dir "$DATA" --access-log false >"$SERVER_LOG" 2>&1 &
SERVER=$!
trap 'kill -TERM $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; rm -f "$OUT" "$LOG" "$SERVER_LOG"' EXIT
for _ in $(seq 100); do grep -q listening "$SERVER_LOG" && break; sleep 0.2; done
PORT=$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$SERVER_LOG" | head -1)
api() {
  local name=$1 query=$2
  local times=()
  curl -s -o /dev/null -H "Authorization: Bearer $KEY" "http://127.0.0.1:$PORT/v1/metrics/labels?$query"
  for _ in $(seq "$RUNS"); do
    times+=("$(curl -s -o "$OUT" -w '%{time_total}' -H "Authorization: Bearer $KEY" "http://127.0.0.1:$PORT/v1/metrics/labels?$query")")
  done
  printf '%-44s %9s %11s %11s\n' "$name" "$(printf '%s\n' "${times[@]}" | median)" "-" \
    "$(awk -v b="$(stat -c %s "$OUT")" 'BEGIN { printf "%.1f", b / 1048576 }')"
}
api "API json, all 5 dimensions, both envs" "groupBy=$ALL&environment=all&from=$FROM&to=$TO"
api "API csv, all 5 dimensions, both envs" "groupBy=$ALL&environment=all&from=$FROM&to=$TO&format=csv"
echo "server peak RSS: $(awk '/VmHWM/ { printf "%d MB", $2 / 1024 }' /proc/$SERVER/status)"
