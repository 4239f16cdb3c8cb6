#!/usr/bin/env bash
# What one tenant's flood of opt-outs does to another tenant's evaluations on the same server: for each build, a
# fresh data folder and server with two client keys, evaluations alone for DURATION (wrk, 1 thread, 16
# connections, evaluate.lua), then the same evaluations while a second wrk (1 thread, 16 connections, opt-out.lua)
# sets `denied` on a new made-up ref each request under the other tenant's key. Builds alternate, RUNS times; prints
# the medians. BASELINE_BIN, if set, runs side by side with BIN (docs/BENCHMARKS.md, "Opt-outs beside evaluations").
#
#   Benchmarks/authorization/neighbours.sh
#   BIN=/path/to/new BASELINE_BIN=/path/to/old RUNS=5 DURATION=10s Benchmarks/authorization/neighbours.sh
set -euo pipefail
RUNS=${RUNS:-3}
DURATION=${DURATION:-10s}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BIN=${BIN:-$ROOT/.build/release/trust-insights}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
BUILDS="new"
[ -n "${BASELINE_BIN:-}" ] && BUILDS="baseline new"
binary_of() { if [ "$1" = baseline ]; then echo "$BASELINE_BIN"; else echo "$BIN"; fi; }

SERVER=""
DATA=""
OUT=""
stop_server() {
  [ -n "$SERVER" ] && { kill -TERM "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; }
  [ -n "$DATA" ] && rm -rf "$DATA" "$OUT"
  SERVER=""; DATA=""; OUT=""
}
trap stop_server EXIT

start_server() { # binary
  DATA=$(mktemp -d)
  OUT=$(mktemp)
  "$1" keys create --tenant bench --role client --env production --rate 1000000 --burst 1000000 --data-dir "$DATA" >"$OUT" 2>/dev/null
  EVALUATION_KEY=$(tail -1 "$OUT")
  "$1" keys create --tenant flood --role client --env production --data-dir "$DATA" >"$OUT" 2>/dev/null
  FLOOD_KEY=$(tail -1 "$OUT")
  (cd "$ROOT" && exec "$1" serve --port 0 --data-dir "$DATA" --access-log false) >"$OUT" 2>/dev/null &
  SERVER=$!
  for _ in $(seq 150); do grep -q listening "$OUT" && break; sleep 0.2; done
  PORT=$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$OUT")
  URL="http://127.0.0.1:$PORT"
}

to_ms() { awk '{ v=$1; if (v ~ /us$/) { sub(/us$/,"",v); v=v/1000 } else if (v ~ /ms$/) { sub(/ms$/,"",v) } else if (v ~ /s$/) { sub(/s$/,"",v); v=v*1000 }; printf "%.3f", v }'; }
median() { tr ' ' '\n' | grep . | sort -g | awk '{ a[NR]=$1 } END { print a[int((NR+1)/2)] }'; }
rate() { awk '/Requests\/sec/ { print $2 }'; }
p99() { awk '$1 == "99%" { print $2 }' | to_ms; }
non2xx() { awk '/Non-2xx/ { n=$5 } END { print n+0 }'; }

declare -A ALONE ALONE_P99 BESIDE BESIDE_P99 FLOOD ERRORS
for _ in $(seq "$RUNS"); do
  for build in $BUILDS; do
    start_server "$(binary_of "$build")"
    evaluate() { TI_KEY=$EVALUATION_KEY wrk -t1 -c16 -d"$1" --latency -s "$ROOT/Benchmarks/evaluation/evaluate.lua" "$URL"; }
    evaluate 3s >/dev/null
    report=$(evaluate "$DURATION")
    ALONE[$build]+="$(rate <<<"$report") "
    ALONE_P99[$build]+="$(p99 <<<"$report") "
    flood_report=$(mktemp)
    TI_KEY=$FLOOD_KEY wrk -t1 -c16 -d"$DURATION" -s "$HERE/opt-out.lua" "$URL" >"$flood_report" &
    FLOODER=$!
    report=$(evaluate "$DURATION")
    wait $FLOODER
    BESIDE[$build]+="$(rate <<<"$report") "
    BESIDE_P99[$build]+="$(p99 <<<"$report") "
    FLOOD[$build]+="$(rate <"$flood_report") "
    ERRORS[$build]=$(( ${ERRORS[$build]:-0} + $(non2xx <<<"$report") + $(non2xx <"$flood_report") ))
    rm -f "$flood_report"
    stop_server
  done
done

printf '%-9s %16s %12s %19s %15s %14s %8s\n' build evaluations/s p99-ms "beside a flood/s" p99-ms "opt-outs/s" non-2xx
for build in $BUILDS; do
  printf '%-9s %16s %12s %19s %15s %14s %8s\n' "$build" "$(median <<<"${ALONE[$build]}")" "$(median <<<"${ALONE_P99[$build]}")" \
    "$(median <<<"${BESIDE[$build]}")" "$(median <<<"${BESIDE_P99[$build]}")" "$(median <<<"${FLOOD[$build]}")" "${ERRORS[$build]}"
done
