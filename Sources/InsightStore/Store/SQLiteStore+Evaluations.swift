import InsightCore
import InsightCrypto

extension SQLiteStore: EvaluationRecorder, SubjectKeySource, AuthorizationStore {
    private static let insertEvaluation: StaticString = """
        INSERT INTO evaluation (evaluation_id, tenant_id, environment, key_id, category, created_at,
            account_hash, device_hash, counterparty_hash, high_outcome, insights)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    private static let insertInsightIdentifier: StaticString = """
        INSERT INTO insight_identifier (insight_id, evaluation_id, position) VALUES (?, ?, ?)
        """

    /// Queues the evaluation and its insights, one row (InsightRows), for the next group commit; the pending write
    /// settles once durable.
    public func record(_ evaluation: EvaluationRecord) -> PendingWrite {
        let pending = PendingWrite()
        let insights = InsightRows.json(evaluation)
        writer.submit({ connection in
            try connection.statement(Self.insertEvaluation)
                .bind(1, evaluation.evaluationID).bind(2, evaluation.tenant.rawValue)
                .bind(3, evaluation.environment.rawValue).bind(4, evaluation.keyID)
                .bind(5, evaluation.category.rawValue).bind(6, evaluation.createdAt)
                .bind(7, evaluation.account?.hex).bind(8, evaluation.device?.hex).bind(9, evaluation.counterparty?.hex)
                .bind(10, evaluation.countsAsHighOutcome ? 1 : 0).bind(11, utf8Text: insights.utf8)
                .run()
            guard insights.hasOwnIdentifiers else { return }
            let insert = try connection.statement(Self.insertInsightIdentifier)
            for insight in evaluation.insights where !InsightRows.isDerived(insight, of: evaluation) {
                try insert.bind(1, insight.insightID).bind(2, evaluation.evaluationID).bind(3, insight.position).run()
            }
        }, written: { [evaluationCounts] in
            evaluationCounts.add(evaluation)
        }, heldForRelease: holdsEvaluations, completion: { outcome in
            if case .success = outcome { pending.fulfil(true) } else { pending.fulfil(false) }
        })
        return pending
    }

    /// Commits the evaluations held since the last commit on the calling thread, unless another thread is committing
    /// and takes them along (`GroupCommitter.commitHeldWrites()`).
    public func commitHeldWrites() {
        writer.commitHeldWrites()
    }

    /// One stored evaluation as the velocity tracker replays it: keyed hashes and times, nothing else.
    public struct VelocityReplayRow: Sendable {
        public var partition: VelocityPartition
        public var account: SubjectKey
        public var device: SubjectKey?
        public var counterparty: SubjectKey?
        public var createdAt: Int64
        public var wasHigh: Bool
    }

    /// Replays the evaluations since `since` (milliseconds), oldest first, for the velocity tracker: a range of the
    /// primary key, whose UUIDv7 identifiers are in creation order (schema migration 9). `body` returns false to
    /// stop early (a shutdown during start-up's replay). Returns the rows passed to `body`.
    @discardableResult
    public func forEachRecentEvaluation(since: Int64, _ body: (VelocityReplayRow) -> Bool) throws -> Int {
        try read { connection in
            let statement = try connection.statement("""
                SELECT tenant_id, environment, account_hash, device_hash, counterparty_hash, created_at, high_outcome
                FROM evaluation WHERE evaluation_id >= ? AND created_at >= ? AND account_hash IS NOT NULL
                ORDER BY evaluation_id
                """).bind(1, Identifier.lowerBound(forMilliseconds: since)).bind(2, since)
            var rows = 0
            while try statement.step() {
                // Rows this build could not have written (a hand-edited database) are skipped, not fatal. The
                // keys are parsed from the column text in place: a start-up replays millions of rows.
                guard let tenant = TenantID(statement.string(0)),
                      let environment = DeploymentEnvironment(rawValue: statement.string(1)),
                      let account = statement.withUTF8(2, SubjectKey.init(hexDigits:)) else { continue }
                let row = VelocityReplayRow(
                    partition: VelocityPartition(tenant: tenant, environment: environment), account: account,
                    device: statement.isNull(3) ? nil : statement.withUTF8(3, SubjectKey.init(hexDigits:)),
                    counterparty: statement.isNull(4) ? nil : statement.withUTF8(4, SubjectKey.init(hexDigits:)),
                    createdAt: statement.int64(5), wasHigh: statement.int(6) != 0)
                rows += 1
                guard body(row) else { break }
            }
            return rows
        }
    }

    public func forEachOptOut(_ body: (TenantID, SubjectKey, AuthorizationState) throws -> Void) throws {
        try read { connection in
            // Only the states that can fail an evaluation (`AuthorizationState.canBlockEvaluation`), a row at a
            // time: there may be millions, and the authorized ones are read on demand.
            let statement = try connection.statement("""
                SELECT tenant_id, subject_hash, status, pending_status, pending_effective_at, updated_at FROM authorization_state
                WHERE status IN ('denied', 'deniedRequestable') OR pending_status IS NOT NULL
                """)
            while try statement.step() {
                guard let tenant = TenantID(statement.string(0)), let subject = SubjectKey(hex: statement.string(1)),
                      let status = AuthorizationStatus(rawValue: statement.string(2)) else { continue }
                let state = AuthorizationState(
                    status: status, pendingStatus: statement.optionalString(3).flatMap(AuthorizationStatus.init(rawValue:)),
                    pendingEffectiveAt: statement.optionalInt64(4), updatedAt: statement.int64(5))
                try body(tenant, subject, state)
            }
        }
    }

    public func authorizationState(tenant: TenantID, subject: SubjectKey) throws -> AuthorizationState? {
        try read { connection in
            let statement = try connection.statement("""
                SELECT status, pending_status, pending_effective_at, updated_at FROM authorization_state
                WHERE tenant_id = ? AND subject_hash = ?
                """)
            defer { statement.reset() }
            statement.bind(1, tenant.rawValue).bind(2, subject.hex)
            guard try statement.step(), let status = AuthorizationStatus(rawValue: statement.string(0)) else { return nil }
            return AuthorizationState(
                status: status, pendingStatus: statement.optionalString(1).flatMap(AuthorizationStatus.init(rawValue:)),
                pendingEffectiveAt: statement.optionalInt64(2), updatedAt: statement.int64(3))
        }
    }

    public func saveAuthorizationState(
        _ state: AuthorizationState, tenant: TenantID, subject: SubjectKey,
        completion: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        // Not held for an event loop's release: a change queued behind another of its subject is submitted from
        // that one's completion, on a thread no loop pass follows.
        writer.submit({ connection in
            try connection.statement("""
                INSERT INTO authorization_state (tenant_id, subject_hash, status, pending_status, pending_effective_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (tenant_id, subject_hash) DO UPDATE SET status = excluded.status,
                    pending_status = excluded.pending_status, pending_effective_at = excluded.pending_effective_at,
                    updated_at = excluded.updated_at
                """)
                .bind(1, tenant.rawValue).bind(2, subject.hex).bind(3, state.status.rawValue)
                .bind(4, state.pendingStatus?.rawValue).bind(5, state.pendingEffectiveAt).bind(6, state.updatedAt)
                .run()
        }, completion: completion)
    }
}
