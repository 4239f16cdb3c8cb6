#!/usr/bin/env bash
# Two builds of trust-insights alternately on the evaluation route, each on a fresh data folder with a 2 s warm-up:
# requests/s, p50, p90, p99, the server's CPU per evaluation (utime + stime from /proc, in microseconds) and the
# writer's checkpoint catch-ups per run. For before/after comparisons of one change on a noisy machine, where only
# runs taken side by side compare. Every other round runs AFTER first, so a drift in the machine's load does not
# favour one build.
#
#   Benchmarks/evaluation/ab.sh BEFORE_BIN AFTER_BIN [runs=3] [connections=64] [seconds=10]
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 BEFORE_BIN AFTER_BIN [runs] [connections] [seconds]" >&2; exit 2; }
BEFORE=$1; AFTER=$2; RUNS=${3:-3}; CONNECTIONS=${4:-64}; SECONDS_PER_RUN=${5:-10}
HERE=$(cd "$(dirname "$0")" && pwd)
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
cd "$HERE/../.."
printf '%-40s %10s %8s %8s %8s %8s %s\n' build requests/s p50 p90 p99 cpu-us catch-ups
TICKS=$(getconf CLK_TCK)
for ROUND in $(seq "$RUNS"); do
  ORDER=("$BEFORE" "$AFTER")
  [ $((ROUND % 2)) = 0 ] && ORDER=("$AFTER" "$BEFORE")
  for BIN in "${ORDER[@]}"; do
    # A subshell per run: server.sh's exit trap stops the server and removes its folder.
    (
      . "$HERE/server.sh"
      wrk -t2 -c"$CONNECTIONS" -d2s -s "$HERE/evaluate.lua" "$URL" >/dev/null
      before=$(awk '{ print $14 + $15 }' "/proc/$SERVER/stat")
      report=$(wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_PER_RUN}s" --latency -s "$HERE/evaluate.lua" "$URL")
      after=$(awk '{ print $14 + $15 }' "/proc/$SERVER/stat")
      requests=$(awk '/requests in/ { print $1 }' <<<"$report")
      cpu=$(awk -v a="$before" -v b="$after" -v n="$requests" -v t="$TICKS" 'BEGIN { printf "%.1f", (b - a) * 1e6 / t / n }')
      catchups=$(curl -s "$URL/metrics" | awk '/^trust_insights_store_checkpoint_catchups_total/ { print $2 }')
      printf '%-40s %10s %8s %8s %8s %8s %s\n' "$BIN" "$(awk '/Requests\/sec/ { print $2 }' <<<"$report")" \
        "$(awk '$1 == "50%" { print $2 }' <<<"$report")" "$(awk '$1 == "90%" { print $2 }' <<<"$report")" \
        "$(awk '$1 == "99%" { print $2 }' <<<"$report")" "$cpu" "$catchups"
    )
  done
done
