import JSONStream

/// Appends RFC 4180 CSV to a byte buffer: fields separated by commas, rows ended by CRLF, a field quoted only when
/// it holds a comma, a quote or a line break.
struct CSVWriter {
    private(set) var bytes: [UInt8] = []
    private var rowStarted = false

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func field(_ text: String) {
        separate()
        if text.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }) {
            bytes.append(UInt8(ascii: "\""))
            for byte in text.utf8 {
                if byte == UInt8(ascii: "\"") { bytes.append(byte) }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        } else {
            bytes.append(contentsOf: text.utf8)
        }
    }

    /// A count; nil is an empty field.
    mutating func count(_ value: Int?) {
        separate()
        guard let value else { return }
        if value >= 0 && value < 10 {
            bytes.append(UInt8(48 + value))
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
    }

    /// Written as the JSON answer writes it (`JSONWriter.double`): a whole value without a fraction (`0`, `1`), any
    /// other in Swift's shortest round-trip form, so the two formats of one answer read alike; a non-finite one empty.
    mutating func ratio(_ value: Double?) {
        separate()
        guard let value, value.isFinite else { return }
        if JSONWriter.writesAsInteger(value) {
            bytes.append(contentsOf: String(Int(value)).utf8)
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    mutating func bool(_ value: Bool) { field(value ? "true" : "false") }

    mutating func empty(_ fields: Int = 1) {
        for _ in 0..<fields { separate() }
    }

    mutating func endRow() {
        bytes.append(13)
        bytes.append(10)
        rowStarted = false
    }

    private mutating func separate() {
        if rowStarted { bytes.append(UInt8(ascii: ",")) }
        rowStarted = true
    }
}
