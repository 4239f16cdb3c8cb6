import InsightCore
import JSONStream

/// The insights of an evaluation, kept in its row since schema migration 12: `evaluation.insights` is a JSON array
/// with one element per insight, `[position, insight_type, model_version, outcome, error]`, and a sixth member, the
/// insight's identifier, when that is not the one derived from the evaluation's (`Identifier.insight(ofEvaluation:
/// position:)`): the identifiers of insights written before the migration, or recorded with identifiers of their
/// own. Those are also in `insight_identifier`, which maps each to its evaluation and position.
///
/// An evaluation of derived identifiers is one row and one B-tree insert; with two insights it was three rows in two
/// B-trees, and each group commit wrote the pages of both (docs/BENCHMARKS.md, "The event loop commits its own records, and one row per evaluation").
enum InsightRows {
    /// The identifier of the insight an element describes, in SQL: its own, else the derived one.
    static func identifier(element: String, evaluationID: String) -> String {
        "coalesce(json_extract(\(element), '$[5]'), substr(\(evaluationID), 1, 35) || substr('12345678', json_extract(\(element), '$[0]') + 1, 1))"
    }

    /// The old table's columns, one row per insight. Filtered by `evaluation_id`, SQLite flattens it into a primary
    /// key seek and the array of one row; filtered by `insight_id`, it would read every row: use `resolved`.
    static let view = """
        CREATE VIEW insight AS
            SELECT \(identifier(element: "j.value", evaluationID: "e.evaluation_id")) AS insight_id,
                e.evaluation_id AS evaluation_id, e.tenant_id AS tenant_id, json_extract(j.value, '$[0]') AS position,
                json_extract(j.value, '$[1]') AS insight_type, json_extract(j.value, '$[2]') AS model_version,
                json_extract(j.value, '$[3]') AS outcome, json_extract(j.value, '$[4]') AS error
            FROM evaluation AS e, json_each(e.insights) AS j;
        """

    /// The joins that find the insight whose identifier is `\(idColumn)` (of a table earlier in the FROM clause):
    /// `e` is its evaluation and `j` its element, so `json_extract(j.value, '$[2]')` is its model version and
    /// `json_extract(j.value, '$[3]')` its outcome. Each is a seek: the identifier in `insight_identifier`, else the
    /// evaluation whose identifier it derives from, then one element of that row's short array. A derived
    /// identifier finds only an element without an identifier of its own, so the siblings of an evaluation
    /// written before the migration, or of one whose insights brought their own identifiers, find nothing.
    static func resolved(idColumn: String) -> String {
        """
        LEFT JOIN insight_identifier AS named ON named.insight_id = \(idColumn)
        JOIN evaluation AS e ON e.evaluation_id = coalesce(named.evaluation_id, substr(\(idColumn), 1, 35) || '0')
        JOIN json_each(e.insights) AS j
            ON json_extract(j.value, '$[0]') = coalesce(named.position, instr('12345678', substr(\(idColumn), 36, 1)) - 1)
            AND (CASE WHEN named.insight_id IS NULL THEN json_array_length(j.value) = 5 ELSE json_extract(j.value, '$[5]') = named.insight_id END)
        """
    }

    /// Whether `insight` carries the identifier derived from its evaluation's, which its element then leaves out.
    static func isDerived(_ insight: EvaluationRecord.Insight, of evaluation: EvaluationRecord) -> Bool {
        Identifier.isInsight(insight.insightID, ofEvaluation: evaluation.evaluationID, position: insight.position)
    }

    /// The evaluation's `insights` column as UTF-8 JSON, and whether any insight brings an identifier of its own
    /// (which then also goes into `insight_identifier`). Made on the event loop for every evaluation.
    static func json(_ evaluation: EvaluationRecord) -> (utf8: [UInt8], hasOwnIdentifiers: Bool) {
        var writer = JSONWriter(capacity: 72 * evaluation.insights.count + 2)
        var hasOwnIdentifiers = false
        writer.beginArray()
        for insight in evaluation.insights {
            writer.beginArray()
            writer.int(insight.position)
            writer.string(insight.insightType)
            writer.stringOrNull(insight.modelVersion)
            writer.stringOrNull(insight.outcome?.rawValue)
            writer.stringOrNull(insight.error?.rawValue)
            if !isDerived(insight, of: evaluation) {
                hasOwnIdentifiers = true
                writer.string(insight.insightID)
            }
            writer.endArray()
        }
        writer.endArray()
        return (writer.bytes, hasOwnIdentifiers)
    }

    static let createIdentifierTable = """
        CREATE TABLE insight_identifier (
            insight_id TEXT PRIMARY KEY,
            evaluation_id TEXT NOT NULL,
            position INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        """

    /// Moves every insight row into its evaluation's row, keeping its identifier, and replaces the table with the
    /// view. The views and the trigger that read the table are dropped first and made again over the view, with the
    /// text migration 4 gave them: the trigger's form that finds an evaluation's insights by `evaluation_id` is a
    /// seek again.
    static let migration = """
        DROP TRIGGER metrics_move_consumption;
        DROP VIEW metrics_daily_recomputed;
        DROP VIEW metrics_latency_recomputed;
        DROP VIEW metrics_insight_facts;
        ALTER TABLE evaluation ADD COLUMN insights TEXT NOT NULL DEFAULT '[]';
        CREATE INDEX migration_12_insight_by_evaluation ON insight (evaluation_id);
        UPDATE evaluation SET insights = (
            SELECT json_group_array(json_array(i.position, i.insight_type, i.model_version, i.outcome, i.error, i.insight_id))
            FROM insight AS i WHERE i.evaluation_id = evaluation.evaluation_id);
        \(createIdentifierTable)
        INSERT INTO insight_identifier (insight_id, evaluation_id, position)
            SELECT insight_id, evaluation_id, position FROM insight;
        DROP TABLE insight;
        \(view)
        \(MetricsSchema.insightFacts)
        \(MetricsSchema.moveConsumptionTrigger)
        """
}

private extension JSONWriter {
    mutating func stringOrNull(_ value: String?) {
        if let value { string(value) } else { null() }
    }
}
