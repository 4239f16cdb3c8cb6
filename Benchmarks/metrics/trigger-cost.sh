#!/usr/bin/env bash
# What keeping the metrics aggregates adds to the write paths: 100,000 evaluations (two insights each), 20,000 labels
# (20 batches of 1,000) and 100,000 consumption reports inserted in bulk with sqlite3, into a database the binary
# created (all migrations), once without any upkeep and once with it. Prints SQLite's user CPU time per row.
#
#   Benchmarks/metrics/trigger-cost.sh
#
# Consumption reports are counted by a trigger (migration 4); insights by the evaluation writer once per group
# commit since migration 7 (this script runs the equivalent GROUP BY after the bulk insert). Labels have had no trigger since
# migration 5: the label writer counts each batch with a few set-based statements, which this script takes from
# Sources/InsightStore/Store/SQLiteLabelTransaction+Aggregates.swift and runs after each batch's insert, as
# SQLiteLabelTransaction.appendLabels does.
#
# Since schema migration 12 there is no insight table: an evaluation's insights are a JSON array in its row's
# `insights` column and `insight` is a read-only view. The evaluations are inserted first (untimed, as before),
# with IDs of the service's shape (36 characters, lowercase, the last hex digit 0, so each insight's ID is derived
# from its evaluation's) but random bits throughout, like the random keys this script always used; the timed
# `insight` step then writes both insights of every evaluation into its row (one UPDATE, where there were two
# INSERTs into the table) and still divides by the 200,000 insights.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
command -v sqlite3 >/dev/null || { echo "sqlite3 is missing: apt-get install -y sqlite3" >&2; exit 1; }
cd "$ROOT"
swift build -c release --product trust-insights >&2
BIN="$(swift build -c release --show-bin-path)/trust-insights"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# The Swift string literals `static let createScratch = """ ... """` and the others countLabels(after:) runs, in its
# order, as SQL statements; an interpolated `InsightRows.resolved(idColumn:)` (the joins that find an insight by its
# ID since migration 12) is expanded from Sources/InsightStore/Store/InsightRows.swift.
label_upkeep=$(python3 - "$ROOT/Sources/InsightStore/Store/SQLiteLabelTransaction+Aggregates.swift" \
  "$ROOT/Sources/InsightStore/Store/InsightRows.swift" <<'PY'
import re, sys
source = open(sys.argv[1]).read()
resolved = re.search(r'static func resolved\(idColumn: String\) -> String \{\s*"""\n(.*?)"""', open(sys.argv[2]).read(), re.S).group(1)
literals = dict(re.findall(r'static let (\w+) = """\n(.*?)"""', source, re.S))
literals["emptyScratch"] = re.search(r'static let emptyScratch = "(.*?)"', source).group(1)
for name in ("createScratch", "emptyScratch", "fillScratch", "verdictDeltas", "firstLabelLatencies", "emptyScratch"):
    sql = re.sub(r'\\\(InsightRows\.resolved\(idColumn: "([^"]*)"\)\)',
                 lambda match: resolved.replace("\\(idColumn)", match.group(1)).rstrip(), literals[name])
    if "\\(" in sql:
        sys.exit(f"trigger-cost.sh: {name} interpolates Swift that this script does not expand:\n{sql}")
    print(sql.rstrip() + ";")
PY
)
# Sums the user CPU of the timed statements after each `.print` marker, per row.
per_row() { awk -v section="$1" -v rows="$2" '/^(insight|label|consumption)$/ { s = $1 } /Run Time/ && s == section { t += $6 } END { printf "%.1f", t / rows * 1e6 }'; }
printf '%-10s %14s %16s %12s\n' upkeep "insight us" "consumption us" "label us"
for upkeep in without with; do
  rm -rf "$WORK/data"
  "$BIN" keys create --tenant bench --role analyst --env production --data-dir "$WORK/data" >/dev/null
  DB="$WORK/data/trust-insights.sqlite"
  labels=""
  for batch in $(seq 0 19); do
    labels+=".parameter set ?1 $((batch * 1000))
