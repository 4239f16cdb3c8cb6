#!/usr/bin/env bash
# Fills a data folder with synthetic evaluations, consumption reports and labels for the label metrics benchmark:
# EVALUATIONS evaluation records (one insight each) spread over DAYS days up to now, 95% of them with a consumption
# report, and LABELS labels on evenly spaced insights, fraud more likely the higher the outcome. Deterministic (no
# random(): every draw is a multiplicative hash of the row number).
#
#   scripts/generate-metrics-data.sh DATA_DIR                 # 10,000,000 evaluations, 100,000 labels
#   EVALUATIONS=100000 LABELS=1000 scripts/generate-metrics-data.sh /tmp/small
#
# Rows have the layout of schema migration 12, as the service writes them: each evaluation's insight lives in its
# row's `insights` column (a JSON array of [position, insight_type, model_version, outcome, error]; `insight` is a
# view), and IDs are deterministic UUIDv7s of the evaluation's creation time whose last hex digit is 0, so the
# insight's ID is derived from its evaluation's (last digit 1) and nothing goes into `insight_identifier`.
#
# The rows go in with sqlite3 bulk inserts while the metrics triggers and secondary indexes are set aside; the
# indexes are then rebuilt, the aggregates filled from the schema's own *_recomputed views (the same definition the
# migration uses) and the triggers put back, so the folder is exactly what the service would have written. (Labels
# have no trigger since migration 5: the service's label writer counts each batch itself, so labels inserted here
# count only through that recomputation.)
# Prints the analyst key's secret (tenant TENANT, production) on the last line; it is also in DATA_DIR/analyst.key.
set -euo pipefail
DATA=${1:?usage: $0 DATA_DIR}
EVALUATIONS=${EVALUATIONS:-10000000}
LABELS=${LABELS:-100000}
DAYS=${DAYS:-365}
TENANT=${TENANT:-bench}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
command -v sqlite3 >/dev/null || { echo "sqlite3 is missing: apt-get install -y sqlite3" >&2; exit 1; }
if [ -z "${BIN:-}" ]; then
  (cd "$ROOT" && swift build -c release --product trust-insights >&2)
  BIN="$(cd "$ROOT" && swift build -c release --show-bin-path)/trust-insights"
fi
DB="$DATA/trust-insights.sqlite"
[ -e "$DB" ] && { echo "$DB exists: use an empty folder" >&2; exit 1; }

# The binary creates the database (all migrations) and the key.
mkdir -p "$DATA"
chmod 700 "$DATA"
"$BIN" keys create --tenant "$TENANT" --role analyst --env production --data-dir "$DATA" | tail -1 >"$DATA/analyst.key"
chmod 600 "$DATA/analyst.key"
# `serve` refuses a database that holds evaluations but no signing key (DataFolderState): make one now, as a first
# start would have.
"$BIN" signing-keys rotate --data-dir "$DATA" >/dev/null

INDEXES=$(mktemp)
TRIGGERS=$(mktemp)
trap 'rm -f "$INDEXES" "$TRIGGERS"' EXIT
SET_ASIDE="sql IS NOT NULL AND tbl_name IN ('evaluation', 'insight', 'consumption', 'label')"
sqlite3 "$DB" "SELECT sql || ';' FROM sqlite_master WHERE type = 'index' AND $SET_ASIDE" >"$INDEXES"
sqlite3 "$DB" "SELECT sql || ';' FROM sqlite_master WHERE type = 'trigger' AND $SET_ASIDE" >"$TRIGGERS"
DROPS=$(sqlite3 "$DB" "SELECT 'DROP ' || upper(type) || ' ' || name || ';' FROM sqlite_master WHERE type IN ('index', 'trigger') AND $SET_ASIDE")

