#!/usr/bin/env bash
# What a flood of opt-outs on made-up refs does to the server's memory: starts BIN (default: this tree's release
# build) on a fresh data folder, runs wrk with opt-out.lua for SECONDS, and prints the server's resident memory and
# the two opt-out gauges every 20 s. Flags after SECONDS go to `serve` (`--authorization-opt-outs-in-memory 20000`).
#
#   Benchmarks/authorization/opt-out-flood.sh [seconds=160] [serve flags...]
#   BIN=/path/to/trust-insights Benchmarks/authorization/opt-out-flood.sh 160
set -euo pipefail
SECONDS_=${1:-160}
shift || true
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BIN=${BIN:-$ROOT/.build/release/trust-insights}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
DATA=$(mktemp -d)
OUT=$(mktemp)
"$BIN" keys create --tenant flood --role client --env production --data-dir "$DATA" >"$OUT"
export TI_KEY=$(tail -1 "$OUT")
(cd "$ROOT" && exec "$BIN" serve --port 0 --data-dir "$DATA" --access-log false "$@") >"$OUT" 2>/dev/null &
SERVER=$!
trap 'kill -TERM $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; rm -rf "$DATA" "$OUT"' EXIT
for _ in $(seq 150); do grep -q listening "$OUT" && break; sleep 0.2; done
PORT=$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$OUT")
URL="http://127.0.0.1:$PORT"
rss() { awk '/VmRSS/ { print $2 }' "/proc/$SERVER/status"; }
gauges() { curl -s "$URL/metrics" | awk '/^trust_insights_authorization_opt_outs/ { printf " %s %s", $1, $2 }'; }
echo "start: rss $(rss) kB$(gauges)"
wrk -t2 -c16 -d"${SECONDS_}s" -s "$HERE/opt-out.lua" "$URL" | grep -E "requests in|Requests/sec|Non-2xx" &
WRK=$!
for step in $(seq $((SECONDS_ / 20))); do
  sleep 20
  echo "t=$((step * 20))s: rss $(rss) kB$(gauges)"
done
wait $WRK
echo "end: rss $(rss) kB$(gauges)"
