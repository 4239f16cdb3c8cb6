import HTTPServer
import InsightCore
import JSONStream

/// Structured operator logs: one JSON object per line on the same sink as the access log. Callers pass only
/// names, counts and reasons, never feature values, subject refs or secrets.
struct EventLog: Sendable {
    /// A field's value: counts and flags are written as JSON numbers and booleans, as the access log writes its
    /// own, so a log pipeline can compare and sum them without parsing text.
    enum Value: ExpressibleByStringInterpolation, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
        case text(String)
        case number(Int)
        case flag(Bool)
        /// Names that may hold commas (file names) as a JSON array, which a log pipeline can split.
        case list([String])

        init(stringLiteral value: String) { self = .text(value) }
        init(integerLiteral value: Int) { self = .number(value) }
        init(booleanLiteral value: Bool) { self = .flag(value) }
    }

    let sink: any LogSink

    func info(_ event: String, _ fields: [(String, Value)] = []) { write("info", event, fields) }
    func warning(_ event: String, _ fields: [(String, Value)] = []) { write("warning", event, fields) }
    func error(_ event: String, _ fields: [(String, Value)] = []) { write("error", event, fields) }

    /// `names` under `key`, the first `limit` of them, and how many more under `<key>NotListed`: a folder of
    /// thousands of stray files is one readable line.
    static func listed(_ key: String, _ names: [String], limit: Int = 10) -> [(String, Value)] {
        [(key, .list(Array(names.prefix(limit))))] + (names.count > limit ? [(key + "NotListed", .number(names.count - limit))] : [])
    }

    private func write(_ level: String, _ event: String, _ fields: [(String, Value)]) {
        var writer = JSONWriter(capacity: 160)
        writer.beginObject()
        writer.member("time", Timestamp.iso8601(milliseconds: Clock.nowMilliseconds()))
        writer.member("level", level)
        writer.member("event", event)
        for (key, value) in fields {
            switch value {
            case .text(let text): writer.member(key, text)
            case .number(let number): writer.member(key, number)
            case .flag(let flag): writer.member(key, flag)
            case .list(let names):
                writer.key(key)
                writer.beginArray()
                for name in names { writer.string(name) }
                writer.endArray()
            }
        }
        writer.endObject()
        sink.write(line: String(decoding: Self.escapingUnicodeLineBreaks(writer.bytes), as: UTF8.self))
    }

    /// U+2028, U+2029 and U+0085 as JSON escapes (`\u2028`). JSON allows them raw, but a reader that splits lines on
    /// every Unicode line break (Python's `splitlines`) cuts the line there, and a value quoted from a file (a
    /// configuration path) could then start a line of its own choosing (final probe, 6 December). Outside strings a
    /// JSON line is ASCII, so their UTF-8 bytes can only be inside one.
    static func escapingUnicodeLineBreaks(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(where: { $0 == 0xE2 || $0 == 0xC2 }) else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 12)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80, bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 {
                out.append(contentsOf: Array((bytes[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8))
                index += 3
            } else if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0x85 {
                out.append(contentsOf: Array("\\u0085".utf8))
                index += 2
            } else {
                out.append(byte)
                index += 1
            }
        }
        return out
    }
}
