import Dispatch
import InsightCrypto
import Synchronization
import Testing
@testable import InsightCore

struct FixedModel: ScoringModel {
    var version: String
    var probabilityValue: Double
    var mediumThreshold = 0.3
    var highThreshold = 0.7
    var isCandidate = false
    func probability(for features: FeatureVector) throws -> Double { probabilityValue }
    func reasonFeatures(for features: FeatureVector, limit: Int) -> [String] { Array(["activeCall", "hesitationMillis"].prefix(limit)) }
}

struct FakeModels: ModelProvider, ModelSnapshot {
    var current: FixedModel
    var prior: FixedModel?

    func currentSnapshot() -> any ModelSnapshot { self }

    func lookup(insightType: String, category: OperationCategory, version: ModelVersionRequest) -> ModelLookup {
        guard insightType == InsightType.isLikelyBeingCoached else { return .insightUnavailable }
        switch version {
        case .current: return .found(current, currentVersion: current.version)
        case .specific(let wanted):
            if wanted == current.version { return .found(current, currentVersion: current.version) }
            if let prior, wanted == prior.version { return .found(prior, currentVersion: current.version) }
            return .versionUnavailable(currentVersion: current.version)
        }
    }

    var listing: [ModelListing] { [] }
}

final class MemoryRecorder: EvaluationRecorder, AuthorizationStore, SubjectKeySource {
    let records = Mutex<[EvaluationRecord]>([])
    let failing = Atomic<Bool>(false)
    let auth = Mutex<[(TenantID, SubjectKey, AuthorizationState)]>([])

    func record(_ evaluation: EvaluationRecord) -> PendingWrite {
        if failing.load(ordering: .relaxed) { return PendingWrite(false) }
        records.withLock { $0.append(evaluation) }
        return PendingWrite(true)
    }
    func forEachOptOut(_ body: (TenantID, SubjectKey, AuthorizationState) throws -> Void) throws {
        let saved = auth.withLock { $0 }
        for (index, (tenant, subject, state)) in saved.enumerated() where state.canBlockEvaluation {
            // The log keeps every save; only the last of a subject stands, as the database's upsert keeps it.
            if !saved[(index + 1)...].contains(where: { $0.0 == tenant && $0.1 == subject }) { try body(tenant, subject, state) }
        }
    }
    func authorizationState(tenant: TenantID, subject: SubjectKey) throws -> AuthorizationState? {
        auth.withLock { $0.last { $0.0 == tenant && $0.1 == subject }?.2 }
    }
    func saveAuthorizationState(
        _ state: AuthorizationState, tenant: TenantID, subject: SubjectKey,
        completion: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        auth.withLock { $0.append((tenant, subject, state)) }
        completion(.success(()))
    }
    func subjectKey(for tenant: TenantID) throws -> HMACKey? { HMACKey(bytes: Array(repeating: 7, count: 32)) }
}

func shippedCatalogue() throws -> FeatureCatalogue {
    let root = "/" + String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
    return try FeatureCatalogue.load(from: root + "/config/features")
}

@Suite struct EvaluatorTests {
    let principal = Principal(keyID: "k0123456789abcdef", tenant: TenantID("acme")!, role: .client, environment: .sandbox)
    let recorder = MemoryRecorder()

    func makeEvaluator(
        probability: Double = 0.5, velocity: VelocityConfiguration = .standard, tracker: VelocityTracker? = nil,
        optOutsInMemory: Int = 200_000
    ) throws -> (Evaluator, AuthorizationRegistry) {
        let authorizations = try AuthorizationRegistry(store: recorder, cooldownMilliseconds: 86_400_000, memoryCapacity: optOutsInMemory)
        let models = FakeModels(current: FixedModel(version: "2026.11.1", probabilityValue: probability), prior: FixedModel(version: "2026.09.1", probabilityValue: 0.1))
        let evaluator = Evaluator(.init(
            catalogue: try shippedCatalogue(), models: models, velocity: tracker ?? VelocityTracker(configuration: velocity),
            hasher: SubjectHasher(source: recorder), authorizations: authorizations, recorder: recorder))
        return (evaluator, authorizations)
    }

