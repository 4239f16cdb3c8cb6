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
        // By index, not `for field in storage`: the iterator copies each (name, value) pair out, a retain and a
        // release of both strings per field visited, on every lookup of every request.
        for index in storage.indices where storage[index].name.equalsIgnoringASCIICase(name) {
            return storage[index].value
        }
        return nil
    }

    /// Whether any field's name starts with `prefix` (ASCII case-insensitive): one pass that lets a caller skip
    /// several lookups for a family of fields that requests rarely carry.
    public func containsName(withPrefix prefix: String) -> Bool {
        let length = prefix.utf8.count
        for index in storage.indices where storage[index].name.utf8.count >= length {
            if storage[index].name.utf8.prefix(length).elementsEqual(prefix.utf8, by: UInt8.equalsIgnoringASCIICase) {
                return true
            }
        }
        return false
    }

    /// How many field lines are called `name`. A field defined as a single value (Authorization, say) sent on
    /// two lines has no one meaning: RFC 9110 section 5.3 reads them as one comma-joined value.
    public func count(of name: String) -> Int {
        var count = 0
        for index in storage.indices where storage[index].name.equalsIgnoringASCIICase(name) { count += 1 }
        return count
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
