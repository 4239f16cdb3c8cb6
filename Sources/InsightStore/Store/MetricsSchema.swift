/// Migration 4: the exact aggregates behind label metrics.
///
/// `metrics_daily` counts evaluated insights (those with an outcome value) per tenant, environment, UTC evaluation
/// day, category, model version, outcome and consumption bucket, with their late reports and the verdicts of their
/// latest labels; `metrics_latency` counts first labels per whole day of latency under the same key. They are kept
/// up to date inside the transaction of every insight, consumption and label insert, so they are exactly as
/// durable as the rows they count (a write that is rolled back, or lost to `kill -9` before its commit, takes its
/// counts with it): by a trigger for consumption reports; since migration 5 dropped the label trigger below, by the
/// label writer once per batch (SQLiteLabelTransaction+Aggregates.swift); and since migration 7 dropped the insight
/// trigger, by the evaluation writer once per group commit (EvaluationCountTally.swift). Anything else that inserts
/// insights or labels must recompute the tables from the views.
///
/// The `*_recomputed` views define the same figures from the raw rows. The migration fills the tables from them,
/// the data generator reuses them, and tests compare table and view to prove that the upkeep stays exact.
///
/// The insight trigger (and the writer's fold that replaced it) counts a new insight as `missing` consumption and unlabelled: an insight is written together
/// with its evaluation, before any report or label can refer to it. A consumption report moves each of its
/// evaluation's insights from `missing` to its status one row at a time (an upsert of -1 and one of +1): no
/// GROUP BY, so no temporary b-tree, which SQLite would otherwise open as a temporary file on every report.
enum MetricsSchema {
    /// Moves a reported evaluation's insights from `missing` to the report's status (schema migration 4). Its
    /// insights are found by `evaluation_id`, which from migration 10 to 11 had no index but a partial one (migration
    /// 11 replaced this text with `movingConsumptionByTimeRange`); since migration 12, which makes this text the
    /// trigger again, `insight` is a view whose rows of one evaluation are a seek of the evaluation's row.
    static let moveConsumptionTrigger = """
        CREATE TRIGGER metrics_move_consumption AFTER INSERT ON consumption BEGIN
            INSERT INTO metrics_daily (tenant_id, environment, day, category, model_version, outcome, consumption,
                evaluations, late, fraud, legitimate)
            SELECT e.tenant_id, e.environment, e.created_at / 86400000, e.category, coalesce(i.model_version, ''),
                i.outcome, 'missing', -1, 0, -coalesce(v.label = 'confirmedFraud', 0),
                -coalesce(v.label = 'confirmedLegitimate', 0)
            FROM insight AS i JOIN evaluation AS e ON e.evaluation_id = i.evaluation_id
            LEFT JOIN label AS v ON v.label_id = (SELECT max(label_id) FROM label WHERE insight_id = i.insight_id)
            WHERE i.evaluation_id = NEW.evaluation_id AND i.outcome IS NOT NULL
            ON CONFLICT DO UPDATE SET evaluations = evaluations + excluded.evaluations, late = late + excluded.late,
                fraud = fraud + excluded.fraud, legitimate = legitimate + excluded.legitimate;
            INSERT INTO metrics_daily (tenant_id, environment, day, category, model_version, outcome, consumption,
                evaluations, late, fraud, legitimate)
            SELECT e.tenant_id, e.environment, e.created_at / 86400000, e.category, coalesce(i.model_version, ''),
                i.outcome, NEW.status, 1, NEW.late, coalesce(v.label = 'confirmedFraud', 0),
                coalesce(v.label = 'confirmedLegitimate', 0)
            FROM insight AS i JOIN evaluation AS e ON e.evaluation_id = i.evaluation_id
            LEFT JOIN label AS v ON v.label_id = (SELECT max(label_id) FROM label WHERE insight_id = i.insight_id)
            WHERE i.evaluation_id = NEW.evaluation_id AND i.outcome IS NOT NULL
            ON CONFLICT DO UPDATE SET evaluations = evaluations + excluded.evaluations, late = late + excluded.late,
                fraud = fraud + excluded.fraud, legitimate = legitimate + excluded.legitimate;
            INSERT INTO metrics_latency (tenant_id, environment, day, category, model_version, outcome, consumption,
                latency_days, labels)
            SELECT e.tenant_id, e.environment, e.created_at / 86400000, e.category, coalesce(i.model_version, ''),
                i.outcome, 'missing', max(0, (f.received_at - e.created_at) / 86400000), -1
            FROM insight AS i JOIN evaluation AS e ON e.evaluation_id = i.evaluation_id
            JOIN label AS f ON f.label_id = (SELECT min(label_id) FROM label WHERE insight_id = i.insight_id)
            WHERE i.evaluation_id = NEW.evaluation_id AND i.outcome IS NOT NULL
            ON CONFLICT DO UPDATE SET labels = labels + excluded.labels;
            INSERT INTO metrics_latency (tenant_id, environment, day, category, model_version, outcome, consumption,
                latency_days, labels)
            SELECT e.tenant_id, e.environment, e.created_at / 86400000, e.category, coalesce(i.model_version, ''),
                i.outcome, NEW.status, max(0, (f.received_at - e.created_at) / 86400000), 1
            FROM insight AS i JOIN evaluation AS e ON e.evaluation_id = i.evaluation_id
            JOIN label AS f ON f.label_id = (SELECT min(label_id) FROM label WHERE insight_id = i.insight_id)
            WHERE i.evaluation_id = NEW.evaluation_id AND i.outcome IS NOT NULL
            ON CONFLICT DO UPDATE SET labels = labels + excluded.labels;
            DELETE FROM metrics_daily WHERE evaluations = 0 AND consumption = 'missing'
                AND (tenant_id, environment, day, category) =
                    (SELECT tenant_id, environment, created_at / 86400000, category FROM evaluation WHERE evaluation_id = NEW.evaluation_id);
            DELETE FROM metrics_latency WHERE labels = 0 AND consumption = 'missing'
                AND (tenant_id, environment, day, category) =
                    (SELECT tenant_id, environment, created_at / 86400000, category FROM evaluation WHERE evaluation_id = NEW.evaluation_id);
        END;
        """

