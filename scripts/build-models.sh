#!/usr/bin/env bash
# Rebuilds the shipped models in models/ from the simulator, with fixed seeds, so anyone can reproduce their trees
# and scores (the bytes differ where the trainer changed since they were written: docs/MODELS.md):
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

# Trained into the work folder and copied over models/ once all are built: `train` refuses to write over a model
# the manifest lists (its pinned SHA-256 would no longer match), and a failed run leaves models/ as it was.
mkdir -p models "$work/models"
entries=()
seed=1000
for category in payment account resourceUse communication other; do
  seed=$((seed + 100))
  echo "== $category $current"
  train "$category" "$current" "$seed" "$work/models/$category-$current.json" --trees 300 --max-depth 6 --learning-rate 0.08 \
    --subsample 0.8 --colsample 0.9 --early-stopping-rounds 30
  entries+=("{\"insightType\": \"isLikelyBeingCoached\", \"category\": \"$category\", \"version\": \"$current\", \"status\": \"current\", \"path\": \"$category-$current.json\"}")
done
echo "== payment $prior (prior recipe)"
train payment "$prior" 900 "$work/models/payment-$prior.json" --trees 80 --max-depth 4 --learning-rate 0.15 --early-stopping-rounds 0
entries+=("{\"insightType\": \"isLikelyBeingCoached\", \"category\": \"payment\", \"version\": \"$prior\", \"status\": \"prior\", \"path\": \"payment-$prior.json\"}")

cp "$work"/models/*.json models/

echo "== held-out check (seed 777, never used for training or thresholds)"
: > "$work/held-out.tsv"
for entry in "${entries[@]}"; do
  path=$(printf '%s' "$entry" | sed 's/.*"path": "\([^"]*\)".*/\1/')
  status=$(printf '%s' "$entry" | sed 's/.*"status": "\([^"]*\)".*/\1/')
  category=${path%%-*}
  [ -f "$work/$category-heldout.csv" ] || "$bin" simulate --category "$category" --rows "$rows_heldout" --seed 777 \
    --positive-rate "$positive_rate" --out "$work/$category-heldout.csv" 2>/dev/null
  line=$("$bin" models score --model "models/$path" --input "$work/$category-heldout.csv" --output /dev/null 2>&1 | grep '^rows')
  echo "$path: $line"
  printf '%s\t%s\t%s\t777\n' "$path" "$status" "$(echo "$line" | sed -E 's/rows ([0-9]+), positives ([0-9]+), AUC ([0-9.e-]+), log loss ([0-9.e-]+)/\1\t\2\t\3\t\4/')" >> "$work/held-out.tsv"
done
ROWS_TRAIN=$rows_train ROWS_VALID=$rows_valid ROWS_HELDOUT=$rows_heldout POSITIVE_RATE=$positive_rate \
  python3 scripts/models_manifest.py "$work/held-out.tsv"
"$bin" models verify --manifest models/manifest.json
