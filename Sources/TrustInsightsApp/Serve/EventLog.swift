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

        init(stringLiteral value: String) { self = .text(value) }
        init(integerLiteral value: Int) { self = .number(value) }
        init(booleanLiteral value: Bool) { self = .flag(value) }
    }

    let sink: any LogSink

    func info(_ event: String, _ fields: [(String, Value)] = []) { write("info", event, fields) }
    func warning(_ event: String, _ fields: [(String, Value)] = []) { write("warning", event, fields) }
    func error(_ event: String, _ fields: [(String, Value)] = []) { write("error", event, fields) }

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
            }
        }
        writer.endObject()
        sink.write(line: String(decoding: writer.bytes, as: UTF8.self))
    }
}
