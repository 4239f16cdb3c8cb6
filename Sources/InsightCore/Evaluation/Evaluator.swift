import InsightCrypto

/// Evaluates one operation: checks the context against the category's catalogue, honours the person's choice,
/// derives velocity counters, scores every requested insight with its model, lets velocity rules raise (never
/// lower) each outcome, and hands the evaluation's record to storage.
public final class Evaluator: Sendable {
    public struct Dependencies: Sendable {
        public var catalogue: FeatureCatalogue
        public var models: any ModelProvider
        public var velocity: VelocityTracker
        public var hasher: SubjectHasher
        public var authorizations: AuthorizationRegistry
        public var recorder: any EvaluationRecorder
        /// Device and insight-type limits; nil admits everything (tools, tests).
        public var admission: AdmissionControl?
        /// Feature names per insight reported as reason codes.
        public var maximumReasonFeatures: Int
        /// The random bits of evaluation and insight identifiers.
        public var random: RandomReserve

        public init(
            catalogue: FeatureCatalogue, models: any ModelProvider, velocity: VelocityTracker, hasher: SubjectHasher,
            authorizations: AuthorizationRegistry, recorder: any EvaluationRecorder, admission: AdmissionControl? = nil,
            maximumReasonFeatures: Int = 3, random: RandomReserve = RandomReserve()
        ) {
            self.random = random
            self.admission = admission
            self.catalogue = catalogue
            self.models = models
            self.velocity = velocity
            self.hasher = hasher
            self.authorizations = authorizations
            self.recorder = recorder
            self.maximumReasonFeatures = maximumReasonFeatures
        }
    }

    /// Also the most insights an evaluation's identifier can number (`Identifier.maximumDerivedInsights`).
    public static let maximumInsights = Identifier.maximumDerivedInsights

    /// The feature names clients send, for decoders that read them often.
    public var clientFeatureNames: [String] { dependencies.catalogue.clientFeatureNames }

    private let dependencies: Dependencies
    /// Per category, where each velocity counter lands in the feature vector (nil: the category does not use it).
    private let computedSlots: [OperationCategory: [Int?]]
    /// Per category, the slots of the counters of the account's own high outcomes: the history a model's `high`
    /// must not rest on alone to count as a new one.
    private let highHistorySlots: [OperationCategory: [Int]]

    public init(_ dependencies: Dependencies) {
        self.dependencies = dependencies
        var slots: [OperationCategory: [Int?]] = [:]
        var historySlots: [OperationCategory: [Int]] = [:]
        let counters = dependencies.velocity.configuration.counters
        for category in OperationCategory.allCases {
            let catalogue = dependencies.catalogue.catalogue(for: category)
            let categorySlots = counters.map { counter in
                catalogue.features.firstIndex { $0.name == counter.name && $0.source == .computed }
            }
            slots[category] = categorySlots
            historySlots[category] = zip(counters, categorySlots).compactMap { counter, slot in
                counter.kind == .highOutcomesPerAccount ? slot : nil
            }
        }
        self.computedSlots = slots
        self.highHistorySlots = historySlots
    }

    /// An evaluation whose answer is ready but whose record may not be durable yet.
    public struct Pending: Sendable {
        public var result: EvaluationResult
        /// The answer may leave only once this has succeeded.
        public let durability: PendingWrite
    }

    /// The problems with a request's subject refs and features under its category's catalogue, all of them; the
    /// request decoder names them too when other parts of the body are wrong, so that one answer lists everything.
    public func contextViolations(
        _ category: OperationCategory, subject: SubjectReferences, features: [(name: String, value: FeatureInput)]
    ) -> [ContextViolation] {
        let catalogue = dependencies.catalogue.catalogue(for: category)
        guard case .failure(let failure) = Self.checkContext(category, catalogue: catalogue, subject: subject, features: features) else {
            return []
        }
        return failure.violations
    }

    private struct ContextFailure: Error {
        var violations: [ContextViolation]
    }