    /// The trigger as migration 11 makes it: the insights of `NEW.evaluation_id` found as the consumption route finds
    /// them (SQLiteStore.insightsOfEvaluation), a range of the primary key plus the partial index, instead of a scan
    /// of every insight, which made each report cost more as the database grew.
    static let movingConsumptionByTimeRange = moveConsumptionTrigger.replacing(
        "WHERE i.evaluation_id = NEW.evaluation_id AND i.outcome IS NOT NULL",
        with: "WHERE i.insight_id IN (\(insightsOfNewEvaluation)) AND i.outcome IS NOT NULL")

    /// The identifiers of `NEW.evaluation_id`'s insights: those of its millisecond (version-7 identifiers sharing its
    /// first 13 characters; '~' sorts after every character of an identifier), then any others, through the partial
    /// index whose condition this repeats word for word.
    static let insightsOfNewEvaluation = """
        SELECT insight_id FROM insight WHERE insight_id >= substr(NEW.evaluation_id, 1, 13) \
        AND insight_id < substr(NEW.evaluation_id, 1, 13) || '~' AND evaluation_id = NEW.evaluation_id \
        UNION ALL SELECT insight_id FROM insight WHERE evaluation_id = NEW.evaluation_id \
        AND (substr(insight_id, 1, 13) <> substr(evaluation_id, 1, 13) OR substr(insight_id, 15, 1) <> '7')
        """

    /// The views that define the aggregates' figures from the raw rows (migration 4; made again by migration 12 over
    /// the `insight` view that replaced the table).
    static let insightFacts = """
        CREATE VIEW metrics_insight_facts AS
            SELECT e.tenant_id, e.environment, e.created_at / 86400000 AS day, e.category,
                coalesce(i.model_version, '') AS model_version, i.outcome, coalesce(c.status, 'missing') AS consumption,
                coalesce(c.late, 0) AS late,
                (SELECT l.label FROM label AS l WHERE l.insight_id = i.insight_id ORDER BY l.label_id DESC LIMIT 1) AS verdict,
                (SELECT l.received_at FROM label AS l WHERE l.insight_id = i.insight_id ORDER BY l.label_id LIMIT 1) AS first_label_at,
                e.created_at
            FROM insight AS i JOIN evaluation AS e ON e.evaluation_id = i.evaluation_id
            LEFT JOIN consumption AS c ON c.evaluation_id = i.evaluation_id
            WHERE i.outcome IS NOT NULL;
        CREATE VIEW metrics_daily_recomputed AS
            SELECT tenant_id, environment, day, category, model_version, outcome, consumption,
                count(*) AS evaluations, sum(late) AS late,
                count(CASE WHEN verdict = 'confirmedFraud' THEN 1 END) AS fraud,
                count(CASE WHEN verdict = 'confirmedLegitimate' THEN 1 END) AS legitimate
            FROM metrics_insight_facts
            GROUP BY tenant_id, environment, day, category, model_version, outcome, consumption;
        CREATE VIEW metrics_latency_recomputed AS
            SELECT tenant_id, environment, day, category, model_version, outcome, consumption,
                max(0, (first_label_at - created_at) / 86400000) AS latency_days, count(*) AS labels
            FROM metrics_insight_facts WHERE first_label_at IS NOT NULL
            GROUP BY tenant_id, environment, day, category, model_version, outcome, consumption, latency_days;
        """

