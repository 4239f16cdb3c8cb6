#!/bin/sh
# Model scorer benchmark: imports the shared fixture models into our format and runs `models bench` several
# times on one thread, printing each run's JSON and the medians. Not a test: figures go in docs/BENCHMARKS.md.
#
#   Benchmarks/models/run.sh [runs]                      default build (any x86-64)
#   EXTRA_FLAGS="-Xcc -march=x86-64-v3" SCRATCH=.build-v3 Benchmarks/models/run.sh   AVX2/FMA build
set -eu
cd "$(dirname "$0")/../.."
RUNS="${1:-5}"
SCRATCH="${SCRATCH:-.build}"
FIXTURES=../shared/fixtures/gbdt
OUT="${TMPDIR:-/tmp}/trust-insights-model-bench"
mkdir -p "$OUT"
# shellcheck disable=SC2086
swift build -c release --product trust-insights --scratch-path "$SCRATCH" ${EXTRA_FLAGS:-} >/dev/null
BIN="$SCRATCH/release/trust-insights"
FEATURES=$(python3 -c "print(','.join(f'f{i}' for i in range(32)))" 2>/dev/null || echo "f0,f1,f2,f3,f4,f5,f6,f7,f8,f9,f10,f11,f12,f13,f14,f15,f16,f17,f18,f19,f20,f21,f22,f23,f24,f25,f26,f27,f28,f29,f30,f31")
"$BIN" models import --from xgboost "$FIXTURES/xgb_200x6.json" --insight isLikelyBeingCoached --category payment \
    --version 1.0 --out "$OUT/xgb.json" >/dev/null
"$BIN" models import --from lightgbm "$FIXTURES/lgb_200x63.txt" --insight isLikelyBeingCoached --category payment \
    --version 2.0 --features "$FEATURES" --out "$OUT/lgb.json" >/dev/null
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for model in xgb lgb; do
    : > "$OUT/$model.runs"
    i=0
    while [ "$i" -lt "$RUNS" ]; do
        "$BIN" models bench --model "$OUT/$model.json" --input "$FIXTURES/heldout_20k.csv" --json | tee -a "$OUT/$model.runs"
        i=$((i + 1))
    done
    python3 - "$OUT/$model.runs" "$model" <<'PY'
import json, statistics, sys
runs = [json.loads(line) for line in open(sys.argv[1])]
med = lambda key: statistics.median(r[key] for r in runs)
print(f"{sys.argv[2]} median of {len(runs)} runs: single row {med('singleRowMedianMicros'):.3f} us "
      f"(plain walk {med('referenceSingleRowMedianMicros'):.2f} us), batch {med('batchRowsPerSecond'):,.0f} rows/s "
      f"(plain walk {med('referenceBatchRowsPerSecond'):,.0f} rows/s), exact: {all(r['fastPathsMatchReference'] for r in runs)}")
PY
done