    private static func checkContext(
        _ category: OperationCategory, catalogue: CategoryCatalogue, subject: SubjectReferences,
        features: [(name: String, value: FeatureInput)]
    ) -> Result<FeatureVector, ContextFailure> {
        var violations: [ContextViolation] = []
        for kind in catalogue.missingSubjectRefs(in: subject) {
            violations.append(ContextViolation(
                pointer: "/subject/\(kind.rawValue)", code: "missingRequired",
                detail: "is required for the \(category.rawValue) category"))
        }
        for kind in catalogue.unusedSubjectRefs(in: subject) {
            violations.append(ContextViolation(
                pointer: "/subject/\(kind.rawValue)", code: "notAllowed",
                detail: "is not used by the \(category.rawValue) category"))
        }
        switch catalogue.validate(features) {
        case .success(let vector):
            return violations.isEmpty ? .success(vector) : .failure(ContextFailure(violations: violations))
        case .failure(let failure):
            violations.append(contentsOf: failure.violations.map(ContextViolation.init))
            return .failure(ContextFailure(violations: violations))
        }
    }

    /// Evaluates and waits until the record is durable; `start` is the same without the wait.
    public func evaluate(
        _ request: EvaluationRequest, principal: Principal, overrides: SandboxOverrides = SandboxOverrides(), now: Int64
    ) throws(EvaluationError) -> EvaluationResult {
        let pending = try start(request, principal: principal, overrides: overrides, now: now)
        guard pending.durability.wait() else { throw .serverError }
        return pending.result
    }

    /// Evaluates and hands the record to storage without waiting for it: the caller must not let the answer out
    /// before `durability` has succeeded.
    public func start(
        _ request: EvaluationRequest, principal: Principal, overrides: SandboxOverrides = SandboxOverrides(), now: Int64
    ) throws(EvaluationError) -> Pending {
        if let forced = overrides.evaluationError { throw Self.error(forcing: forced) }

        // 1. Context: insights, subject refs and features, with every problem reported at once.
        let catalogue = dependencies.catalogue.catalogue(for: request.category)
        var violations: [ContextViolation] = []
        if request.insights.isEmpty || request.insights.count > Self.maximumInsights {
            violations.append(ContextViolation(
                pointer: "/requestedInsights", code: "invalidCount",
                detail: "must hold 1 to \(Self.maximumInsights) insight requests"))
        }
        var features: FeatureVector
        switch Self.checkContext(request.category, catalogue: catalogue, subject: request.subject, features: request.features) {
        case .success(let vector):
            features = vector
        case .failure(let failure):
            violations.append(contentsOf: failure.violations)
            features = catalogue.emptyVector()
        }
        if !violations.isEmpty { throw .contextInvalid(violations) }

        // 2. Subjects, as keyed hashes only.
        let account: SubjectKey?
        let device: SubjectKey?
        let counterparty: SubjectKey?
        do {
            account = try hash(request.subject.accountRef, .accountRef, principal)
            device = try hash(request.subject.deviceRef, .deviceRef, principal)
            counterparty = try hash(request.subject.counterpartyRef, .counterpartyRef, principal)
        } catch {
            throw .serverError
        }

        // Velocity counts are too low until start-up's replay is done: no answer rather than a wrong one, and
        // before the device's rate limit spends a token on it.
        guard dependencies.velocity.isRestored else { throw .notAvailable }

        // 3. The person's choice.
        if let account {
            // Only a subject the opt-out filter may hold reads the store here, and a store that cannot answer must
            // not let an evaluation go ahead against a person's choice.
            let blocked: Bool
            do { blocked = try dependencies.authorizations.blocksEvaluation(tenant: principal.tenant, subject: account, now: now) } catch {
                throw .serverError
            }
            if blocked { throw .denied }
        }
        // 3b. One app on one device may not flood the service (the API's device-level rateLimitExceeded).
        if let device, let admission = dependencies.admission {
            let decision = admission.admitDevice(device, tenant: principal.tenant, now: now)
            if !decision.allowed { throw .rateLimitExceeded(RateLimitRejection(scope: "device", decision: decision)) }
        }
        // 4. Velocity counters feed the model as computed features, and their rules set a floor.
        var counts: VelocityCounts?
        if let account {
            let observed = dependencies.velocity.observe(.init(
                partition: VelocityPartition(tenant: principal.tenant, environment: principal.environment),
                account: account, device: device, counterparty: counterparty, time: now))
            counts = observed
            let slots = computedSlots[request.category] ?? []
            for (index, slot) in slots.enumerated() {
                if let slot { features.setComputed(at: slot, to: Double(observed.values[index])) }
            }
        }
        // The rules are matched to their counters by name: once per evaluation, not once for the floor and again
        // for the reason codes.
        let fired = counts?.firedRules ?? []
        let floor = VelocityCounts.floor(of: fired)
        let firedRules = fired.map(\.name)
        // What makes this evaluation a high outcome for the account's own count: the model and every rule but
        // those over that count.
        let countedFloor = counts.map { counts in VelocityCounts.floor(of: fired.filter { !counts.isOverHighOutcomes($0) }) } ?? .unknown

        // 5. Every requested insight, each with its own outcome or error, and an identifier derived from the
        // evaluation's (the store finds an insight through its evaluation's row).
        let evaluationID = Identifier.evaluation(at: now, random: dependencies.random)
        let snapshot = dependencies.models.currentSnapshot()
        var insights: [InsightResult] = []
        var records: [EvaluationRecord.Insight] = []
        var evaluatedHigh = false
        insights.reserveCapacity(request.insights.count)
        records.reserveCapacity(request.insights.count)
        for (position, insightRequest) in request.insights.enumerated() {
            let result = evaluateInsight(
                insightRequest, insightID: Identifier.insight(ofEvaluation: evaluationID, position: position), features: features,
                snapshot: snapshot, floor: floor, countedFloor: countedFloor, firedRules: firedRules,
                overrides: overrides, principal: principal, now: now, evaluatedHigh: &evaluatedHigh)
            insights.append(result)
            var outcome: RiskLevel?
            var error: InsightErrorCode?
            switch result.outcome {
            case .value(let level): outcome = level
            case .error(let code): error = code
            }
            records.append(.init(
                insightID: result.insightID, position: position, insightType: insightRequest.recordedInsightType,
                modelVersion: result.modelVersion, outcome: outcome, error: error))
        }

        // 6. The record goes to storage; the caller answers once it is durable.
        let record = EvaluationRecord(
            evaluationID: evaluationID, tenant: principal.tenant, environment: principal.environment,
            keyID: principal.keyID, category: request.category, createdAt: now, account: account, device: device,
            counterparty: counterparty, insights: records, countsAsHighOutcome: evaluatedHigh)
        let durability = dependencies.recorder.record(record)
        // Counted now rather than once durable, like the velocity observation above: a failed write then errs
        // towards caution for this account's next evaluations.
        if let account, record.countsAsHighOutcome {
            dependencies.velocity.recordHighOutcome(account: account, at: now)
        }
        let result = EvaluationResult(
            evaluationID: record.evaluationID, requestID: request.requestID, category: request.category,
            generationTimestamp: now, serverTimestamp: now, environment: principal.environment,
            additionalInfo: [("catalogueVersion", catalogue.version)], insights: insights)
        return Pending(result: result, durability: durability)
    }

