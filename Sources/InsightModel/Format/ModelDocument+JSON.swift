import FoundationEssentials

extension ModelDocument {
    /// Decodes a document; shape errors only (an unknown member included), named by their path. Call
    /// `ModelValidator` before scoring with it.
    public init(jsonData: Data) throws(JSONShapeError) {
        let tree = try JSONDocumentPreCheck.parse(jsonData)
        do {
            self = try ModelDocument(tree: tree)
        } catch {
            // A number out of range is named before any other problem, as `JSONDocumentPreCheck.check` does. The
            // walk over every number is needed only now: a document that decodes has had each of its numbers read
            // by the same rule (a whole number where `holdsWholeNumber`, else a finite double).
            try JSONDocumentPreCheck.checkNumbers(in: tree, wholeNumberAt: Self.holdsWholeNumber)
            throw error
        }
    }

    /// The members decoded as `Int`: `formatVersion`, `sumDivisor`, a tree's child and feature indices, and the
    /// held-out row counts.
    static func holdsWholeNumber(_ path: [JSONDocumentPreCheck.Step]) -> Bool {
        switch path.first {
        case .member("formatVersion"), .member("sumDivisor"): return path.count == 1
        case .member("trees"):
            guard path.count == 4, case .member(let name) = path[2] else { return false }
            return name == "leftChildren" || name == "rightChildren" || name == "splitFeatures"
        case .member("metadata"):
            return path.count == 3 && path[1] == .member("heldOutMetrics") && (path[2] == .member("rows") || path[2] == .member("positives"))
        default: return false
        }
    }

    /// Deterministic JSON (sorted keys), so the same model always produces the same bytes.
    public func jsonData(prettyPrinted: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = prettyPrinted ? [.sortedKeys, .prettyPrinted] : [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = Self.nonFiniteStrategy.encoding
        return try encoder.encode(self)
    }
}

extension ModelDocument {
    /// JSON has no infinities; LightGBM's `+inf` thresholds are written as the string "inf" (NaN and -inf are
    /// refused by validation but still decode, so the error names the node).
    static let nonFiniteStrategy = (
        encoding: JSONEncoder.NonConformingFloatEncodingStrategy.convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan"),
        decoding: JSONDecoder.NonConformingFloatDecodingStrategy.convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    )
}
