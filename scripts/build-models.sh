#!/usr/bin/env bash
# Rebuilds the shipped models in models/ from the simulator, with fixed seeds, so anyone can reproduce them:
# for each category, a training, a validation and a held-out set, then `train`, then `models score` on the held-out
# set. Also a prior payment model (an older recipe: fewer, shallower trees). Writes models/manifest.json.
#
#   scripts/build-models.sh            # about a few minutes on 2 cores
set -euo pipefail
cd "$(dirname "$0")/.."

rows_train=${ROWS_TRAIN:-120000}
rows_valid=${ROWS_VALID:-40000}
rows_heldout=${ROWS_HELDOUT:-40000}
positive_rate=${POSITIVE_RATE:-0.03}
current=2026.11.1
prior=2026.09.1
created=2026-11-21T00:00:00Z

swift build -c release --product trust-insights >/dev/null
bin=.build/release/trust-insights
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

train() { # category version seed out extra-args...
  local category=$1 version=$2 seed=$3 out=$4; shift 4
  "$bin" simulate --category "$category" --rows "$rows_train" --seed "$seed" --positive-rate "$positive_rate" --out "$work/$category-train.csv"
  "$bin" simulate --category "$category" --rows "$rows_valid" --seed $((seed + 1)) --positive-rate "$positive_rate" --out "$work/$category-valid.csv"
  "$bin" train --train "$work/$category-train.csv" --valid "$work/$category-valid.csv" --out "$out" \
    --category "$category" --version "$version" --created-at "$created" --seed "$seed" "$@"
}

mkdir -p models
entries=()
seed=1000
for category in payment account resourceUse communication other; do
  seed=$((seed + 100))
  echo "== $category $current"
  train "$category" "$current" "$seed" "models/$category-$current.json" --trees 300 --max-depth 6 --learning-rate 0.08 \
    --subsample 0.8 --colsample 0.9 --early-stopping-rounds 30
  entries+=("{\"insightType\": \"isLikelyBeingCoached\", \"category\": \"$category\", \"version\": \"$current\", \"status\": \"current\", \"path\": \"$category-$current.json\"}")
done
echo "== payment $prior (prior recipe)"
train payment "$prior" 900 "models/payment-$prior.json" --trees 80 --max-depth 4 --learning-rate 0.15 --early-stopping-rounds 0
entries+=("{\"insightType\": \"isLikelyBeingCoached\", \"category\": \"payment\", \"version\": \"$prior\", \"status\": \"prior\", \"path\": \"payment-$prior.json\"}")

{
  echo '{'
  echo '  "formatVersion": 1,'
  echo '  "models": ['
  for i in "${!entries[@]}"; do
    sep=','; [ "$i" -eq $((${#entries[@]} - 1)) ] && sep=''
    echo "    ${entries[$i]}$sep"
  done
  echo '  ]'
  echo '}'
} > models/manifest.json

echo "== held-out check"
for category in payment account resourceUse communication other; do
  "$bin" simulate --category "$category" --rows "$rows_heldout" --seed 777 --positive-rate "$positive_rate" --out "$work/$category-heldout.csv"
  "$bin" models score --model "models/$category-$current.json" --input "$work/$category-heldout.csv" --output /dev/null
done
"$bin" models verify --manifest models/manifest.json
