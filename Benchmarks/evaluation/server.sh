# Sourced by the evaluation benchmarks: starts $BIN on a fresh data folder with a production client key whose
# limit is far above what one machine can send (this measures the service, not its rate limiter), and sets
# SERVER (the pid), URL and TI_KEY (for evaluate.lua). The server and folder go when the script exits. LAUNCHER, if
# set, is a command the server runs under (instructions.sh: valgrind), which must exec it in the same process.
# The server reads ./config and ./models, so it starts in the repository root whichever folder the script runs from.
SERVER_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
DATA=$(mktemp -d)
OUT=$(mktemp)
"$BIN" keys create --tenant bench --role client --env production --rate 1000000 --burst 1000000 --data-dir "$DATA" >"$OUT"
export TI_KEY=$(tail -1 "$OUT")
(cd "$SERVER_ROOT" && exec ${LAUNCHER:-} "$BIN" serve --port 0 --data-dir "$DATA" --access-log false) \
  >"$OUT" 2>/dev/null &
SERVER=$!
trap 'kill -TERM $SERVER 2>/dev/null || true; wait $SERVER 2>/dev/null || true; rm -rf "$DATA" "$OUT"' EXIT
# Up to 60 s: under valgrind, start-up (model loading) takes many times longer.
for _ in $(seq 300); do grep -q listening "$OUT" && break; sleep 0.2; done
PORT=$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$OUT")
URL="http://127.0.0.1:$PORT"
