/// Renders catalogue numbers (ranges, codes) for messages and documents: integers without a fraction,
/// everything else in Swift's shortest round-trip form. Never used on request values.
enum NumberText {
    static func render(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 9.007_199_254_740_992e15 {
            return String(Int64(value))
        }
        return value.description
    }
}
