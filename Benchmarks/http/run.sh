#!/usr/bin/env bash
# HTTP server benchmark: builds release, starts http-conformance-target on 127.0.0.1, and drives it with wrk
# (Debian package `wrk`) for GET / at 1, 16 and 64 connections and a small JSON POST at 64 connections; then the
# real service (`trust-insights serve`) for GET /healthz at 1, 16 and 64 connections.
# Prints the median of RUNS runs of requests/s, p50 and p99 for each case.
#
#   Benchmarks/http/run.sh                 # 3 runs of 10 s each
#   RUNS=5 DURATION=5s LOOPS=2 Benchmarks/http/run.sh
#   EXTRA_ARGS=--access-log Benchmarks/http/run.sh    # with the JSON access log (written to /dev/null)
#   BASELINE=1 Benchmarks/http/run.sh      # also a minimal C epoll server (minimal-epoll-server.c), run by run
#                                          # alternating with ours, for a ratio that machine noise affects less
set -euo pipefail

RUNS=${RUNS:-3}
DURATION=${DURATION:-10s}
LOOPS=${LOOPS:-$(nproc)}
EXTRA_ARGS=${EXTRA_ARGS:-}
BASELINE=${BASELINE:-0}
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

BASE_URL=""
if [ "$BASELINE" = 1 ]; then
    BASE_BIN=$(mktemp)
    cc -O2 -o "$BASE_BIN" "$HERE/minimal-epoll-server.c" -lpthread
    BASE_PORT=$((20000 + RANDOM % 20000))
    "$BASE_BIN" "$BASE_PORT" "$LOOPS" >/dev/null &
    BASE_PID=$!
    trap 'kill -TERM $SERVER $BASE_PID 2>/dev/null || true; wait 2>/dev/null || true; rm -f "$OUT" "$BASE_BIN"' EXIT
    sleep 0.3
    BASE_URL="http://127.0.0.1:$BASE_PORT/"
fi

# Latency in ms from wrk's "50%  235.00us" style figures.
to_ms() { awk '{ v=$1; if (v ~ /us$/) { sub(/us$/,"",v); v=v/1000 } else if (v ~ /ms$/) { sub(/ms$/,"",v) } else if (v ~ /s$/) { sub(/s$/,"",v); v=v*1000 }; printf "%.3f", v }'; }
median() { sort -g | awk '{ a[NR]=$1 } END { print a[int((NR+1)/2)] }'; }

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# One wrk run: prints "requests/s p50-ms p99-ms server-cpu-us-per-request". The last figure comes from the
# server's own user+system time (/proc/PID/stat) and is far less disturbed by other load than requests/s.
measure() {
    local url=$1 threads=$2 connections=$3 script=$4 pid=$5
    local args=(-t"$threads" -c"$connections" -d"$DURATION" --latency)
    [ -n "$script" ] && args+=(-s "$script")
    local report before after
    before=$(cpu_ticks "$pid")
    report=$(wrk "${args[@]}" "$url")
    after=$(cpu_ticks "$pid")
    local requests
    requests=$(awk '/requests in/ { print $1 }' <<<"$report")
    echo "$(awk '/Requests\/sec/ { print $2 }' <<<"$report") $(awk '$1 == "50%" { print $2 }' <<<"$report" | to_ms) $(awk '$1 == "99%" { print $2 }' <<<"$report" | to_ms) $(echo "($after - $before) * 10000 / $requests" | bc -l)"
}

summary() {
    local label=$1 connections=$2 file=$3
    printf "%-24s %3s conns %9.0f req/s  p50 %7s ms  p99 %7s ms  cpu %5.1f us/req  (runs: %s)\n" "$label" "$connections" \
        "$(awk '{ print $1 }' "$file" | median)" "$(awk '{ print $2 }' "$file" | median)" \
        "$(awk '{ print $3 }' "$file" | median)" "$(awk '{ print $4 }' "$file" | median)" "$(awk '{ printf "%.0f ", $1 }' "$file")"
}

run_case() {
    local name=$1 connections=$2 script=${3:-}
    local threads=2
    [ "$connections" -lt 2 ] && threads=1
    local ours base
    ours=$(mktemp)
    base=$(mktemp)
    for _ in $(seq "$RUNS"); do
        measure "$URL" "$threads" "$connections" "$script" "$SERVER" >>"$ours"
        [ -n "$BASE_URL" ] && measure "$BASE_URL" "$threads" "$connections" "$script" "$BASE_PID" >>"$base"
    done
    summary "$name" "$connections" "$ours"
    if [ -n "$BASE_URL" ]; then
        summary "  minimal epoll (C)" "$connections" "$base"
        printf "  ratio ours/minimal: %.2f in req/s, %.2f in server CPU per request\n" \
            "$(echo "$(awk '{ print $1 }' "$ours" | median) / $(awk '{ print $1 }' "$base" | median)" | bc -l)" \
            "$(echo "$(awk '{ print $4 }' "$ours" | median) / $(awk '{ print $4 }' "$base" | median)" | bc -l)"
    fi
    rm -f "$ours" "$base"
}

echo "http-conformance-target, $LOOPS event loops, wrk $DURATION x $RUNS runs (median), $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
run_case "GET /" 1
run_case "GET /" 16
run_case "GET /" 64
run_case "POST / (JSON, 110 B)" 64 "$HERE/post.lua"

# The issue's own case: GET /healthz on the real service (`trust-insights serve`, access log off, a fresh data
# folder), at 1, 16 and 64 connections.
kill -TERM "$SERVER" 2>/dev/null || true
wait "$SERVER" 2>/dev/null || true
swift build -c release --product trust-insights >&2
SERVICE_BIN="$(swift build -c release --show-bin-path)/trust-insights"
SERVICE_DATA=$(mktemp -d)
"$SERVICE_BIN" serve --port 0 --data-dir "$SERVICE_DATA" --access-log false --event-loops "$LOOPS" >"$OUT" 2>/dev/null &
SERVICE_PID=$!
trap 'kill -TERM $SERVICE_PID ${BASE_PID:-} 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$OUT" "$SERVICE_DATA" ${BASE_BIN:-}' EXIT
for _ in $(seq 100); do grep -q "listening on" "$OUT" && break; sleep 0.1; done
SERVICE_PORT=$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$OUT")
URL="http://127.0.0.1:$SERVICE_PORT/healthz"
SERVER=$SERVICE_PID
echo "trust-insights serve, GET /healthz"
run_case "GET /healthz" 1
run_case "GET /healthz" 16
run_case "GET /healthz" 64
