#!/usr/bin/env bash
# What the metrics triggers add to the write paths: 100,000 evaluations (two insights each), 20,000 labels and
# 100,000 consumption reports inserted in bulk with sqlite3, into a database the binary created (all migrations),
# once with the triggers and once without. Prints SQLite's user CPU time per row for each.
#
#   Benchmarks/metrics/trigger-cost.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
command -v sqlite3 >/dev/null || { echo "sqlite3 is missing: apt-get install -y sqlite3" >&2; exit 1; }
cd "$ROOT"
swift build -c release --product trust-insights >&2
BIN="$(swift build -c release --show-bin-path)/trust-insights"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
per_row() { awk -v rows="$2" '/Run Time/ { n++; if (n == '"$1"') printf "%.1f", $6 / rows * 1e6 }'; }
printf '%-10s %14s %16s %12s\n' triggers "insight us" "consumption us" "label us"
for triggers in without with; do
  rm -rf "$WORK/data"
  "$BIN" keys create --tenant bench --role analyst --env production --data-dir "$WORK/data" >/dev/null
  DB="$WORK/data/trust-insights.sqlite"
  if [ "$triggers" = without ]; then
    sqlite3 "$DB" "DROP TRIGGER metrics_count_insight; DROP TRIGGER metrics_move_consumption; DROP TRIGGER metrics_count_label;"
  fi
  times=$(sqlite3 "$DB" <<'SQL'
PRAGMA synchronous = NORMAL;
CREATE TEMP TABLE n AS WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < 99999) SELECT x FROM n;
INSERT INTO evaluation (evaluation_id, tenant_id, environment, key_id, category, created_at, high_outcome)
  SELECT hex(randomblob(16)), 'bench', 'production', 'k', 'payment', 1795000000000 + x * 1000, 0 FROM n;
.timer on
INSERT INTO insight SELECT hex(randomblob(16)), evaluation_id, 'bench', 0, 't', '2026.11.1',
  CASE abs(random()) % 3 WHEN 0 THEN 'unknown' WHEN 1 THEN 'medium' ELSE 'high' END, NULL FROM evaluation;
INSERT INTO insight SELECT hex(randomblob(16)), evaluation_id, 'bench', 1, 't', '2026.09.1', 'unknown', NULL FROM evaluation;
INSERT INTO label (insight_id, tenant_id, label, fraud_type, occurred_on, received_at)
  SELECT insight_id, 'bench', 'confirmedFraud', 'other', '2026-11-20', 1796000000000 FROM insight WHERE position = 0 LIMIT 20000;
INSERT INTO consumption SELECT evaluation_id, 'bench', 'usedIncreasedFriction', '', 1795000000000, abs(random()) % 2 FROM evaluation;
SQL
)
  printf '%-10s %14s %16s %12s\n' "$triggers" "$(per_row 1 100000 <<<"$times")" "$(per_row 4 100000 <<<"$times")" "$(per_row 3 20000 <<<"$times")"
done
