/// The rules of offline labels: each item is checked on its own (a bad item never sinks the batch), matched to the
/// tenant's insights, compared with the insight's latest label, and every new version of the batch is written in
/// one transaction together with the idempotency record, before the answer exists.
public struct LabelIntake: Sendable {
    public static let maximumItems = 1000
    /// How long an Idempotency-Key is remembered: a retry within a day gets the first answer again; after that the
    /// key may be used afresh. Without a bound the records would grow with every batch ever sent.
    public static let idempotencyRetentionMilliseconds: Int64 = 86_400_000

    private let store: any LabelStore
    private let quota: LabelStorageQuota

    public init(store: any LabelStore, quota: LabelStorageQuota = LabelStorageQuota()) {
        self.store = store
        self.quota = quota
    }

    /// `encode` turns the results into the response body, which is what a retry under the same key gets again.
    /// The answer arrives once the batch's transaction is durable. Only insights evaluated in the key's own
    /// `environment` can be labelled; the others are `notFound`, like another tenant's. What the batch stores counts
    /// against `keyID`'s quota for the day; a batch that would pass it is refused whole, and one that stores nothing
    /// (a replay, duplicates, unknown insights, rejections without a key) is answered whatever the tally.
    public func submit(
        _ drafts: [LabelDraft], tenant: TenantID, environment: DeploymentEnvironment, keyID: String,
        idempotency: IdempotentRequest?, now: Int64,
        encode: @escaping @Sendable ([LabelItemResult]) -> [UInt8]
    ) -> OneShot<Result<LabelSubmission, LabelError>> {
        let today = now.floorDividedWithRemainder(86_400_000).0
        let checked = drafts.map { $0.validated(today: today) }
        let insightIDs = checked.compactMap { check -> String? in
            if case .success(let label) = check { return label.insightID }
            return nil
        }
        let answer = OneShot<Result<LabelSubmission, LabelError>>()
        let quota = self.quota
        store.inLabelTransaction({ transaction throws -> LabelSubmission in
            // Pruned here, in the batch's own transaction, so expiry needs no timer and costs one index seek.
            try transaction.deleteIdempotencyRecords(createdBefore: now - Self.idempotencyRetentionMilliseconds)
            if let idempotency,
               let earlier = try transaction.idempotencyRecord(tenant: tenant, environment: environment, request: idempotency) {
                guard earlier.bodyHash == idempotency.bodyHash else { throw LabelError.idempotencyKeyReused }
                return .replayed(response: earlier.response)
            }
            let evaluationTimes = try transaction.evaluationTimes(ofInsights: insightIDs, tenant: tenant, environment: environment)
            var latest = try transaction.latestLabels(ofInsights: insightIDs, tenant: tenant)
            var versions: [LabelVersion] = []
            var results: [LabelItemResult] = []
            results.reserveCapacity(drafts.count)
            for (draft, check) in zip(drafts, checked) {
                switch check {
                case .failure(let rejection):
                    results.append(LabelItemResult(insightID: draft.wellFormedInsightID, outcome: .rejected, reason: rejection.reason))
                case .success(let label):
                    let result = Self.decide(label, draft: draft, evaluationTime: evaluationTimes[label.insightID], latest: latest[label.insightID])
                    results.append(result)
                    if result.outcome == .accepted || result.outcome == .revised {
                        versions.append(LabelVersion(insightID: label.insightID, tenant: tenant, content: label.content, receivedAt: now))
                        latest[label.insightID] = label.content
                    }
                }
            }
            let response = encode(results)
            let record = idempotency.map {
                IdempotencyRecord(
                    tenant: tenant, environment: environment, keyDigest: $0.keyDigest, bodyHash: $0.bodyHash,
                    response: response, createdAt: now)
            }
            let stored = versions.reduce(record.map(LabelStorageQuota.storedBytes(of:)) ?? 0) { $0 + LabelStorageQuota.storedBytes(of: $1) }
            if stored > 0 {
                // Checked before any write, so a refused batch leaves nothing behind, its idempotency record included
                // (a retry the next day is processed afresh).
                let day = LabelStorageQuota.day(of: now)
                let tally = try transaction.storedLabelBytes(keyID: keyID, day: day)
                let judged = tally.judged(at: now)
                if judged.latestDayRefusing(stored, quota: quota.bytesPerDay) != nil {
                    // The wait runs past tomorrow too when tomorrow's tally (counted or not yet) would refuse the
                    // batch: waiting for midnight alone, the client was refused again (fourth regression probe).
                    let refusingDay = tally.latestDayRefusing(stored, quota: quota.bytesPerDay)
                    throw LabelError.storageQuotaExceeded(
                        bytesPerDay: quota.bytesPerDay,
                        retryAfterSeconds: LabelStorageQuota.secondsUntilNextDay(from: now, refusingDay: refusingDay))
                }
                try transaction.addStoredLabelBytes(stored, keyID: keyID, day: day)
                // After a step back, the batch comes after what tomorrow holds, so it counts there too: judged against
                // tomorrow but added to today alone, every batch still fitted tomorrow, and a key stored two days'
                // quota in minutes (fourth regression probe).
                if judged.bytesByDay[day + 1] != nil { try transaction.addStoredLabelBytes(stored, keyID: keyID, day: day + 1) }
            }
            if !versions.isEmpty { try transaction.appendLabels(versions) }
            if let record { try transaction.saveIdempotencyRecord(record) }
            return .processed(results: results, response: response)
        }, completion: { outcome in
            switch outcome {
            case .success(let submission): answer.fulfil(.success(submission))
            case .failure(let error as LabelError): answer.fulfil(.failure(error))
            case .failure: answer.fulfil(.failure(.storageFailed))
            }
        })
        return answer
    }

    /// One valid item against the stored facts. A later item of the same batch sees the earlier ones as latest.
    static func decide(_ label: ValidLabel, draft: LabelDraft, evaluationTime: Int64?, latest: LabelContent?) -> LabelItemResult {
        guard let evaluationTime else { return LabelItemResult(insightID: label.insightID, outcome: .notFound) }
        if label.occurredOnDay < evaluationTime.floorDividedWithRemainder(86_400_000).0 {
            let rejection = LabelRejection([ContextViolation(
                pointer: draft.pointer + "/occurredOn", code: "beforeEvaluation", detail: "is before the UTC day of the evaluation")])
            return LabelItemResult(insightID: label.insightID, outcome: .rejected, reason: rejection.reason)
        }
        guard let latest else { return LabelItemResult(insightID: label.insightID, outcome: .accepted) }
        return LabelItemResult(insightID: label.insightID, outcome: latest == label.content ? .duplicate : .revised)
    }
}
