/// Appends JSON to a byte buffer without an intermediate tree. The caller writes keys in a fixed order, so output is
/// deterministic (what is signed must be byte-stable).
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8]
    private var needsComma = false

    public init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes a member key; the next call writes its value.
    public mutating func key(_ name: String) {
        separate()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ value: String) {
        separate()
        appendString(value)
        needsComma = true
    }

    public mutating func int(_ value: Int) {
        separate()
        appendInteger(value)
        needsComma = true
    }

    /// Writes a finite Double in Swift's shortest round-trip form; non-finite values become null, as JSON has none.
    /// True for a finite whole value that `double` writes as an integer (`0`, `1`, `42`), without the `.0` of Swift's
    /// description; other writers of the same figures (CSV) follow it, so that every format of an answer reads alike.
    public static func writesAsInteger(_ value: Double) -> Bool {
        value.isFinite && value == value.rounded(.towardZero) && abs(value) < 1e15
    }

    public mutating func double(_ value: Double) {
        separate()
        if !value.isFinite {
            appendASCII("null")
        } else if Self.writesAsInteger(value) {
            appendInteger(Int(value))
        } else {
            appendASCII(value.description)
        }
        needsComma = true
    }

    public mutating func bool(_ value: Bool) {
        separate()
        appendASCII(value ? "true" : "false")
        needsComma = true
    }

    public mutating func null() {
        separate()
        appendASCII("null")
        needsComma = true
    }

    /// Inserts bytes that are already a JSON value (e.g. a cached fragment).
    public mutating func raw(_ fragment: [UInt8]) {
        separate()
        bytes.append(contentsOf: fragment)
        needsComma = true
    }

    // Convenience for object members.
    public mutating func member(_ name: String, _ value: String) { key(name); string(value) }
    public mutating func member(_ name: String, _ value: Int) { key(name); int(value) }
    public mutating func member(_ name: String, _ value: Double) { key(name); double(value) }
    public mutating func member(_ name: String, _ value: Bool) { key(name); bool(value) }
    public mutating func member(_ name: String, _ value: String?) {
        key(name)
        if let value { string(value) } else { null() }
    }

    @inline(__always)
    mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// After a value written outside the methods above: the next one needs a comma.
    mutating func valueWritten() {
        needsComma = true
    }

    /// Grows the output by `count` bytes and lets `fill` write all of them: for encodings that know their length
    /// up front, written in place instead of through an intermediate string.
    mutating func appendPlaceholder(count: Int, _ fill: (UnsafeMutableBufferPointer<UInt8>) -> Void) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: count))
        bytes.withUnsafeMutableBufferPointer { fill(UnsafeMutableBufferPointer(rebasing: $0[start...])) }
    }

    private mutating func appendASCII(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func appendInteger(_ value: Int) {
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                buffer[19 - count] = UInt8(48 + magnitude % 10)
                magnitude /= 10
                count += 1
            }
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }

    private mutating func appendString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        // Identifiers, timestamps and names need no escaping: copy them whole (this is most of every response).
        // Scanned and copied in one visit to contiguous storage: the generic UTF-8 view cost more than the copy,
        // and going through it twice (once to scan, once to append) retained and released the string each time.
        let copied = value.utf8.withContiguousStorageIfAvailable { utf8 in
            if StringBytesScan.containsByteNeedingAttention(utf8) { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copied == true {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        // Escaped exactly as RFC 8785 (JCS) serialises strings, so the signed payload is JCS-canonical: the two-letter
        // forms where JSON has one, `\u00xx` (lowercase) for the other controls, everything else as it is.
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(0x5C); bytes.append(byte)
            case UInt8(ascii: "\\"): bytes.append(0x5C); bytes.append(byte)
            case 0x0A: bytes.append(0x5C); bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(0x5C); bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(0x5C); bytes.append(UInt8(ascii: "t"))
            case 0x08: bytes.append(0x5C); bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(0x5C); bytes.append(UInt8(ascii: "f"))
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