INSERT INTO label (insight_id, tenant_id, label, fraud_type, occurred_on, received_at)
  SELECT insight_id, 'bench', 'confirmedFraud', 'other', '2026-11-20', 1796000000000 FROM temp.target
  WHERE rowid BETWEEN $((batch * 1000 + 1)) AND $((batch * 1000 + 1000));
"
    [ "$upkeep" = with ] && labels+="$label_upkeep
"
  done
  # Insights have had no trigger since migration 7: the evaluation writer counts each group commit's insights in
  # memory and upserts one row per key before COMMIT (EvaluationCountTally.swift). For one bulk insert that is one
  # GROUP BY over the new rows, the same upsert.
  insight_upkeep=""
  [ "$upkeep" = with ] && insight_upkeep="INSERT INTO metrics_daily (tenant_id, environment, day, category, model_version,
  outcome, consumption, evaluations, late, fraud, legitimate)
  SELECT e.tenant_id, e.environment, e.created_at / 86400000, e.category, coalesce(i.model_version, ''), i.outcome,
    'missing', count(*), 0, 0, 0
  FROM insight AS i JOIN evaluation AS e ON e.evaluation_id = i.evaluation_id WHERE i.outcome IS NOT NULL
  GROUP BY 1, 2, 3, 4, 5, 6
  ON CONFLICT DO UPDATE SET evaluations = evaluations + excluded.evaluations;"
  if [ "$upkeep" = without ]; then
    sqlite3 "$DB" "DROP TRIGGER metrics_move_consumption;"
  fi
  times=$(sqlite3 "$DB" <<SQL
PRAGMA synchronous = NORMAL;
PRAGMA temp_store = MEMORY;
PRAGMA cache_size = -65536;
CREATE TEMP TABLE n AS WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x < 99999) SELECT x FROM n;
INSERT INTO evaluation (evaluation_id, tenant_id, environment, key_id, category, created_at, high_outcome)
  SELECT substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-7' || substr(h, 14, 3) || '-8' || substr(h, 18, 3) || '-'
      || substr(h, 21, 11) || '0', 'bench', 'production', 'k', 'payment', 1795000000000 + x * 1000, 0
  FROM (SELECT x, lower(hex(randomblob(16))) AS h FROM n);
.timer on
.print insight
UPDATE evaluation SET insights = json_array(
  json_array(0, 't', '2026.11.1', CASE abs(random()) % 3 WHEN 0 THEN 'unknown' WHEN 1 THEN 'medium' ELSE 'high' END, NULL),
  json_array(1, 't', '2026.09.1', 'unknown', NULL));
$insight_upkeep
.timer off
CREATE TEMP TABLE target AS SELECT insight_id FROM insight WHERE position = 0 LIMIT 20000;
.timer on
.print label
$labels
.print consumption
INSERT INTO consumption SELECT evaluation_id, 'bench', 'usedIncreasedFriction', '', 1795000000000, abs(random()) % 2 FROM evaluation;
SQL
)
  printf '%-10s %14s %16s %12s\n' "$upkeep" "$(per_row insight 200000 <<<"$times")" "$(per_row consumption 100000 <<<"$times")" \
    "$(per_row label 20000 <<<"$times")"
done
# The upkeep measured must also be exact: the tables against the views that define them.
differences=$(sqlite3 "$DB" "SELECT (SELECT count(*) FROM (SELECT * FROM metrics_daily EXCEPT SELECT * FROM metrics_daily_recomputed))
  + (SELECT count(*) FROM (SELECT * FROM metrics_daily_recomputed EXCEPT SELECT * FROM metrics_daily))
  + (SELECT count(*) FROM (SELECT * FROM metrics_latency EXCEPT SELECT * FROM metrics_latency_recomputed))
  + (SELECT count(*) FROM (SELECT * FROM metrics_latency_recomputed EXCEPT SELECT * FROM metrics_latency))")
echo "aggregate rows differing from a recomputation: $differences"