    func paymentRequest(features: [(String, FeatureInput)]? = nil, insights: [InsightRequest]? = nil) -> EvaluationRequest {
        EvaluationRequest(
            requestID: "r-1", category: .payment,
            insights: insights ?? [
                InsightRequest(insightType: InsightType.isLikelyBeingCoached, schema: "version1", modelVersion: .current),
                InsightRequest(insightType: InsightType.isLikelyBeingCoached, schema: "version1", modelVersion: .specific("2026.09.1")),
            ],
            subject: SubjectReferences(accountRef: "acct-1", deviceRef: "dev-1", counterpartyRef: "payee-1"),
            features: features ?? [("activeCall", .number(1)), ("callDurationSeconds", .number(640)), ("screenSharingActive", .boolean(false)), ("sessionDurationSeconds", .number(95)), ("timeOfDayBand", .number(2)), ("amountBandRelativeToUsual", .number(3))])
    }

    @Test func scoresEachInsightWithItsModelAndRecordsHashesOnly() throws {
        let (evaluator, _) = try makeEvaluator(probability: 0.5)
        let result = try evaluator.evaluate(paymentRequest(), principal: principal, now: 1_000)
        #expect(result.insights.count == 2)
        #expect(result.insights[0].outcome == .value(.medium))
        #expect(result.insights[0].isUsingCurrentModel)
        #expect(result.insights[0].reasonCodes.contains("activeCall"))
        #expect(result.insights[1].outcome == .value(.unknown))
        #expect(result.insights[1].modelVersion == "2026.09.1")
        #expect(result.insights[1].newestModelVersion == "2026.11.1")
        #expect(!result.insights[1].isUsingCurrentModel)
        #expect(result.insights[0].insightID != result.insights[1].insightID)
        let stored = try #require(recorder.records.withLock { $0.first })
        #expect(stored.evaluationID == result.evaluationID)
        #expect(stored.account != nil)
        #expect(!String(describing: stored).contains("acct-1"))
    }

