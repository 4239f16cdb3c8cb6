import FoundationEssentials

extension ModelDocument {
    /// Decodes a document; shape errors only. Call `ModelValidator` before scoring with it.
    public init(jsonData: Data) throws {
        self = try JSONDecoder().decode(ModelDocument.self, from: jsonData)
    }

    /// Deterministic JSON (sorted keys), so the same model always produces the same bytes.
    public func jsonData(prettyPrinted: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = prettyPrinted ? [.sortedKeys, .prettyPrinted] : [.sortedKeys]
        return try encoder.encode(self)
    }
}
