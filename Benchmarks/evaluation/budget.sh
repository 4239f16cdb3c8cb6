#!/usr/bin/env bash
# Where an evaluation's server CPU goes, side by side in one run with the reference routes: server CPU per request
# (utime + stime from /proc, per thread by name) at 64 connections for
#   evaluation   POST /v1/evaluations (evaluate.lua), split into the event loops (http-loop-N: HTTP, decoding,
#                scoring, velocity, encoding, signing), the store's writer and its checkpointer;
#   reference    POST /numbers on our own HTTP server (http-conformance-target): HTTP, 32 numbers decoded, nothing else;
#   bare         POST / on that server with the evaluation's own request body, answered with it (echo.lua): HTTP alone,
#                for a request and an answer of an evaluation's size, with no JSON work;
#   hummingbird  the issue's reference, Hummingbird 2 serving POST /numbers, when HUMMINGBIRD_BIN names a build of it;
# and one ES256 signature on one core (openssl speed, CPU time), the part of an evaluation no code of ours can make
# cheaper. Prints the median of RUNS rounds (servers alternate, each alone on the machine) and a floor: what the
# bare route, one signature and the durable write cost together, against Hummingbird's whole request. (Until
# 22 November the floor used the reference route, which also pays for Foundation's JSONDecoder and JSONEncoder: an
# evaluation pays for neither, so that floor was too high by their cost.)
#
#   Benchmarks/evaluation/budget.sh
#   RUNS=5 DURATION=10 HUMMINGBIRD_BIN=/tmp/hb-ref/.build/release/HummingbirdReference Benchmarks/evaluation/budget.sh
#   BIN=/path/to/trust-insights Benchmarks/evaluation/budget.sh   # a given build instead of this tree's
set -euo pipefail
RUNS=${RUNS:-3}
DURATION=${DURATION:-8}
CONNECTIONS=${CONNECTIONS:-64}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
command -v openssl >/dev/null || { echo "openssl is missing: apt-get install -y openssl" >&2; exit 1; }
cd "$ROOT"
. "$HERE/references.sh"

. "$HERE/server.sh"
EVALUATION=$SERVER
EVALUATION_URL=$URL
REFERENCE_OUT=$(mktemp)
HUMMINGBIRD_OUT=$(mktemp)
REFERENCE=""
HUMMINGBIRD=""
trap 'kill -TERM $EVALUATION $REFERENCE $HUMMINGBIRD 2>/dev/null || true; wait $EVALUATION $REFERENCE $HUMMINGBIRD 2>/dev/null || true; rm -rf "$DATA" "$OUT" "$REFERENCE_OUT" "$HUMMINGBIRD_OUT"' EXIT
start_reference "$REFERENCE_OUT"
ROUTES="reference bare evaluation"
if [ -n "${HUMMINGBIRD_BIN:-}" ]; then
  start_hummingbird "$HUMMINGBIRD_OUT"
  ROUTES="hummingbird $ROUTES"
fi
url_of() { case $1 in evaluation) echo "$EVALUATION_URL" ;; reference|bare) echo "$REFERENCE_URL" ;; hummingbird) echo "$HUMMINGBIRD_URL" ;; esac; }
pid_of() { case $1 in evaluation) echo "$EVALUATION" ;; reference|bare) echo "$REFERENCE" ;; hummingbird) echo "$HUMMINGBIRD" ;; esac; }
script_of() { case $1 in evaluation) echo evaluate.lua ;; bare) echo echo.lua ;; *) echo numbers.lua ;; esac; }
median() { sort -g | awk '{ a[NR]=$1 } END { print a[int((NR+1)/2)] }'; }
HZ=$(getconf CLK_TCK)

# Clock ticks per thread group of a process: "loops writer checkpointer other total". Threads are told apart by
# the names the service gives them (README, "Deployment"); a server that names none counts as "other".
ticks() {
  local pid=$1 task name t loops=0 writer=0 checkpointer=0 other=0
  for task in /proc/"$pid"/task/*; do
    name=$(cat "$task/comm" 2>/dev/null || echo gone)
    t=$(awk '{ print $14 + $15 }' "$task/stat" 2>/dev/null || echo 0)
    case $name in
      http-loop-*) loops=$((loops + t)) ;;
      store-writer) writer=$((writer + t)) ;;
      checkpointer) checkpointer=$((checkpointer + t)) ;;
      *) other=$((other + t)) ;;
    esac
  done
  # Threads that ended between two readings are in the process's own total only.
  echo "$loops $writer $checkpointer $other $(awk '{ print $14 + $15 }' /proc/"$pid"/stat)"
}

for route in $ROUTES; do wrk -t2 -c16 -d3s -s "$HERE/$(script_of "$route")" "$(url_of "$route")" >/dev/null; done

declare -A SAMPLES
sample() { # route: appends "name=microseconds" pairs for one run
  local route=$1 pid before after requests
  pid=$(pid_of "$route")
  before=($(ticks "$pid"))
  requests=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -s "$HERE/$(script_of "$route")" "$(url_of "$route")" \
    | awk '/requests in/ { print $1 }')
  after=($(ticks "$pid"))
  local names=(loops writer checkpointer other total) i
  for i in 0 1 2 3 4; do
    SAMPLES[$route.${names[$i]}]+="$(awk -v d=$(( after[i] - before[i] )) -v r="$requests" -v hz="$HZ" \
      'BEGIN { printf "%.1f", d * 1000000 / hz / r }') "
  done
  SAMPLES[$route.rps]+="$(awk -v r="$requests" -v s="$DURATION" 'BEGIN { printf "%.0f", r / s }') "
}
for run in $(seq "$RUNS"); do
  for route in $ROUTES; do sample "$route"; done
  SAMPLES[sign]+="$(openssl speed -seconds 2 ecdsap256 2>/dev/null | awk '/256 bits ecdsa \(nistp256\)/ { printf "%.1f", 1000000 / $(NF-1) }') "
done
of() { tr ' ' '\n' <<<"${SAMPLES[$1]:-}" | grep . | median; }

echo "server CPU per request, microseconds (median of $RUNS runs, $CONNECTIONS connections, ${DURATION} s each)"
printf '%-12s %10s %10s %10s %12s %10s %10s\n' route requests/s total loops writer checkpointer other
for route in $ROUTES; do
  printf '%-12s %10s %10s %10s %12s %10s %10s\n' "$route" "$(of "$route.rps")" "$(of "$route.total")" \
    "$(of "$route.loops")" "$(of "$route.writer")" "$(of "$route.checkpointer")" "$(of "$route.other")"
done
SIGN=$(of sign)
echo "one ES256 signature (openssl speed ecdsap256, CPU time): $SIGN us"
FLOOR=$(awk -v r="$(of bare.total)" -v s="$SIGN" -v w="$(of evaluation.writer)" -v c="$(of evaluation.checkpointer)" \
  'BEGIN { printf "%.1f", r + s + w + c }')
REST=$(awk -v e="$(of evaluation.total)" -v f="$FLOOR" 'BEGIN { printf "%.1f", e - f }')
echo "floor = bare route + one signature + writer + checkpointer = $FLOOR us;" \
  "the rest of an evaluation (authentication, validation, hashing, velocity, two scores, encoding, a larger" \
  "request and answer) = $REST us"
if [ -n "$HUMMINGBIRD" ]; then
  awk -v f="$FLOOR" -v h="$(of hummingbird.total)" -v e="$(of evaluation.total)" 'BEGIN {
    printf "Hummingbird, whole request = %.1f us: the floor is %.2f of it, the evaluation %.2f\n", h, f / h, e / h }'
fi
