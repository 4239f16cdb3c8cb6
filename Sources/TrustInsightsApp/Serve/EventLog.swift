import HTTPServer
import InsightCore
import JSONStream

/// Structured operator logs: one JSON object per line on the same sink as the access log. Callers pass only
/// names, counts and reasons, never feature values, subject refs or secrets.
struct EventLog: Sendable {
    let sink: any LogSink

    func info(_ event: String, _ fields: [(String, String)] = []) { write("info", event, fields) }
    func warning(_ event: String, _ fields: [(String, String)] = []) { write("warning", event, fields) }
    func error(_ event: String, _ fields: [(String, String)] = []) { write("error", event, fields) }

    private func write(_ level: String, _ event: String, _ fields: [(String, String)]) {
        var writer = JSONWriter(capacity: 160)
        writer.beginObject()
        writer.member("time", Timestamp.iso8601(milliseconds: Clock.nowMilliseconds()))
        writer.member("level", level)
        writer.member("event", event)
        for (key, value) in fields { writer.member(key, value) }
        writer.endObject()
        sink.write(line: String(decoding: writer.bytes, as: UTF8.self))
    }
}
