/// Header or trailer fields in the order received; names compare case-insensitively (RFC 9110 §5.1).
public struct HTTPFields: Sendable, Sequence, Equatable, ExpressibleByDictionaryLiteral {
    public typealias Element = (name: String, value: String)

    private var storage: [Element]

    public init() {
        storage = []
    }

    public init(_ fields: [(name: String, value: String)]) {
        storage = fields
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        storage = elements.map { (name: $0.0, value: $0.1) }
    }

    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.isEmpty }

    /// The first value of the field called `name`.
    public subscript(name: String) -> String? {
        for field in storage where field.name.equalsIgnoringASCIICase(name) {
            return field.value
        }
        return nil
    }

    public func values(for name: String) -> [String] {
        storage.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    public mutating func append(name: String, value: String) {
        storage.append((name: name, value: value))
    }

    /// Replaces every field called `name` with one field holding `value`.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        storage.append((name: name, value: value))
    }

    public mutating func remove(_ name: String) {
        storage.removeAll { $0.name.equalsIgnoringASCIICase(name) }
    }

    mutating func reserveCapacity(_ capacity: Int) {
        storage.reserveCapacity(capacity)
    }

    public func makeIterator() -> IndexingIterator<[Element]> {
        storage.makeIterator()
    }

    public static func == (lhs: HTTPFields, rhs: HTTPFields) -> Bool {
        lhs.storage.count == rhs.storage.count
            && zip(lhs.storage, rhs.storage).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}