    @Test func oneInsightErrorDoesNotFailTheOthers() throws {
        let (evaluator, _) = try makeEvaluator()
        let request = paymentRequest(insights: [
            InsightRequest(insightType: InsightType.isLikelyBeingCoached, schema: "version1", modelVersion: .specific("1999.01.1")),
            InsightRequest(insightType: "somethingElse", schema: "version1", modelVersion: .current),
            InsightRequest(insightType: InsightType.isLikelyBeingCoached, schema: "version9", modelVersion: .current),
            InsightRequest(insightType: InsightType.isLikelyBeingCoached, schema: "version1", modelVersion: .current),
        ])
        let result = try evaluator.evaluate(request, principal: principal, now: 1_000)
        #expect(result.insights.map(\.outcome) == [
            .error(.insightVersionUnavailable), .error(.insightUnavailable), .error(.insightVersionIncompatible), .value(.medium),
        ])
    }

    /// The client gets its own type names back, to match results to requests; the record keeps only names the
    /// service offers, as a made-up name could carry personal data.
    @Test func anUnknownInsightTypeIsAnsweredAsSentButNotKept() throws {
        let (evaluator, _) = try makeEvaluator()
        let request = paymentRequest(insights: [
            InsightRequest(insightType: "jane.doe@example.com", schema: "version1", modelVersion: .current),
            InsightRequest(insightType: "IsLikelyBeingCoachedInsight", schema: "version1", modelVersion: .current),
        ])
        let result = try evaluator.evaluate(request, principal: principal, now: 1_000)
        #expect(result.insights.map(\.insightType) == ["jane.doe@example.com", "IsLikelyBeingCoachedInsight"])
        #expect(result.insights.map(\.outcome) == [.error(.insightUnavailable), .value(.medium)])
        let stored = try #require(recorder.records.withLock { $0.first })
        #expect(stored.insights.map(\.insightType) == [InsightType.unrecognised, InsightType.isLikelyBeingCoached])
        #expect(!String(describing: stored).contains("jane"))
    }

    @Test func invalidContextNamesEveryFieldWithoutValues() throws {
        let (evaluator, _) = try makeEvaluator()
        var request = paymentRequest(features: [("activeCall", .number(987654.321)), ("bogusFeature", .number(1)), ("evaluationsPerAccount1h", .number(3))])
        request.subject.counterpartyRef = nil
        #expect {
            try evaluator.evaluate(request, principal: principal, now: 1_000)
        } throws: { error in
            guard case EvaluationError.contextInvalid(let violations) = error else { return false }
            let pointers = Set(violations.map(\.pointer))
            let text = violations.map(\.detail).joined()
            return pointers.isSuperset(of: ["/subject/counterpartyRef", "/features/bogusFeature", "/features/evaluationsPerAccount1h", "/features/activeCall"])
                && !text.contains("987654")
        }
        #expect(recorder.records.withLock { $0.isEmpty })
    }

    @Test func velocityRulesRaiseButNeverLowerOutcomes() throws {
        let (evaluator, _) = try makeEvaluator(probability: 0.1)
        var last: EvaluationResult?
        for index in 0..<6 {
            last = try evaluator.evaluate(paymentRequest(), principal: principal, now: 1_000 + Int64(index))
        }
        let result = try #require(last)
        #expect(result.insights[0].outcome == .value(.medium))
        #expect(result.insights[0].reasonCodes.contains("accountEvaluationBurst"))
        // A high score stays high even with no rule firing.
        let (high, _) = try makeEvaluator(probability: 0.9)
        #expect(try high.evaluate(paymentRequest(), principal: principal, now: 0).insights[0].outcome == .value(.high))
    }

    /// The same whether memory holds the opt-out or, past its capacity (0 here), only the store does.
    @Test(arguments: [200_000, 0]) func deniedSubjectFailsOnlyAfterCooldownAndOptInIsImmediate(optOutsInMemory: Int) throws {
        let (evaluator, authorizations) = try makeEvaluator(optOutsInMemory: optOutsInMemory)
        let account = try SubjectHasher(source: recorder).key(for: "acct-1", kind: .accountRef, tenant: principal.tenant, environment: .sandbox)
        let state = try authorizations.change(tenant: principal.tenant, subject: account, to: .denied, now: 0).wait().get()
        #expect(state.status == .notDetermined)
        #expect(state.pendingStatus == .denied)
        _ = try evaluator.evaluate(paymentRequest(), principal: principal, now: 1_000)
        #expect(throws: EvaluationError.denied) { try evaluator.evaluate(paymentRequest(), principal: principal, now: 86_400_000) }
        #expect(authorizations.heldCount == min(optOutsInMemory, 1) && authorizations.overflowCount == 1 - min(optOutsInMemory, 1))
        _ = try authorizations.change(tenant: principal.tenant, subject: account, to: .authorized, now: 86_400_001).wait().get()
        _ = try evaluator.evaluate(paymentRequest(), principal: principal, now: 86_400_002)
    }

    @Test func sandboxOverridesForceOutcomesAndErrors() throws {
        let (evaluator, _) = try makeEvaluator(probability: 0.1)
        let forced = try evaluator.evaluate(paymentRequest(), principal: principal, overrides: SandboxOverrides(outcome: .high), now: 0)
        #expect(forced.insights.allSatisfy { $0.outcome == .value(.high) })
        let failed = try evaluator.evaluate(paymentRequest(), principal: principal, overrides: SandboxOverrides(insightError: .insightEvaluationFailed), now: 0)
        #expect(failed.insights.allSatisfy { $0.outcome == .error(.insightEvaluationFailed) })
        #expect(throws: EvaluationError.notAvailable) {
            try evaluator.evaluate(paymentRequest(), principal: principal, overrides: SandboxOverrides(evaluationError: .notAvailable), now: 0)
        }
    }

    /// A forced insight error has the shape production gives that error: a model version only for the errors that
    /// come after a model was found (rate limit, failed evaluation), the newest version wherever production names it.
    @Test func aForcedInsightErrorHasTheShapeOfTheRealOne() throws {
        let (evaluator, _) = try makeEvaluator(probability: 0.1)
        func forced(_ code: InsightErrorCode) throws -> InsightResult {
            try evaluator.evaluate(paymentRequest(), principal: principal, overrides: SandboxOverrides(insightError: code), now: 0).insights[0]
        }
        let real = try evaluator.evaluate(paymentRequest(), principal: principal, now: 0).insights[0]
        let unavailable = try forced(.insightUnavailable)
        #expect(unavailable.modelVersion == nil && unavailable.newestModelVersion == nil && !unavailable.isUsingCurrentModel)
        for code in [InsightErrorCode.insightVersionUnavailable, .insightVersionIncompatible] {
            let result = try forced(code)
            #expect(result.modelVersion == nil && result.newestModelVersion == real.newestModelVersion && !result.isUsingCurrentModel, "\(code)")
        }
        for code in [InsightErrorCode.rateLimitError, .insightEvaluationFailed] {
            let result = try forced(code)
            #expect(result.modelVersion == real.modelVersion && result.isUsingCurrentModel == real.isUsingCurrentModel, "\(code)")
        }
        // What production answers for a version it does not have, for comparison.
        let missing = try evaluator.evaluate(
            paymentRequest(insights: [InsightRequest(insightType: InsightType.isLikelyBeingCoached, schema: InsightType.supportedSchema, modelVersion: .specific("1999.01.1"))]),
            principal: principal, now: 0).insights[0]
        #expect(missing.outcome == .error(.insightVersionUnavailable))
        #expect(missing.modelVersion == nil && missing.newestModelVersion == real.newestModelVersion && !missing.isUsingCurrentModel)
    }

    /// A forced outcome changes the value only; reasons follow the rule production keeps (none for `unknown`), and
    /// insights the service cannot evaluate keep their real error.
    @Test func aForcedOutcomeKeepsTheRulesOfReasonsAndRealErrors() throws {
        let (evaluator, _) = try makeEvaluator(probability: 0.9)
        let real = try evaluator.evaluate(paymentRequest(), principal: principal, now: 0)
        #expect(real.insights[0].outcome == .value(.high))
        #expect(!real.insights[0].reasonCodes.isEmpty)
        let forcedUnknown = try evaluator.evaluate(paymentRequest(), principal: principal, overrides: SandboxOverrides(outcome: .unknown), now: 1)
        #expect(forcedUnknown.insights.allSatisfy { $0.outcome == .value(.unknown) && $0.reasonCodes.isEmpty })
        let forcedMedium = try evaluator.evaluate(paymentRequest(), principal: principal, overrides: SandboxOverrides(outcome: .medium), now: 2)
        #expect(forcedMedium.insights[0].outcome == .value(.medium))
        #expect(forcedMedium.insights[0].reasonCodes == real.insights[0].reasonCodes, "the real evaluation's reasons")

        let unsupported = paymentRequest(insights: [InsightRequest(insightType: InsightType.isLikelyBeingCoached, schema: "version2", modelVersion: .current)])
        let kept = try evaluator.evaluate(unsupported, principal: principal, overrides: SandboxOverrides(outcome: .high), now: 3)
        #expect(kept.insights[0].outcome == .error(.insightVersionIncompatible))
    }

    /// The velocity count of `high` outcomes follows the evaluation, not the override: testing an app's `high`
    /// screen three times must not leave the test account answering `high` (`repeatedHighOutcomes`) for a week,
    /// and a real `high` answered as a forced `unknown` still counts, as it would in production.
    @Test func aForcedOutcomeDoesNotChangeWhatVelocityCountsAsHigh() throws {
        let (low, _) = try makeEvaluator(probability: 0.1)
        for time in Int64(0)..<4 {
            _ = try low.evaluate(paymentRequest(), principal: principal, overrides: SandboxOverrides(outcome: .high), now: time * 1_000)
        }
        let after = try low.evaluate(paymentRequest(), principal: principal, now: 10_000)
        #expect(after.insights[0].outcome == .value(.unknown))
        #expect(!after.insights[0].reasonCodes.contains("repeatedHighOutcomes"))
        #expect(recorder.records.withLock { $0.allSatisfy { !$0.countsAsHighOutcome } }, "what start-up replays")

        let highRecorder = MemoryRecorder()
        let tracker = VelocityTracker(configuration: .standard)
        let evaluator = Evaluator(.init(
            catalogue: try shippedCatalogue(), models: FakeModels(current: FixedModel(version: "2026.11.1", probabilityValue: 0.9)),
            velocity: tracker, hasher: SubjectHasher(source: highRecorder),
            authorizations: try AuthorizationRegistry(store: highRecorder, cooldownMilliseconds: 0), recorder: highRecorder))
        for time in Int64(0)..<3 {
            let hidden = try evaluator.evaluate(paymentRequest(), principal: principal, overrides: SandboxOverrides(outcome: .unknown), now: time * 1_000)
            #expect(hidden.insights[0].outcome == .value(.unknown))
        }
        #expect(highRecorder.records.withLock { $0.count == 3 && $0.allSatisfy(\.countsAsHighOutcome) })
        let next = try evaluator.evaluate(paymentRequest(), principal: principal, now: 10_000)
        #expect(next.insights[0].reasonCodes.contains("repeatedHighOutcomes"))
    }

    /// A high raised by the rule over high outcomes is not itself a high outcome: three real highs make later
    /// evaluations `high` for a week, not for as long as the account keeps being evaluated.
    @Test func aHighRaisedByRepeatedHighOutcomesDoesNotFeedItself() throws {
        let evaluator = try historyEvaluator(highFromHistoryAtLeast: nil)
        let day: Int64 = 86_400_000
        let answers = try outcomes(of: evaluator, [
            (0, Self.coached), (1_000, Self.coached), (2_000, Self.coached),
        ] + (1...9).map { (Int64($0) * day, Self.harmless) })
        // Three model highs; then `high` from the rule while they are in the 7-day window (days 1 to 6), and the
        // model's own `unknown` once they have left it (days 7 to 9).
        #expect(answers == [.high, .high, .high] + Array(repeating: .high, count: 6) + [.unknown, .unknown, .unknown], "\(answers)")
        #expect(recorder.records.withLock { $0.filter(\.countsAsHighOutcome).count } == 3)
    }

    /// The model reads the account's high outcomes too (`highOutcomesPerAccount7d` is a computed feature), and may
    /// learn that earlier highs alone make a `high`. Such a `high` is answered, but it is no new high outcome, for
    /// the rule's reason: counted, it would keep the model answering `high` for as long as the account is evaluated.
    /// A request that is `high` on its own features still counts, however many highs came before it.
    @Test func aModelsHighThatRestsOnlyOnEarlierHighsDoesNotFeedItself() throws {
        let evaluator = try historyEvaluator(highFromHistoryAtLeast: 2)
        let day: Int64 = 86_400_000
        let answers = try outcomes(of: evaluator, [(0, Self.coached), (1_000, Self.coached)]
            + (1...9).map { (Int64($0) * day, Self.harmless) })
        // Two real highs; the model's `high` from them alone (days 1 to 6, never reaching the rule's three); its
        // own `unknown` once one of them has left the window (day 7 on: 7 days after the first).
        #expect(answers == [.high, .high] + Array(repeating: .high, count: 6) + [.unknown, .unknown, .unknown], "\(answers)")
        #expect(recorder.records.withLock { $0.filter(\.countsAsHighOutcome).count } == 2)

        // Coached again: high on its own features with highs already in the window, so it counts; a harmless
        // request right after is answered `high` from the two, and does not.
        let again = try outcomes(of: evaluator, [(10 * day, Self.coached), (10 * day + 1_000, Self.coached), (10 * day + 2_000, Self.harmless)])
        #expect(again == [.high, .high, .high])
        #expect(recorder.records.withLock { $0.filter(\.countsAsHighOutcome).count } == 4)
    }

    private static let coached: Double = 900
    private static let harmless: Double = 30

    /// An evaluator whose model answers `high` for a call over 600 s, and, given `highFromHistoryAtLeast`, for
    /// that many of the account's high outcomes in the week; `unknown` otherwise.
    private func historyEvaluator(highFromHistoryAtLeast threshold: Double?) throws -> Evaluator {
        struct HistoryReading: ScoringModel {
            let threshold: Double?
            var version = "2026.11.1"
            var mediumThreshold = 0.3
            var highThreshold = 0.7
            func probability(for features: FeatureVector) throws -> Double {
                let coached = (features.value(named: "callDurationSeconds") ?? 0) > 600
                let history = features.value(named: "highOutcomesPerAccount7d") ?? 0
                return coached || threshold.map { history >= $0 } == true ? 0.9 : 0.1
            }
            func reasonFeatures(for features: FeatureVector, limit: Int) -> [String] { [] }
        }
        final class Models: ModelProvider, ModelSnapshot, Sendable {
            let model: HistoryReading
            init(_ model: HistoryReading) { self.model = model }
            func currentSnapshot() -> any ModelSnapshot { self }
            func lookup(insightType: String, category: OperationCategory, version: ModelVersionRequest) -> ModelLookup {
                .found(model, currentVersion: model.version)
            }
            var listing: [ModelListing] { [] }
        }
        return Evaluator(.init(
            catalogue: try shippedCatalogue(), models: Models(HistoryReading(threshold: threshold)),
            velocity: VelocityTracker(configuration: .standard), hasher: SubjectHasher(source: recorder),
            authorizations: try AuthorizationRegistry(store: recorder, cooldownMilliseconds: 0), recorder: recorder))
    }

    /// The current model's outcome for one payment of the same account at each time, with that call duration.
    private func outcomes(of evaluator: Evaluator, _ requests: [(time: Int64, callSeconds: Double)]) throws -> [RiskLevel] {
        let one = [InsightRequest(insightType: InsightType.isLikelyBeingCoached, schema: "version1", modelVersion: .current)]
        return try requests.map { time, callSeconds in
            let features: [(String, FeatureInput)] = [
                ("activeCall", .number(1)), ("callDurationSeconds", .number(callSeconds)), ("screenSharingActive", .boolean(false)),
                ("sessionDurationSeconds", .number(95)), ("timeOfDayBand", .number(2)), ("amountBandRelativeToUsual", .number(3)),
            ]
            let result = try evaluator.evaluate(paymentRequest(features: features, insights: one), principal: principal, now: time)
            guard case .value(let level) = result.insights[0].outcome else {
                Issue.record("no value at \(time)")
                return .unknown
            }
            return level
        }
    }

    /// A candidate model answers `high` to whoever asks for its version, but that is no high outcome of the
    /// account: asking for the current model and a candidate side by side (how a candidate is tried) must not make
    /// the current model's answers `high` through `repeatedHighOutcomes`. Its highs alongside the current model's
    /// own still leave the current model's to count.
    @Test func aCandidatesHighIsNotCountedAsTheAccountsHighOutcome() throws {
        let candidate = FixedModel(version: "2026.12.1", probabilityValue: 0.9, isCandidate: true)
        let current = FixedModel(version: "2026.11.1", probabilityValue: 0.1)
        let tracker = VelocityTracker(configuration: .standard)
        let evaluator = Evaluator(.init(
            catalogue: try shippedCatalogue(), models: FakeModels(current: current, prior: candidate),
            velocity: tracker, hasher: SubjectHasher(source: recorder),
            authorizations: try AuthorizationRegistry(store: recorder, cooldownMilliseconds: 0), recorder: recorder))
        let both = [
            InsightRequest(insightType: InsightType.isLikelyBeingCoached, schema: "version1", modelVersion: .current),
            InsightRequest(insightType: InsightType.isLikelyBeingCoached, schema: "version1", modelVersion: .specific("2026.12.1")),
        ]
        for time in Int64(0)..<4 {
            let result = try evaluator.evaluate(paymentRequest(insights: both), principal: principal, now: time * 1_000)
            #expect(result.insights[0].outcome == .value(.unknown))
            #expect(result.insights[1].outcome == .value(.high), "the candidate's own answer")
            #expect(!result.insights[0].reasonCodes.contains("repeatedHighOutcomes"))
        }
        #expect(recorder.records.withLock { $0.count == 4 && $0.allSatisfy { !$0.countsAsHighOutcome } })
    }

    /// A forced insight error changes the answer, not what is counted: the insight is still evaluated for real,
    /// and a real high counts.
    @Test func aForcedInsightErrorStillCountsARealHigh() throws {
        let (evaluator, _) = try makeEvaluator(probability: 0.9)
        let forced = try evaluator.evaluate(paymentRequest(), principal: principal, overrides: SandboxOverrides(insightError: .insightEvaluationFailed), now: 0)
        #expect(forced.insights.allSatisfy { $0.outcome == .error(.insightEvaluationFailed) })
        #expect(recorder.records.withLock { $0.count == 1 && $0[0].countsAsHighOutcome })
    }

    /// While start-up replays stored evaluations, counts would be too low and rules would not fire: no answer
    /// (notAvailable, which clients retry) rather than a wrong one, and nothing recorded. Bad input still hears
    /// what is wrong with it.
    @Test func anEvaluationBeforeTheVelocityReplayHasFinishedIsNotAvailable() throws {
        let tracker = VelocityTracker(configuration: .standard, awaitingReplay: true)
        let (evaluator, _) = try makeEvaluator(tracker: tracker)
        #expect(throws: EvaluationError.notAvailable) { try evaluator.evaluate(paymentRequest(), principal: principal, now: 0) }
        #expect(recorder.records.withLock { $0.isEmpty })
        #expect(tracker.trackedAccounts == 0)
        var invalid = paymentRequest()
        invalid.subject.accountRef = nil
        do {
            _ = try evaluator.evaluate(invalid, principal: principal, now: 0)
            Issue.record("an invalid request was evaluated")
        } catch {
            guard case .contextInvalid = error else { Issue.record("expected contextInvalid, got \(error)"); return }
        }
        tracker.finishRestoring()
        _ = try evaluator.evaluate(paymentRequest(), principal: principal, now: 0)
        #expect(recorder.records.withLock { $0.count } == 1)
    }

    @Test func storageFailureIsAServerError() throws {
        let (evaluator, _) = try makeEvaluator()
        recorder.failing.store(true, ordering: .relaxed)
        #expect(throws: EvaluationError.serverError) { try evaluator.evaluate(paymentRequest(), principal: principal, now: 0) }
    }

    @Test func identifiersAreUUIDShapedAndDistinct() {
        let random = RandomReserve()
        let ids = (0..<100).map { _ in Identifier.make(at: Clock.nowMilliseconds(), random: random) }
        #expect(Set(ids).count == 100)
        #expect(ids.allSatisfy(Identifier.isWellFormed))
        #expect(!Identifier.isWellFormed("not-an-id"))
        #expect(!Identifier.isWellFormed("0190f1c2-7a3b-7c4d-8e5f-60718293a4b5X"))
        #expect(!Identifier.isWellFormed("0190F1C2-7A3B-7C4D-8E5F-60718293A4B5"))
    }

    @Test func identifiersAreVersion7AndOrderedByTheirMillisecond() {
        let earlier = Identifier.make(at: 1_763_700_000_000, random: RandomReserve())
        let later = Identifier.make(at: 1_763_700_000_001, random: RandomReserve())
        #expect(earlier < later)
        #expect(Array(earlier.utf8)[14] == UInt8(ascii: "7"))
        #expect("89ab".utf8.contains(Array(earlier.utf8)[19]))
        #expect(Identifier.milliseconds(of: earlier) == 1_763_700_000_000)
        #expect(Identifier.milliseconds(of: "not-an-id") == nil)
    }

    /// The store finds an insight through its evaluation's row: an evaluation's identifier ends in 0, its insights'
    /// differ from it in the last digit only, which is the position plus one.
    @Test func insightIdentifiersAreDerivedFromTheirEvaluations() throws {
        let random = RandomReserve()
        let evaluations = (0..<50).map { _ in Identifier.evaluation(at: 1_795_000_000_000, random: random) }
        #expect(Set(evaluations).count == 50)
        for evaluation in evaluations {
            #expect(Identifier.isWellFormed(evaluation) && evaluation.hasSuffix("0"))
            #expect(Identifier.milliseconds(of: evaluation) == 1_795_000_000_000)
            for position in 0..<Identifier.maximumDerivedInsights {
                let insight = Identifier.insight(ofEvaluation: evaluation, position: position)
                #expect(Identifier.isWellFormed(insight))
                #expect(insight.dropLast() == evaluation.dropLast())
                #expect(insight.last == Character(String(position + 1)))
                #expect(Identifier.isInsight(insight, ofEvaluation: evaluation, position: position))
                #expect(!Identifier.isInsight(insight, ofEvaluation: evaluation, position: (position + 1) % 8))
            }
            let first = Identifier.insight(ofEvaluation: evaluation, position: 0)
            #expect(!Identifier.isInsight(first, ofEvaluation: evaluation, position: 8))
            #expect(!Identifier.isInsight(first, ofEvaluation: evaluation, position: -1))
            #expect(!Identifier.isInsight(first + "1", ofEvaluation: evaluation, position: 0))
            #expect(!Identifier.isInsight(String(first.dropLast()), ofEvaluation: evaluation, position: 0))
            #expect(!Identifier.isInsight(first, ofEvaluation: String(evaluation.dropLast()), position: 0))
            #expect(!Identifier.isInsight(first, ofEvaluation: evaluation + "0", position: 0))
            // A difference anywhere before the last digit is another evaluation's insight.
            var other = Array(first.utf8)
            other[0] = other[0] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
            #expect(!Identifier.isInsight(String(decoding: other, as: UTF8.self), ofEvaluation: evaluation, position: 0))
        }

        let (evaluator, _) = try makeEvaluator()
        let result = try evaluator.evaluate(paymentRequest(), principal: principal, now: 1_795_000_000_000)
        #expect(result.evaluationID.hasSuffix("0"))
        #expect(result.insights.enumerated().allSatisfy { position, insight in
            insight.insightID == Identifier.insight(ofEvaluation: result.evaluationID, position: position)
        })
        let recorded = try #require(recorder.records.withLock { $0.last })
        #expect(recorded.insights.map(\.insightID) == result.insights.map(\.insightID))
    }
}

@Suite struct PendingWriteTests {
    @Test func settlesOnceAndTellsEveryWaiterWhereverTheyRegistered() {
        let pending = PendingWrite()
        let seen = Mutex<[Bool]>([])
        pending.whenFulfilled { ok in seen.withLock { $0.append(ok) } }
        #expect(seen.withLock { $0 }.isEmpty)
        pending.fulfil(true)
        pending.fulfil(false)
        pending.whenFulfilled { ok in seen.withLock { $0.append(ok) } }
        #expect(seen.withLock { $0 } == [true, true])
        #expect(pending.wait())
    }

    @Test func waitReturnsWhenAnotherThreadSettles() {
        let pending = PendingWrite()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { pending.fulfil(false) }
        #expect(pending.wait() == false)
    }
}
