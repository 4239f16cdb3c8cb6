import InsightCrypto
import Testing
@testable import InsightCore

struct LabelIntakeTests {
    let acme = TenantID("acme")!
    let other = TenantID("other")!
    let store = MemoryLabelStore()
    let insights = (0..<4).map { _ in Identifier.make(at: Clock.nowMilliseconds(), random: RandomReserve()) }
    let foreignInsight = Identifier.make(at: Clock.nowMilliseconds(), random: RandomReserve())
    /// 2026-11-21T10:00Z; the evaluations were made late on 2026-11-19 (UTC).
    let now = Timestamp.days(fromDate: "2026-11-21")! * 86_400_000 + 36_000_000
    let evaluatedAt = Timestamp.days(fromDate: "2026-11-19")! * 86_400_000 + 86_340_000

    init() {
        for id in insights { store.addInsight(id, tenant: acme, createdAt: evaluatedAt) }
        store.addInsight(foreignInsight, tenant: other, createdAt: evaluatedAt)
    }

    func item(
        _ index: Int, _ id: String?, label: String? = "confirmedFraud", fraudType: String? = "techSupport",
        occurredOn: String? = "2026-11-20", amountBand: String? = nil, violations: [ContextViolation] = []
    ) -> LabelDraft {
        LabelDraft(pointer: "/items/\(index)", insightID: id, label: label, fraudType: fraudType, occurredOn: occurredOn,
                   amountBand: amountBand, violations: violations)
    }

    func submit(
        _ drafts: [LabelDraft], idempotency: IdempotentRequest? = nil, tenant: TenantID? = nil,
        environment: DeploymentEnvironment = .production, at time: Int64? = nil
    ) throws(LabelError) -> LabelSubmission {
        try LabelIntake(store: store).submitAndWait(
            drafts, tenant: tenant ?? acme, environment: environment, idempotency: idempotency, now: time ?? now
        ) { results in
            Array(results.map { "\($0.insightID ?? "-") \($0.outcome.rawValue) \($0.reason ?? "")" }.joined(separator: "\n").utf8)
        }
    }

    func outcomes(_ submission: LabelSubmission) -> [LabelItemOutcome] {
        guard case .processed(let results, _) = submission else { return [] }
        return results.map(\.outcome)
    }

    @Test func firstLabelIsAcceptedSameAgainIsDuplicateDifferentIsRevisedAndHistoryIsKept() throws {
        #expect(outcomes(try submit([item(0, insights[0], amountBand: "100to1k")])) == [.accepted])
        #expect(outcomes(try submit([item(0, insights[0], amountBand: "100to1k")])) == [.duplicate])
        #expect(outcomes(try submit([item(0, insights[0], label: "confirmedLegitimate", amountBand: "100to1k")])) == [.revised])
        // Back to the first content: different from the latest, so a revision again.
        #expect(outcomes(try submit([item(0, insights[0], amountBand: "100to1k")])) == [.revised])
        #expect(store.versions.map(\.content.verdict) == [.confirmedFraud, .confirmedLegitimate, .confirmedFraud])
    }

    @Test func theSameInsightTwiceInOneBatchComparesWithTheEarlierItem() throws {
        let submission = try submit([
            item(0, insights[1]), item(1, insights[1]), item(2, insights[1], fraudType: "romance"),
        ])
        #expect(outcomes(submission) == [.accepted, .duplicate, .revised])
        #expect(store.versions.count == 2)
    }

    @Test func anItemWithAnExtraFieldIsRejectedAloneNamingOnlyThePath() throws {
        let extra = ContextViolation(pointer: "/items/1/email", code: "unknownField", detail: "is not a field of this request")
        let submission = try submit([item(0, insights[0]), item(1, insights[1], violations: [extra]), item(2, insights[2])])
        guard case .processed(let results, _) = submission else { Issue.record("not processed"); return }
        #expect(results.map(\.outcome) == [.accepted, .rejected, .accepted])
        #expect(results[1].insightID == insights[1])
        #expect(results[1].reason == "/items/1/email is not a field of this request")
        #expect(Set(store.versions.map(\.insightID)) == [insights[0], insights[2]])
    }

    @Test func unknownAndForeignInsightsGetTheSameNotFound() throws {
        let unknown = Identifier.make(at: Clock.nowMilliseconds(), random: RandomReserve())
        guard case .processed(let results, _) = try submit([item(0, unknown), item(1, foreignInsight)]) else { Issue.record("not processed"); return }
        #expect(results == [LabelItemResult(insightID: unknown, outcome: .notFound), LabelItemResult(insightID: foreignInsight, outcome: .notFound)])
        #expect(store.versions.isEmpty)
        // The owner may label it.
        #expect(outcomes(try submit([item(0, foreignInsight)], tenant: other)) == [.accepted])
    }

