import InsightCore

/// The evaluated insights of one group-commit batch, counted in memory per `metrics_daily` key and written as one
/// upsert per key just before the batch commits. Migration 7 dropped the per-insight trigger this replaces: it looked
/// the evaluation up again and upserted `metrics_daily` once per insight, on the writer thread every evaluation
/// waits for. A batch of evaluations touches a handful of keys (tenant, environment, day, category, model version,
/// outcome), so the fold turns two upserts per evaluation into a few per batch.
///
/// Exactness rests on the group committer: `add` runs from a write's `written` closure, only once the write is in
/// the transaction for good; `flush` runs inside that transaction before COMMIT, so the counts are exactly as
/// durable as the rows; `discard` follows any rollback. As with the trigger, a new insight counts as `missing`
/// consumption and unlabelled (no report or label can name it before its evaluation is committed and answered).
final class EvaluationCountTally: @unchecked Sendable {
    // Used only on the writer thread: from `written` closures and the batch hooks.
    private struct Key: Hashable {
        var tenant: String
        var environment: String
        var day: Int64
        var category: String
        var modelVersion: String
        var outcome: String
    }

    private var counts: [Key: Int] = [:]

    static let upsert = """
        INSERT INTO metrics_daily (tenant_id, environment, day, category, model_version, outcome, consumption,
            evaluations, late, fraud, legitimate)
        VALUES (?, ?, ?, ?, ?, ?, 'missing', ?, 0, 0, 0)
        ON CONFLICT DO UPDATE SET evaluations = evaluations + excluded.evaluations
        """

    /// Counts the record's insights that have an outcome (those the `*_recomputed` views count).
    func add(_ evaluation: EvaluationRecord) {
        let day = evaluation.createdAt / 86_400_000
        for insight in evaluation.insights {
            guard let outcome = insight.outcome else { continue }
            let key = Key(
                tenant: evaluation.tenant.rawValue, environment: evaluation.environment.rawValue, day: day,
                category: evaluation.category.rawValue, modelVersion: insight.modelVersion ?? "", outcome: outcome.rawValue)
            counts[key, default: 0] += 1
        }
    }

    /// Writes the batch's counts; the caller's transaction commits them.
    func flush(into connection: SQLiteConnection) throws {
        guard !counts.isEmpty else { return }
        let statement = try connection.statement(Self.upsert)
        for (key, count) in counts {
            try statement.bind(1, key.tenant).bind(2, key.environment).bind(3, key.day).bind(4, key.category)
                .bind(5, key.modelVersion).bind(6, key.outcome).bind(7, count)
                .run()
        }
        counts.removeAll(keepingCapacity: true)
    }

    /// Forgets the counts of a rolled-back transaction.
    func discard() {
        counts.removeAll(keepingCapacity: true)
    }
}
