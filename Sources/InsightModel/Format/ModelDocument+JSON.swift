import FoundationEssentials

extension ModelDocument {
    /// Decodes a document; shape errors only (an unknown member included), named by their path. Call
    /// `ModelValidator` before scoring with it.
    public init(jsonData: Data) throws(JSONShapeError) {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = Self.nonFiniteStrategy.decoding
        do {
            self = try decoder.decode(ModelDocument.self, from: jsonData)
        } catch let error as DecodingError {
            throw JSONShapeError(error)
        } catch {
            throw JSONShapeError(path: "", problem: .notJSON)
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
