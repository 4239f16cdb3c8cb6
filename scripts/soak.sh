#!/usr/bin/env bash
# Soak test: the realistic mix against the release binary on 127.0.0.1 at about 70% of measured capacity.
#
#   scripts/soak.sh [minutes]          # default 10
#   CONNECTIONS=16 LOAD=0.7 CAPACITY=<requests/s> KEEP=1 scripts/soak.sh 10
#   BIN=<a built trust-insights> scripts/soak.sh 10   # no build (a folder with config/ and models/ but no sources)
#   SOAK_ACCOUNTS=100 SOAK_PAYEES=100 scripts/soak.sh 10   # a leak check: velocity state full within the warm-up
#   SERVE_ARGS="--commit-window-microseconds 200" scripts/soak.sh 10   # extra flags for `serve`
#
# At least 2 minutes: the first is the warm-up, and the verdict judges the minutes after it.
#
# 1. Traffic from the simulator: `trust-insights simulate` rows of all five categories (payment 40%, account 20%,
#    resourceUse 15%, communication 15%, other 10%) become evaluation bodies (scripts/soak/bodies.py).
# 2. A fresh data folder, client/partner/analyst keys (rate limits far above the load: this measures the
#    service, not the limiter), `serve` with the access log off.
# 3. Capacity: the same mix as fast as CONNECTIONS connections go, 30 s after a 20 s warm-up (or CAPACITY=).
# 4. The soak: wrk with scripts/soak/mix.lua paced to LOAD x capacity: evaluations, each followed by its
#    consumption report, label batches of 100 every 50 requests per connection, and GET /v1/metrics/labels
#    exports when the route exists. The server's VmRSS is sampled every 5 s from /proc/<pid>/status.
# 5. scripts/soak/report.py: per-minute requests, errors, p50/p99 and RSS, and the verdict (no errors, RSS growth
#    under 10% after the first minute, no minute's p99 above twice the median). Exit status 1 on FAIL.
set -euo pipefail
minutes=${1:-10}
[ "$minutes" -ge 2 ] 2>/dev/null || { echo "soak: give at least 2 minutes (the first is the warm-up the verdict leaves out)" >&2; exit 64; }
connections=${CONNECTIONS:-16}
load=${LOAD:-0.7}
cd "$(dirname "$0")/.."
root=$(pwd)
export PATH="/opt/swift/usr/bin:$PATH"
command -v wrk >/dev/null || { echo "soak: wrk is missing (apt-get install -y wrk)" >&2; exit 1; }

if [ -n "${BIN:-}" ]; then
  bin=$BIN
else
  swift build -c release --product trust-insights >&2
  bin="$(swift build -c release --show-bin-path)/trust-insights"
fi
work=$(mktemp -d /tmp/trust-insights-soak.XXXXXX)
data=$work/data
server=""
sampler=""
cleanup() {
    [[ -n $sampler ]] && kill "$sampler" 2>/dev/null || true
    if [[ -n $server ]]; then kill -TERM "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    if [[ ${KEEP:-0} == 1 ]]; then echo "soak: logs kept in $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

echo "soak: generating traffic with the simulator" >&2
specs=()
seed=100
for pair in payment:40 account:20 resourceUse:15 communication:15 other:10; do
    category=${pair%%:*}
    "$bin" simulate --category "$category" --rows 4000 --seed "$seed" --positive-rate 0.05 --out "$work/$category.csv" >/dev/null
    specs+=("$category=$work/$category.csv:${pair##*:}")
    seed=$((seed + 1))
done
python3 scripts/soak/bodies.py config "$work/bodies.jsonl" "${specs[@]}"

# Only client keys are rate limited (and only they take --rate/--burst).
key() {
  if [ "$1" = client ]; then set -- client --rate 100000 --burst 100000; fi
  "$bin" keys create --tenant soak --role "$@" --env production --data-dir "$data" | tail -1
}
export TI_CLIENT_KEY=$(key client) TI_PARTNER_KEY=$(key partner) TI_ANALYST_KEY=$(key analyst)
# shellcheck disable=SC2086 # SERVE_ARGS is a list of flags
"$bin" serve --port 0 --data-dir "$data" --access-log false ${SERVE_ARGS:-} >"$work/server.out" 2>"$work/server.err" &
server=$!
for _ in $(seq 150); do grep -q listening "$work/server.out" && break; sleep 0.2; done
port=$(sed -n 's/.*listening on http:\/\/[^:]*:\([0-9]*\).*/\1/p' "$work/server.out")
[[ -n $port ]] || { echo "soak: the server did not start" >&2; cat "$work/server.err" >&2; exit 1; }
url="http://127.0.0.1:$port"
export_status=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $TI_ANALYST_KEY" "$url/v1/metrics/labels")
export TI_EXPORT=$([[ $export_status == 200 ]] && echo 1 || echo 0)
export TI_BODIES=$work/bodies.jsonl TI_THREADS=$connections

mix() { # rate duration log-folder
    mkdir -p "$3"
    TI_RATE=$1 TI_LOG_DIR=$3 wrk -t"$connections" -c"$connections" -d"$2" --timeout 10s -s scripts/soak/mix.lua "$url"
}

if [[ -n ${CAPACITY:-} ]]; then
    capacity=$CAPACITY
else
    echo "soak: measuring capacity (20 s warm-up, 30 s at full speed, $connections connections)" >&2
    mix 0 20s "$work/warmup" >/dev/null
    capacity=$(mix 0 30s "$work/capacity" | awk '/Requests\/sec/ { printf "%d", $2 }')
fi
rate=$(awk -v c="$capacity" -v l="$load" 'BEGIN { printf "%d", c * l }')
exports=$([[ $TI_EXPORT == 1 ]] && echo "with label-metrics exports" || echo "no /v1/metrics/labels route: no exports")
echo "soak: capacity $capacity requests/s; soaking $minutes min at $rate requests/s ($load), $exports" >&2

mkdir -p "$work/soak"
(while kill -0 "$server" 2>/dev/null; do
    echo "$(date +%s%3N) $(awk '/VmRSS/ { print $2 }' "/proc/$server/status")"
    sleep 5
done) >"$work/soak/rss.log" &
sampler=$!
mix "$rate" "$((minutes * 60))s" "$work/soak" >"$work/soak/wrk.txt"
grep -E "Socket errors|Non-2xx" "$work/soak/wrk.txt" >&2 || true
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "capacity $capacity requests/s, target $rate requests/s ($load), $connections connections, $minutes min, $exports"
python3 scripts/soak/report.py "$work/soak" "$minutes" 1
