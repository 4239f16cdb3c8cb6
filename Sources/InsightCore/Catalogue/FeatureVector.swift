/// The validated features of one evaluation, in catalogue order, as numbers (NaN = missing).
///
/// A privacy value type: it lives in memory for one request and nothing prints its values (see
/// `FeatureVector+Privacy.swift`). Flags are 0 or 1, bands their integer code.
public struct FeatureVector: Sendable {
    public let layout: FeatureLayout
    @usableFromInline var storage: [Double]

    init(layout: FeatureLayout, storage: [Double]) {
        precondition(storage.count == layout.count, "a feature vector holds one value per catalogue feature")
        self.layout = layout
        self.storage = storage
    }

    public var category: OperationCategory { layout.category }

    /// Number of features (client and computed).
    public var count: Int { storage.count }

    /// The value at a catalogue index; NaN when missing.
    @inlinable
    public subscript(index: Int) -> Double { storage[index] }

    /// The catalogue index of a named feature.
    public func index(of name: String) -> Int? { layout.index(of: name) }

    /// The value of a named feature; nil when the name is unknown or the value is missing.
    public func value(named name: String) -> Double? {
        guard let index = layout.index(of: name) else { return nil }
        let value = storage[index]
        return value.isNaN ? nil : value
    }

    /// Lends the values, in catalogue order, to a scorer without copying them.
    @inlinable
    public func withUnsafeValues<Result>(_ body: (UnsafeBufferPointer<Double>) throws -> Result) rethrows -> Result {
        try storage.withUnsafeBufferPointer(body)
    }
}