    private func evaluateInsight(
        _ request: InsightRequest, insightID: String, features: FeatureVector,
        snapshot: any ModelSnapshot, floor: RiskLevel, countedFloor: RiskLevel, firedRules: [String], overrides: SandboxOverrides,
        principal: Principal, now: Int64, evaluatedHigh: inout Bool
    ) -> InsightResult {
        func failure(_ code: InsightErrorCode, version: String? = nil, current: String? = nil) -> InsightResult {
            InsightResult(
                insightID: insightID, insightType: request.insightType, modelVersion: version, newestModelVersion: current,
                isUsingCurrentModel: version != nil && version == current, outcome: .error(code), reasonCodes: [])
        }
        guard request.schema == InsightType.supportedSchema else {
            return failure(.insightVersionIncompatible)
        }
        let model: any ScoringModel
        let current: String?
        switch snapshot.lookup(insightType: request.serviceInsightType, category: features.category, version: request.modelVersion) {
        case .insightUnavailable: return failure(.insightUnavailable)
        case .versionUnavailable(let currentVersion): return failure(.insightVersionUnavailable, current: currentVersion)
        case .versionIncompatible(let currentVersion): return failure(.insightVersionIncompatible, current: currentVersion)
        case .found(let found, let currentVersion):
            model = found
            current = currentVersion
        }
        // Evaluated for real even when an override forces an error: the override changes the answer, not what is
        // counted (a real high still counts towards the account's high outcomes).
        let evaluated = evaluate(
            request, with: model, current: current, insightID: insightID, features: features,
            floor: floor, countedFloor: countedFloor, firedRules: firedRules, overrides: overrides, principal: principal, now: now,
            evaluatedHigh: &evaluatedHigh)
        if let forced = overrides.insightError {
            // The shape production gives the same error: no model was used for the three that find none.
            switch forced {
            case .insightUnavailable: return failure(forced)
            case .insightVersionUnavailable, .insightVersionIncompatible: return failure(forced, current: current)
            case .rateLimitError, .insightEvaluationFailed: return failure(forced, version: model.version, current: current)
            }
        }
        return evaluated
    }

