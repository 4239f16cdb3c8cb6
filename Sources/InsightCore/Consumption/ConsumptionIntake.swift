/// The rules of consumption reports: exactly one per evaluation, naming only that evaluation's insights; a repeat of
/// the same report is answered as before, a different one is a conflict; late reports are kept and flagged.
public struct ConsumptionIntake: Sendable {
    public static let defaultDeadlineMilliseconds: Int64 = 600_000

    private let store: any ConsumptionStore
    public let deadlineMilliseconds: Int64
    /// Told of every first report, so the evaluating key's compliance follows; nil in tools and tests.
    private let compliance: ComplianceTracker?

    public init(
        store: any ConsumptionStore, deadlineMilliseconds: Int64 = Self.defaultDeadlineMilliseconds, compliance: ComplianceTracker? = nil
    ) {
        self.store = store
        self.deadlineMilliseconds = deadlineMilliseconds
        self.compliance = compliance
    }

    public typealias Answer = Result<ConsumptionOutcome, ConsumptionError>

    /// Checks the report and, if it is the evaluation's first, stores it; the answer arrives once the report is
    /// durable (at once, on this thread, when no write is needed). Only the reporting key's own environment is
    /// visible: a production key reporting on a sandbox evaluation gets the answer for an unknown one.
    public func submit(
        _ report: ConsumptionReport, evaluationID: String, tenant: TenantID, environment: DeploymentEnvironment, now: Int64
    ) -> OneShot<Answer> {
        // Malformed IDs get the same answer as unknown ones; only the shape is filtered, never another tenant.
        guard let evaluationID = Identifier.canonical(evaluationID) else { return OneShot(.failure(.evaluationNotFound)) }
        let target: ConsumptionTarget?
        do {
            target = try store.consumptionTarget(evaluationID: evaluationID, tenant: tenant, environment: environment)
        } catch {
            return OneShot(.failure(.storageFailed))
        }
        guard let target else { return OneShot(.failure(.evaluationNotFound)) }
        let violations = Self.violations(of: report, insightIDs: target.insightIDs)
        guard violations.isEmpty else { return OneShot(.failure(.invalid(violations))) }
        if let existing = target.existing { return OneShot(Self.answer(report, existing: existing)) }
        let record = ConsumptionRecord(
            evaluationID: evaluationID, tenant: tenant, report: report, receivedAt: now,
            late: now - target.createdAt > deadlineMilliseconds)
        let answer = OneShot<Answer>()
        let compliance = self.compliance
        store.recordConsumption(record) { stored in
            switch stored {
            case .failure:
                answer.fulfil(.failure(.storageFailed))
            case .success(.alreadyStored(let stored)):
                // Another request stored its report between the read and the write.
                answer.fulfil(Self.answer(report, existing: stored))
            case .success(.inserted(let stored)):
                compliance?.noteReport(keyID: target.keyID, evaluationCreatedAt: target.createdAt, late: record.late)
                answer.fulfil(.success(.recorded(stored)))
            }
        }
        return answer
    }

    /// What `submit` would say of the insightIDs that could be read (each with its index in `insightIDsUsed`) of a
    /// report whose other members are wrong: none for an evaluation the key cannot see, or when the store cannot
    /// answer (the report's own problems are the answer then).
    public func insightViolations(
        _ items: [(index: Int, id: String)], evaluationID: String, tenant: TenantID, environment: DeploymentEnvironment
    ) -> [ContextViolation] {
        guard !items.isEmpty, let evaluationID = Identifier.canonical(evaluationID),
              let target = try? store.consumptionTarget(evaluationID: evaluationID, tenant: tenant, environment: environment)
        else { return [] }
        return Self.violations(of: items, insightIDs: target.insightIDs)
    }

    static func answer(_ report: ConsumptionReport, existing: ConsumptionRecord) -> Answer {
        guard report.isSameReport(as: existing.report) else { return .failure(.conflict) }
        return .success(.repeated(existing))
    }

    /// Each used insight must be one of the evaluation's, named once; pointers only, never the IDs sent.
    static func violations(of report: ConsumptionReport, insightIDs: [String]) -> [ContextViolation] {
        violations(of: report.insightIDsUsed.enumerated().map { (index: $0.offset, id: $0.element) }, insightIDs: insightIDs)
    }

    static func violations(of items: [(index: Int, id: String)], insightIDs: [String]) -> [ContextViolation] {
        let known = Set(insightIDs)
        var seen = Set<String>()
        var violations: [ContextViolation] = []
        for (index, insightID) in items {
            let pointer = "/insightIDsUsed/\(index)"
            if !known.contains(insightID) {
                violations.append(ContextViolation(pointer: pointer, code: "unknownInsight", detail: "is not an insight of this evaluation"))
            } else if !seen.insert(insightID).inserted {
                violations.append(ContextViolation(pointer: pointer, code: "duplicateInsight", detail: "appears more than once"))
            }
        }
        return violations
    }
}
