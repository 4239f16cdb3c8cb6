#!/usr/bin/env bash
# Feedback benchmark: consumption reports/s and labels/s (batches of 1,000) against the release binary on
# 127.0.0.1, with wrk. Evaluations are seeded straight into the database first (seed.py), so each consumption
# report and each label is new work, not a repeat; runs are kept short enough that no ID is reused.
#
#   Benchmarks/feedback/run.sh                 # 3 runs each, 3 s each
#   RUNS=5 DURATION=5s Benchmarks/feedback/run.sh
#   ONLY=labels Benchmarks/feedback/run.sh     # just one route (consumption or labels)
#   BIN=/path/to/trust-insights Benchmarks/feedback/run.sh   # another build, e.g. to compare before and after
set -euo pipefail
RUNS=${RUNS:-3}
ONLY=${ONLY:-}
DURATION=${DURATION:-3s}
EVALUATIONS=${EVALUATIONS:-300000}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
cd "$ROOT"
if [ -z "${BIN:-}" ]; then
  swift build -c release --product trust-insights >&2
  BIN="$(swift build -c release --show-bin-path)/trust-insights"
fi

median() { sort -g | awk '{ a[NR]=$1 } END { print a[int((NR+1)/2)] }'; }
to_ms() { awk '{ v=$1; if (v ~ /us$/) { sub(/us$/,"",v); v=v/1000 } else if (v ~ /ms$/) { sub(/ms$/,"",v) } else if (v ~ /s$/) { sub(/s$/,"",v); v=v*1000 }; printf "%.3f", v }'; }

# One fresh data folder per run: every run reports on evaluations nobody reported on yet.
run_once() { # $1 = consumption|labels, $2 = connections
  local data out key partner
  data=$(mktemp -d); out=$(mktemp)
  "$BIN" keys create --tenant bench --role client --env production --data-dir "$data" >"$out"
  key=$(tail -1 "$out")
  "$BIN" keys create --tenant bench --role partner --env production --data-dir "$data" >"$out"
  partner=$(tail -1 "$out")
  local key_id
  key_id=$(echo "$key" | cut -d_ -f3)
  # A folder holding evaluations needs its signing key to start (README, "First start").
  "$BIN" signing-keys rotate --data-dir "$data" >/dev/null
  python3 "$HERE/seed.py" "$data/trust-insights.sqlite" "$key_id" "$EVALUATIONS" "$data/evaluations.txt" "$data/insights.txt"
  "$BIN" serve --port 0 --data-dir "$data" --access-log false >"$out" 2>/dev/null &
  local server=$!
  for _ in $(seq 100); do grep -q listening "$out" && break; sleep 0.2; done
  local port
  port=$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$out")
  local report
  if [ "$1" = consumption ]; then
    report=$(TI_KEY=$key TI_IDS=$data/evaluations.txt TI_HERE=$HERE TI_THREADS=2 wrk -t2 -c"$2" -d"$DURATION" --latency \
      -s "$HERE/consumption.lua" "http://127.0.0.1:$port")
  else
    report=$(TI_KEY=$partner TI_IDS=$data/insights.txt TI_HERE=$HERE TI_THREADS=2 wrk -t2 -c"$2" -d"$DURATION" --latency --timeout 10s \
      -s "$HERE/labels.lua" "http://127.0.0.1:$port")
  fi
  kill -TERM "$server"; wait "$server" || true
  rm -rf "$data" "$out"
  local rps p50 p99 errors
  rps=$(awk '/Requests\/sec/ { print $2 }' <<<"$report")
  p50=$(awk '$1 == "50%" { print $2 }' <<<"$report" | to_ms)
  p99=$(awk '$1 == "99%" { print $2 }' <<<"$report" | to_ms)
  errors=$(awk '/Non-2xx/ { print $5 }' <<<"$report")
  echo "$rps $p50 $p99 ${errors:-0}"
}

printf '%-12s %-12s %14s %10s %10s %s\n' route connections items/s p50-ms p99-ms non-2xx
for spec in "consumption 16" "consumption 64" "labels 4" "labels 16"; do
  set -- $spec
  [ -n "$ONLY" ] && [ "$1" != "$ONLY" ] && continue
  rps=(); p50=(); p99=(); errors=0
  for _ in $(seq "$RUNS"); do
    read -r r a b e < <(run_once "$1" "$2")
    rps+=("$r"); p50+=("$a"); p99+=("$b"); errors=$((errors + e))
  done
  per=1; [ "$1" = labels ] && per=1000
  items=$(printf '%s\n' "${rps[@]}" | median | awk -v per="$per" '{ printf "%.0f", $1 * per }')
  printf '%-12s %-12s %14s %10s %10s %s\n' "$1" "$2" "$items" "$(printf '%s\n' "${p50[@]}" | median)" \
    "$(printf '%s\n' "${p99[@]}" | median)" "$errors"
done