    static let aggregates = """
        CREATE TABLE metrics_daily (
            tenant_id TEXT NOT NULL,
            environment TEXT NOT NULL,
            day INTEGER NOT NULL,
            category TEXT NOT NULL,
            model_version TEXT NOT NULL,
            outcome TEXT NOT NULL,
            consumption TEXT NOT NULL,
            evaluations INTEGER NOT NULL,
            late INTEGER NOT NULL,
            fraud INTEGER NOT NULL,
            legitimate INTEGER NOT NULL,
            PRIMARY KEY (tenant_id, environment, day, category, model_version, outcome, consumption)
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE metrics_latency (
            tenant_id TEXT NOT NULL,
            environment TEXT NOT NULL,
            day INTEGER NOT NULL,
            category TEXT NOT NULL,
            model_version TEXT NOT NULL,
            outcome TEXT NOT NULL,
            consumption TEXT NOT NULL,
            latency_days INTEGER NOT NULL,
            labels INTEGER NOT NULL,
            PRIMARY KEY (tenant_id, environment, day, category, model_version, outcome, consumption, latency_days)
        ) STRICT, WITHOUT ROWID;

        \(insightFacts)
        INSERT INTO metrics_daily SELECT * FROM metrics_daily_recomputed;
        INSERT INTO metrics_latency SELECT * FROM metrics_latency_recomputed;

        CREATE TRIGGER metrics_count_insight AFTER INSERT ON insight WHEN NEW.outcome IS NOT NULL BEGIN
            INSERT INTO metrics_daily (tenant_id, environment, day, category, model_version, outcome, consumption,
                evaluations, late, fraud, legitimate)
            SELECT e.tenant_id, e.environment, e.created_at / 86400000, e.category, coalesce(NEW.model_version, ''),
                NEW.outcome, 'missing', 1, 0, 0, 0
            FROM evaluation AS e WHERE e.evaluation_id = NEW.evaluation_id
            ON CONFLICT DO UPDATE SET evaluations = evaluations + 1;
        END;

        \(moveConsumptionTrigger)

        CREATE TRIGGER metrics_count_label AFTER INSERT ON label BEGIN
            INSERT INTO metrics_daily (tenant_id, environment, day, category, model_version, outcome, consumption,
                evaluations, late, fraud, legitimate)
            SELECT e.tenant_id, e.environment, e.created_at / 86400000, e.category, coalesce(i.model_version, ''),
                i.outcome, coalesce(c.status, 'missing'), 0, 0,
                (NEW.label = 'confirmedFraud') - coalesce(p.label = 'confirmedFraud', 0),
                (NEW.label = 'confirmedLegitimate') - coalesce(p.label = 'confirmedLegitimate', 0)
            FROM insight AS i JOIN evaluation AS e ON e.evaluation_id = i.evaluation_id
            LEFT JOIN consumption AS c ON c.evaluation_id = i.evaluation_id
            LEFT JOIN label AS p ON p.label_id =
                (SELECT max(label_id) FROM label WHERE insight_id = NEW.insight_id AND label_id < NEW.label_id)
            WHERE i.insight_id = NEW.insight_id AND i.outcome IS NOT NULL
            ON CONFLICT DO UPDATE SET fraud = fraud + excluded.fraud, legitimate = legitimate + excluded.legitimate;
            INSERT INTO metrics_latency (tenant_id, environment, day, category, model_version, outcome, consumption,
                latency_days, labels)
            SELECT e.tenant_id, e.environment, e.created_at / 86400000, e.category, coalesce(i.model_version, ''),
                i.outcome, coalesce(c.status, 'missing'), max(0, (NEW.received_at - e.created_at) / 86400000), 1
            FROM insight AS i JOIN evaluation AS e ON e.evaluation_id = i.evaluation_id
            LEFT JOIN consumption AS c ON c.evaluation_id = i.evaluation_id
            WHERE i.insight_id = NEW.insight_id AND i.outcome IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM label WHERE insight_id = NEW.insight_id AND label_id < NEW.label_id)
            ON CONFLICT DO UPDATE SET labels = labels + 1;
        END;
        """
}