NOW_MS=$(($(date +%s) * 1000))
SPAN=$((DAYS * 86400000))
START=$((NOW_MS - SPAN))
STEP=$((EVALUATIONS / LABELS))
# Row x's creation time, and its IDs: UUIDv7 (48 bits of that time, version 7, variant 8), the row number in the
# random bits so they are unique and in the primary key's time order, the last hex digit 0 for the evaluation and
# 1 for its insight at position 0 (Identifier.insight(ofEvaluation:position:)).
CREATED="($START + x * $SPAN / $EVALUATIONS)"
EVALUATION_ID="printf('%08x-%04x-7000-8000-%011x0', $CREATED / 65536, $CREATED % 65536, x)"
INSIGHT_ID="printf('%08x-%04x-7000-8000-%011x1', $CREATED / 65536, $CREATED % 65536, x)"
start_time=$(date +%s)
sqlite3 "$DB" >/dev/null <<SQL
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
PRAGMA cache_size = -400000;
$DROPS
BEGIN;
-- h(x, m): a deterministic draw in 0..999 per row and per multiplier.
CREATE TEMP TABLE draw AS
  WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL SELECT x + 1 FROM n WHERE x + 1 < $EVALUATIONS)
  SELECT x,
    (x * 2654435761 % 4294967291) % 1000 AS outcome_draw,
    (x * 2246822519 % 4294967291) % 1000 AS version_draw,
    (x * 3266489917 % 4294967291) % 1000 AS consumption_draw,
    (x * 668265263 % 4294967291) % 1000 AS status_draw,
    (x * 374761393 % 4294967291) % 1000 AS label_draw,
    (x * 1181783497 % 4294967291) % 1000 AS place_draw
  FROM n;
INSERT INTO evaluation (evaluation_id, tenant_id, environment, key_id, category, created_at, high_outcome, insights)
  SELECT $EVALUATION_ID, '$TENANT',
    CASE WHEN place_draw % 25 = 0 THEN 'sandbox' ELSE 'production' END, 'generated',
    CASE place_draw / 200 WHEN 0 THEN 'payment' WHEN 1 THEN 'account' WHEN 2 THEN 'resourceUse' WHEN 3 THEN 'communication' ELSE 'other' END,
    $CREATED, outcome_draw >= 950,
    json_array(json_array(0, 'isLikelyBeingCoached', CASE WHEN version_draw < 700 THEN '2026.11.1' ELSE '2026.09.1' END,
      CASE WHEN outcome_draw < 850 THEN 'unknown' WHEN outcome_draw < 950 THEN 'medium' ELSE 'high' END, NULL))
  FROM draw ORDER BY x;
INSERT INTO consumption (evaluation_id, tenant_id, status, insight_ids, received_at, late)
  SELECT $EVALUATION_ID, '$TENANT',
    CASE WHEN status_draw < 400 THEN 'usedIncreasedFriction' WHEN status_draw < 700 THEN 'usedUnchangedFriction'
         WHEN status_draw < 850 THEN 'usedReducedFriction' WHEN status_draw < 920 THEN 'notUsedNotNeeded'
         WHEN status_draw < 970 THEN 'notUsedError' ELSE 'usedEvaluationOnly' END,
    $INSIGHT_ID, $CREATED + 2000, consumption_draw < 30
  FROM draw WHERE consumption_draw < 950 ORDER BY x;
INSERT INTO label (insight_id, tenant_id, label, fraud_type, occurred_on, amount_band, received_at)
  SELECT $INSIGHT_ID, '$TENANT',
    CASE WHEN label_draw < (CASE WHEN outcome_draw >= 950 THEN 700 WHEN outcome_draw >= 850 THEN 300 ELSE 20 END)
         THEN 'confirmedFraud' ELSE 'confirmedLegitimate' END,
    CASE WHEN label_draw % 2 = 0 THEN 'techSupport' ELSE 'other' END,
    date($CREATED / 1000, 'unixepoch'), NULL,
    min($NOW_MS, $CREATED + (label_draw % 90) * 86400000 + 3600000)
  FROM draw WHERE x % $STEP = 0 ORDER BY x;
DROP TABLE draw;
COMMIT;
SQL
echo "generate: raw rows written in $(( $(date +%s) - start_time )) s" >&2
sqlite3 "$DB" >/dev/null <<SQL
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
PRAGMA cache_size = -400000;
BEGIN;
.read $INDEXES
DELETE FROM metrics_daily;
DELETE FROM metrics_latency;
INSERT INTO metrics_daily SELECT * FROM metrics_daily_recomputed;
INSERT INTO metrics_latency SELECT * FROM metrics_latency_recomputed;
.read $TRIGGERS
COMMIT;
PRAGMA journal_mode = WAL;
SQL
echo "generate: $EVALUATIONS evaluations, $LABELS labels, aggregates and indexes in $(( $(date +%s) - start_time )) s" >&2
sqlite3 "$DB" "SELECT 'generate: ' || count(*) || ' aggregate rows' FROM metrics_daily" >&2
cat "$DATA/analyst.key"
