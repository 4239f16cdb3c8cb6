/// Printing a feature vector shows its shape, never its values: string interpolation, `print`, `dump` and
/// debuggers all go through these.
extension FeatureVector: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        "FeatureVector(\(layout.category.rawValue), \(storage.count) features, values redacted)"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["category": layout.category.rawValue, "count": storage.count, "values": "redacted"],
            displayStyle: .struct)
    }
}
