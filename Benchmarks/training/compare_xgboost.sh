#!/usr/bin/env bash
# Trainer vs XGBoost hist on one thread: see compare_xgboost.py and docs/BENCHMARKS.md "Trainer".
# Usage: Benchmarks/training/compare_xgboost.sh [--runs N] [...compare_xgboost.py options]
# xgboost and numpy go into a venv under .build (never into the service).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
venv="${XGB_VENV:-$root/.build/xgb-venv}"
if ! "$venv/bin/python" -c "import xgboost, numpy" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet xgboost numpy
fi
swift build -c release --product trust-insights
exec "$venv/bin/python" "$root/Benchmarks/training/compare_xgboost.py" --binary "$root/.build/release/trust-insights" "$@"