    /// One insight scored by the model it was resolved to, with the velocity floor; sets `evaluatedHigh` when the
    /// result counts as a high outcome.
    private func evaluate(
        _ request: InsightRequest, with model: any ScoringModel, current: String?, insightID: String, features: FeatureVector,
        floor: RiskLevel, countedFloor: RiskLevel, firedRules: [String],
        overrides: SandboxOverrides, principal: Principal, now: Int64, evaluatedHigh: inout Bool
    ) -> InsightResult {
        func failure(_ code: InsightErrorCode) -> InsightResult {
            InsightResult(
                insightID: insightID, insightType: request.insightType, modelVersion: model.version, newestModelVersion: current,
                isUsingCurrentModel: model.version == current, outcome: .error(code), reasonCodes: [])
        }
        if let admission = dependencies.admission, !admission.admitInsight(request.serviceInsightType, tenant: principal.tenant, environment: principal.environment, now: now) {
            return failure(.rateLimitError)
        }
        let probability: Double
        do {
            probability = try model.probability(for: features)
        } catch {
            return failure(.insightEvaluationFailed)
        }
        guard probability.isFinite else { return failure(.insightEvaluationFailed) }
        let scored: RiskLevel = probability >= model.highThreshold ? .high : (probability >= model.mediumThreshold ? .medium : .unknown)
        var level = max(scored, floor)
        // A candidate's high is its answer, not the account's history (`ScoringModel.isCandidate`).
        if !evaluatedHigh && max(scored, countedFloor) == .high && !model.isCandidate {
            evaluatedHigh = countedFloor == .high || isHighWithoutHistory(model, features: features)
        }
        if let forced = overrides.outcome { level = forced }
        var reasons: [String] = []
        // `unknown` never carries reasons, forced or not, so app logic tested in the sandbox sees what production
        // sends; a forced medium or high keeps the real evaluation's reasons (none when it found none).
        if level > .unknown {
            if scored > .unknown { reasons = model.reasonFeatures(for: features, limit: dependencies.maximumReasonFeatures) }
            reasons.append(contentsOf: firedRules)
        }
        return InsightResult(
            insightID: insightID, insightType: request.insightType, modelVersion: model.version, newestModelVersion: current,
            isUsingCurrentModel: model.version == current, outcome: .value(level), reasonCodes: reasons)
    }

    /// Whether `model`, which answered `high` for `features`, still does with the account's high-outcome counts at
    /// 0, as if it had no earlier highs: a model's `high` counts only if it stands without them, for the same reason
    /// as the rule's. Scored again only when some count is above 0; should that scoring fail, the high counts, erring
    /// towards caution as a failed write does.
    private func isHighWithoutHistory(_ model: any ScoringModel, features: FeatureVector) -> Bool {
        let historySlots = highHistorySlots[features.category] ?? []
        guard historySlots.contains(where: { features[$0] > 0 }) else { return true }
        var withoutHistory = features
        for slot in historySlots { withoutHistory.setComputed(at: slot, to: 0) }
        guard let again = try? model.probability(for: withoutHistory), again.isFinite else { return true }
        return again >= model.highThreshold
    }

    private func hash(_ ref: String?, _ kind: SubjectRefKind, _ principal: Principal) throws -> SubjectKey? {
        guard let ref else { return nil }
        return try dependencies.hasher.key(for: ref, kind: kind, tenant: principal.tenant, environment: principal.environment)
    }

    private static func error(forcing forced: ForcedEvaluationError) -> EvaluationError {
        switch forced {
        case .contextInvalid: .contextInvalid([ContextViolation(pointer: "", code: "sandboxOverride", detail: "is refused because a sandbox override forced contextInvalid")])
        case .denied: .denied
        case .rateLimitExceeded:
            .rateLimitExceeded(RateLimitRejection(
                scope: "sandboxOverride", limit: RateLimit(ratePerSecond: 1, burst: 1), retryAfterSeconds: 1, resetSeconds: 1))
        case .serverError: .serverError
        case .notAvailable: .notAvailable
        }
    }
}
