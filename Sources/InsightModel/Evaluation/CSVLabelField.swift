/// How a feature CSV writes a class label, for `train` and `models score` alike: `0` or `1`, optionally with a
/// decimal point and zeros (`1.0`), spaces around it allowed. A label is a class, not a number that happens to equal
/// one: `0.99999999999`, `0x1`, `1e0`, `+1`, `01` and `-0` are refused, so that a file `train` refuses is not scored
/// with metrics either.
public enum CSVLabelField {
    /// The class `text` writes, or nil if it writes none.
    @inlinable
    public static func binaryLabel(_ text: UnsafeBufferPointer<UInt8>) -> UInt8? {
        var bytes = text[...]
        while bytes.first == UInt8(ascii: " ") { bytes.removeFirst() }
        while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
        guard let first = bytes.popFirst(), first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        if let point = bytes.popFirst() {
            guard point == UInt8(ascii: "."), bytes.allSatisfy({ $0 == UInt8(ascii: "0") }) else { return nil }
        }
        return first - UInt8(ascii: "0")
    }

    /// The class `text` writes, or nil if it writes none.
    public static func binaryLabel(_ text: String) -> UInt8? {
        var text = text
        return text.withUTF8 { binaryLabel($0) }
    }
}
