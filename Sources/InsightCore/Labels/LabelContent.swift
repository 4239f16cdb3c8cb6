/// One label as the back office states it. Two submissions with equal content are the same label.
public struct LabelContent: Sendable, Equatable {
    public var verdict: LabelVerdict
    public var fraudType: FraudType
    /// The UTC calendar day the operation happened, as `YYYY-MM-DD`.
    public var occurredOn: String
    public var amountBand: AmountBand?

    public init(verdict: LabelVerdict, fraudType: FraudType, occurredOn: String, amountBand: AmountBand?) {
        self.verdict = verdict
        self.fraudType = fraudType
        self.occurredOn = occurredOn
        self.amountBand = amountBand
    }
}

/// One stored version of an insight's label; every accepted or revised submission adds one, the newest counts.
public struct LabelVersion: Sendable, Equatable {
    public var insightID: String
    public var tenant: TenantID
    public var content: LabelContent
    public var receivedAt: Int64

    public init(insightID: String, tenant: TenantID, content: LabelContent, receivedAt: Int64) {
        self.insightID = insightID
        self.tenant = tenant
        self.content = content
        self.receivedAt = receivedAt
    }
}
