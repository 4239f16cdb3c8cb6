/// One item of a label batch as the wire decoder found it: the known fields' text, and the shape problems (unknown,
/// duplicate or mistyped fields) already recorded by pointer. Values of unknown fields are never kept.
public struct LabelDraft: Sendable, Equatable {
    /// The item's JSON Pointer, such as `/items/3`.
    public var pointer: String
    public var insightID: String?
    public var label: String?
    public var fraudType: String?
    public var occurredOn: String?
    public var amountBand: String?
    public var violations: [ContextViolation]
    /// Shape problems beyond `LabelRejection.maximumListed`, counted but not kept: an item of a million unknown
    /// fields must not cost a million strings, nor an answer listing them all.
    public var unlistedViolations = 0
    /// The known fields the item carried, whatever their values: a field whose problem was only counted must not
    /// then be called missing.
    public var sentFields: Fields = []

    /// The fields of a label item, as a set of bits: the decoder marks up to 1,000 items of them.
    public struct Fields: OptionSet, Sendable, Equatable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let insightID = Fields(rawValue: 1)
        public static let label = Fields(rawValue: 2)
        public static let fraudType = Fields(rawValue: 4)
        public static let occurredOn = Fields(rawValue: 8)
        public static let amountBand = Fields(rawValue: 16)
    }

    public init(
        pointer: String, insightID: String? = nil, label: String? = nil, fraudType: String? = nil,
        occurredOn: String? = nil, amountBand: String? = nil, violations: [ContextViolation] = []
    ) {
        self.pointer = pointer
        self.insightID = insightID
        self.label = label
        self.fraudType = fraudType
        self.occurredOn = occurredOn
        self.amountBand = amountBand
        self.violations = violations
    }

    /// Records a shape problem, or only counts it once `LabelRejection.maximumListed` are recorded.
    public mutating func record(_ violation: ContextViolation) {
        if violations.count < LabelRejection.maximumListed { violations.append(violation) } else { unlistedViolations += 1 }
    }
}
