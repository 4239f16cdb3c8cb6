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

    public func submit(
        _ report: ConsumptionReport, evaluationID: String, tenant: TenantID, now: Int64
    ) throws(ConsumptionError) -> ConsumptionOutcome {
        // Malformed IDs get the same answer as unknown ones; only the shape is filtered, never another tenant.
        guard Identifier.isWellFormed(evaluationID) else { throw .evaluationNotFound }
        let target: ConsumptionTarget?
        do {
            target = try store.consumptionTarget(evaluationID: evaluationID, tenant: tenant)
        } catch {
            throw .storageFailed
        }
        guard let target else { throw .evaluationNotFound }
        let violations = Self.violations(of: report, insightIDs: target.insightIDs)
        guard violations.isEmpty else { throw .invalid(violations) }
        if let existing = target.existing { return try Self.answer(report, existing: existing) }
        let record = ConsumptionRecord(
            evaluationID: evaluationID, tenant: tenant, report: report, receivedAt: now,
            late: now - target.createdAt > deadlineMilliseconds)
        let stored: ConsumptionRecord
        do {
            stored = try store.recordConsumption(record)
        } catch {
            throw .storageFailed
        }
        // Another request may have stored its report between the read and the write.
        guard stored == record else { return try Self.answer(report, existing: stored) }
        compliance?.noteReport(keyID: target.keyID, evaluationCreatedAt: target.createdAt, late: record.late)
        return .recorded(stored)
    }

    static func answer(_ report: ConsumptionReport, existing: ConsumptionRecord) throws(ConsumptionError) -> ConsumptionOutcome {
        guard report.isSameReport(as: existing.report) else { throw .conflict }
        return .repeated(existing)
    }

    /// Each used insight must be one of the evaluation's, named once; pointers only, never the IDs sent.
    static func violations(of report: ConsumptionReport, insightIDs: [String]) -> [ContextViolation] {
        let known = Set(insightIDs)
        var seen = Set<String>()
        var violations: [ContextViolation] = []
        for (index, insightID) in report.insightIDsUsed.enumerated() {
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
