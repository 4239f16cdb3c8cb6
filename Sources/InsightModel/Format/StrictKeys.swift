/// Any member name of a JSON object, so names a type does not know can be listed.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// JSONDecoder ignores members a type does not declare, so a misspelt optional key (`missingtypes`) silently
/// means "absent" and changes what a model scores. Our documents refuse them instead.
enum StrictKeys {
    /// The `debugDescription` of the error thrown for an unknown member (`JSONShapeError` reads it back).
    static let unknownKey = "unknown key"
}

extension Decoder {
    /// Throws `DecodingError.dataCorrupted` at the path of the first member of this object that is not one of
    /// `keys` (the first by name: the decoder does not keep the order of the file).
    func refuseUnknownKeys<Keys: CodingKey & CaseIterable>(besides keys: Keys.Type) throws {
        let known = Set(Keys.allCases.map(\.stringValue))
        let container = try container(keyedBy: AnyCodingKey.self)
        let unknown = container.allKeys.map(\.stringValue).filter { !known.contains($0) }.sorted()
        if let first = unknown.first {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: codingPath + [AnyCodingKey(stringValue: first)], debugDescription: StrictKeys.unknownKey))
        }
    }
}
