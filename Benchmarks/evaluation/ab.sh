#!/usr/bin/env bash
# Two builds of trust-insights alternately on the evaluation route, each on a fresh data folder with a 2 s warm-up:
# requests/s, p50, p90, p99 and the writer's checkpoint catch-ups per run. For before/after comparisons of one change
# on a noisy machine, where only runs taken side by side compare.
#
#   Benchmarks/evaluation/ab.sh BEFORE_BIN AFTER_BIN [runs=3] [connections=64] [seconds=10]
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 BEFORE_BIN AFTER_BIN [runs] [connections] [seconds]" >&2; exit 2; }
BEFORE=$1; AFTER=$2; RUNS=${3:-3}; CONNECTIONS=${4:-64}; SECONDS_PER_RUN=${5:-10}
HERE=$(cd "$(dirname "$0")" && pwd)
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
cd "$HERE/../.."
printf '%-40s %10s %8s %8s %8s %s\n' build requests/s p50 p90 p99 catch-ups
for _ in $(seq "$RUNS"); do
  for BIN in "$BEFORE" "$AFTER"; do
    # A subshell per run: server.sh's exit trap stops the server and removes its folder.
    (
      . "$HERE/server.sh"
      wrk -t2 -c"$CONNECTIONS" -d2s -s "$HERE/evaluate.lua" "$URL" >/dev/null
      report=$(wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_PER_RUN}s" --latency -s "$HERE/evaluate.lua" "$URL")
      catchups=$(curl -s "$URL/metrics" | awk '/^trust_insights_store_checkpoint_catchups_total/ { print $2 }')
      printf '%-40s %10s %8s %8s %8s %s\n' "$BIN" "$(awk '/Requests\/sec/ { print $2 }' <<<"$report")" \
        "$(awk '$1 == "50%" { print $2 }' <<<"$report")" "$(awk '$1 == "90%" { print $2 }' <<<"$report")" \
        "$(awk '$1 == "99%" { print $2 }' <<<"$report")" "$catchups"
    )
  done
done
