#!/usr/bin/env bash
# HTTP server benchmark: builds release, starts http-conformance-target on 127.0.0.1, and drives it with wrk
# (Debian package `wrk`) for GET / at 1, 16 and 64 connections and a small JSON POST at 64 connections.
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

measure() {
    local url=$1 threads=$2 connections=$3 script=$4
    local args=(-t"$threads" -c"$connections" -d"$DURATION" --latency)
    [ -n "$script" ] && args+=(-s "$script")
    local report
    report=$(wrk "${args[@]}" "$url")
    echo "$(awk '/Requests\/sec/ { print $2 }' <<<"$report") $(awk '$1 == "50%" { print $2 }' <<<"$report" | to_ms) $(awk '$1 == "99%" { print $2 }' <<<"$report" | to_ms)"
}

summary() {
    local label=$1 connections=$2 file=$3
    printf "%-24s %3s conns %9.0f req/s  p50 %7s ms  p99 %7s ms  (runs: %s)\n" "$label" "$connections" \
        "$(awk '{ print $1 }' "$file" | median)" "$(awk '{ print $2 }' "$file" | median)" \
        "$(awk '{ print $3 }' "$file" | median)" "$(awk '{ printf "%.0f ", $1 }' "$file")"
}

run_case() {
    local name=$1 connections=$2 script=${3:-}
    local threads=2
    [ "$connections" -lt 2 ] && threads=1
    local ours base
    ours=$(mktemp)
    base=$(mktemp)
    for _ in $(seq "$RUNS"); do
        measure "$URL" "$threads" "$connections" "$script" >>"$ours"
        [ -n "$BASE_URL" ] && measure "$BASE_URL" "$threads" "$connections" "$script" >>"$base"
    done
    summary "$name" "$connections" "$ours"
    if [ -n "$BASE_URL" ]; then
        summary "  minimal epoll (C)" "$connections" "$base"
        printf "  ratio ours/minimal: %.2f\n" "$(echo "$(awk '{ print $1 }' "$ours" | median) / $(awk '{ print $1 }' "$base" | median)" | bc -l)"
    fi
    rm -f "$ours" "$base"
}

echo "http-conformance-target, $LOOPS event loops, wrk $DURATION x $RUNS runs (median), $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
run_case "GET /" 1
run_case "GET /" 16
run_case "GET /" 64
run_case "POST / (JSON, 110 B)" 64 "$HERE/post.lua"