    @Test func insightsOfTheOtherEnvironmentAreNotFoundAndKeysArePerEnvironment() throws {
        let sandboxInsight = Identifier.make(at: Clock.nowMilliseconds(), random: RandomReserve())
        store.addInsight(sandboxInsight, tenant: acme, environment: .sandbox, createdAt: evaluatedAt)
        let key = try #require(IdempotencyKey("same-key-both-environments"))
        let body: [UInt8] = Array("the body".utf8)
        // A production partner key cannot label the tenant's sandbox evaluations, nor the other way round.
        #expect(outcomes(try submit([item(0, sandboxInsight), item(1, insights[0])], idempotency: IdempotentRequest(key: key, keyDigest: "hmac " + key.rawValue, body: body)))
                == [.notFound, .accepted])
        // The same key and body in the sandbox is a batch of its own, not a replay of the production answer.
        let sandbox = try submit([item(0, sandboxInsight), item(1, insights[0])], idempotency: IdempotentRequest(key: key, keyDigest: "hmac " + key.rawValue, body: body),
                                 environment: .sandbox)
        #expect(outcomes(sandbox) == [.accepted, .notFound])
        #expect(store.versions.map(\.insightID).sorted() == [insights[0], sandboxInsight].sorted())
    }

    @Test func occurredOnMustBeARealDayFromTheEvaluationsDayUntilTodayUTC() throws {
        let cases: [(String, LabelItemOutcome, String?)] = [
            ("2026-11-19", .accepted, nil),
            ("2026-11-21", .accepted, nil),
            ("2026-11-18", .rejected, "/items/0/occurredOn is before the UTC day of the evaluation"),
            ("2026-11-22", .rejected, "/items/0/occurredOn is in the future"),
            ("2026-02-30", .rejected, "/items/0/occurredOn must be a date as YYYY-MM-DD"),
            // A real date before 1970 is before every evaluation, and said so (it was called no date).
            ("1969-12-31", .rejected, "/items/0/occurredOn is before the UTC day of the evaluation"),
            ("0001-01-01", .rejected, "/items/0/occurredOn is before the UTC day of the evaluation"),
            ("1969-02-29", .rejected, "/items/0/occurredOn must be a date as YYYY-MM-DD"),
            ("21/11/2026", .rejected, "/items/0/occurredOn must be a date as YYYY-MM-DD"),
        ]
        for (index, (date, expected, reason)) in cases.enumerated() {
            let id = Identifier.make(at: Clock.nowMilliseconds(), random: RandomReserve())
            store.addInsight(id, tenant: acme, createdAt: evaluatedAt)
            guard case .processed(let results, _) = try submit([item(0, id, occurredOn: date)]) else { Issue.record("not processed"); continue }
            #expect(results[0].outcome == expected, "case \(index)")
            #expect(results[0].reason == reason, "case \(index)")
        }
    }

    @Test func valuesOutsideTheVocabulariesAndMissingFieldsAreNamed() throws {
        guard case .processed(let results, _) = try submit([
            item(0, insights[0], label: "fraud", fraudType: "phishing", amountBand: "1234.56"),
            item(1, insights[1], label: nil, fraudType: nil, occurredOn: nil),
            item(2, "someone@example.com"),
            item(3, nil, violations: [ContextViolation(pointer: "/items/3/insightID", code: "wrongType", detail: "expected a string, received a number")]),
        ]) else { Issue.record("not processed"); return }
        #expect(results.map(\.outcome) == [.rejected, .rejected, .rejected, .rejected])
        let first = try #require(results[0].reason)
        #expect(first.contains("/items/0/label must be one of confirmedFraud, confirmedLegitimate"))
        #expect(first.contains("/items/0/fraudType must be one of"))
        #expect(first.contains("/items/0/amountBand must be one of under10, 10to100, 100to1k, 1kTo10k, over10k"))
        #expect(!first.contains("1234.56") && !first.contains("phishing"))
        #expect(results[1].reason == "/items/1/label is required; /items/1/fraudType is required; /items/1/occurredOn is required")
        // A malformed insightID is never repeated back: it might be anything.
        #expect(results[2].insightID == nil)
        #expect(results[2].reason == "/items/2/insightID must be an insightID from an evaluation")
        // A shape problem already recorded is not reported twice as missing.
        #expect(results[3].reason == "/items/3/insightID expected a string, received a number")
        #expect(store.versions.isEmpty)
    }

    @Test func aRetryWithTheSameKeyAndBodyGetsTheSameAnswerWithoutWritingAgain() throws {
        let key = try #require(IdempotencyKey("batch-2026-11-21-001"))
        let body: [UInt8] = Array("the body".utf8)
        let first = try submit([item(0, insights[0]), item(1, insights[1])], idempotency: IdempotentRequest(key: key, keyDigest: "hmac " + key.rawValue, body: body))
        let retry = try submit([item(0, insights[0]), item(1, insights[1])], idempotency: IdempotentRequest(key: key, keyDigest: "hmac " + key.rawValue, body: body))
        #expect(retry == .replayed(response: first.response))
        #expect(String(decoding: retry.response, as: UTF8.self).contains("accepted"))
        #expect(store.versions.count == 2)
        #expect(throws: LabelError.idempotencyKeyReused) {
            try submit([item(0, insights[2])], idempotency: IdempotentRequest(key: key, keyDigest: "hmac " + key.rawValue, body: Array("another body".utf8)))
        }
        #expect(store.versions.count == 2)
        // Keys are per tenant.
        #expect(outcomes(try submit([item(0, foreignInsight)], idempotency: IdempotentRequest(key: key, keyDigest: "hmac " + key.rawValue, body: Array("x".utf8)), tenant: other)) == [.accepted])
    }

    @Test func anIdempotencyKeyIsRememberedForADayThenForgotten() throws {
        let key = try #require(IdempotencyKey("nightly-upload"))
        let body: [UInt8] = Array("the body".utf8)
        let day = LabelIntake.idempotencyRetentionMilliseconds
        let first = try submit([item(0, insights[0])], idempotency: IdempotentRequest(key: key, keyDigest: "hmac " + key.rawValue, body: body), at: now)
        // Within the day: the first answer again, and another body under the key is refused.
        #expect(try submit([item(0, insights[0])], idempotency: IdempotentRequest(key: key, keyDigest: "hmac " + key.rawValue, body: body), at: now + day)
            == .replayed(response: first.response))
        #expect(throws: LabelError.idempotencyKeyReused) {
            try submit([item(0, insights[1])], idempotency: IdempotentRequest(key: key, keyDigest: "hmac " + key.rawValue, body: Array("other".utf8)), at: now + day)
        }
        // A day later the key is free: the new batch is processed.
        let later = try submit([item(0, insights[1])], idempotency: IdempotentRequest(key: key, keyDigest: "hmac " + key.rawValue, body: Array("other".utf8)), at: now + day + 1)
        #expect(outcomes(later) == [.accepted])
        #expect(store.idempotencyRecords == 1)
        // Any batch prunes what has expired, with or without a key.
        _ = try submit([item(0, insights[2])], at: now + 2 * day + 2)
        #expect(store.idempotencyRecords == 0)
    }

    @Test func aFailedWriteLeavesNothingOfTheBatch() {
        store.failAppends.store(true, ordering: .relaxed)
        let key = IdempotencyKey("k1")!
        #expect(throws: LabelError.storageFailed) {
            try submit([item(0, insights[0]), item(1, insights[1])], idempotency: IdempotentRequest(key: key, keyDigest: "hmac " + key.rawValue, body: [1]))
        }
        #expect(store.versions.isEmpty)
        #expect(store.idempotencyRecords == 0)
    }

    @Test func idempotencyKeysAreOneTo128VisibleASCIICharacters() {
        #expect(IdempotencyKey(String(repeating: "k", count: 128)) != nil)
        #expect(IdempotencyKey("a-Z_0.9~!") != nil)
        for bad in ["", String(repeating: "k", count: 129), "has space", "tab\there", "naïve"] {
            #expect(IdempotencyKey(bad) == nil, "\(bad)")
        }
    }

    @Test func sameBodyHashesAlikeAndDifferentBodiesDiffer() {
        let key = IdempotencyKey("k")!
        #expect(IdempotentRequest(key: key, keyDigest: "hmac " + key.rawValue, body: [1, 2, 3]) == IdempotentRequest(key: key, keyDigest: "hmac " + key.rawValue, body: [1, 2, 3]))
        #expect(IdempotentRequest(key: key, keyDigest: "hmac " + key.rawValue, body: [1, 2, 3]) != IdempotentRequest(key: key, keyDigest: "hmac " + key.rawValue, body: [1, 2, 4]))
    }
}
