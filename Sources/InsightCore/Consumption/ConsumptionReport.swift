/// What an app reports about one evaluation, as decoded from the request.
public struct ConsumptionReport: Sendable, Equatable {
    public var status: ConsumptionStatus
    public var insightIDsUsed: [String]

    public init(status: ConsumptionStatus, insightIDsUsed: [String]) {
        self.status = status
        self.insightIDsUsed = insightIDsUsed
    }

    /// The same report, whatever the order of the insight IDs: what makes a repeat idempotent.
    public func isSameReport(as other: ConsumptionReport) -> Bool {
        status == other.status && Set(insightIDsUsed) == Set(other.insightIDsUsed)
    }
}

/// The one stored report of an evaluation.
public struct ConsumptionRecord: Sendable, Equatable {
    public var evaluationID: String
    public var tenant: TenantID
    public var report: ConsumptionReport
    public var receivedAt: Int64
    /// Received after the configured deadline (counted from the evaluation's creation).
    public var late: Bool

    public init(evaluationID: String, tenant: TenantID, report: ConsumptionReport, receivedAt: Int64, late: Bool) {
        self.evaluationID = evaluationID
        self.tenant = tenant
        self.report = report
        self.receivedAt = receivedAt
        self.late = late
    }
}

/// The answer to a report: the first one stored, or a repeat of the same report answered as before.
public enum ConsumptionOutcome: Sendable, Equatable {
    case recorded(ConsumptionRecord)
    case repeated(ConsumptionRecord)

    public var record: ConsumptionRecord {
        switch self {
        case .recorded(let record), .repeated(let record): record
        }
    }
}
