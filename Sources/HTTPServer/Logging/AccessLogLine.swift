/// One access-log record. Holds only what may be logged: never a body, a query, or a header value other
/// than the request ID and the identity the application's `AccessLogIdentity` reads; the route is the template,
/// never the raw path.
struct AccessLogLine {
    var requestID: String
    var method: String
    var route: String
    var status: Int
    var durationNanoseconds: UInt64
    var bytes: Int
    /// Answered as the client asked it to be simulated (`HTTPResponse.isSimulated`).
    var simulated = false
    /// The connection closed before the answer could be sent (`ConnectionSession.noteAbandonedHeld`).
    var clientGone = false
    /// From `AccessLogIdentity`, when the server has one and the request names an identity.
    var identity: (field: String, value: String)? = nil

    func render(time: String = UTCTimestamp.iso8601()) -> String {
        let millis = Double(durationNanoseconds / 1000) / 1000
        return #"{"time":"\#(time)","level":"info","event":"request","requestID":"\#(JSONText.escape(requestID))","#
            + #""method":"\#(JSONText.escape(loggedMethod))","route":"\#(JSONText.escape(route))","#
            + identityMember
            + (simulated ? #""simulated":true,"# : "")
            + (clientGone ? #""clientGone":true,"# : "")
            + #""status":\#(status),"durationMs":\#(millis),"bytes":\#(bytes)}"#
    }

    /// Longest method logged whole: an unknown method (answered 501) is any token up to the request line's limit,
    /// and an unauthenticated client should not write kilobytes of its choosing into every log line.
    static let maximumLoggedMethodLength = 24

    /// Longest method logged whatever its letters: longer ones with a lower-case letter are not shown.
    static let maximumMixedCaseMethodLength = 8

    /// Methods are upper case by convention (RFC 9110 §9.1); a long one with lower-case letters is more likely a
    /// key's random part sent in the wrong place than a method, and 24 of its characters were logged (security
    /// probe, 6 December). Short ones (`get`, `Post`) are kept: typos worth seeing, too short to give a key away.
    static let hiddenMethod = "(not shown)"

    private var loggedMethod: String {
        if method.utf8.count > Self.maximumMixedCaseMethodLength, method.utf8.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) {
            return Self.hiddenMethod
        }
        guard method.utf8.count > Self.maximumLoggedMethodLength else { return method }
        return String(method.utf8.prefix(Self.maximumLoggedMethodLength).map { Character(Unicode.Scalar($0)) }) + "..."
    }

    private var identityMember: String {
        guard let identity else { return "" }
        return #""\#(JSONText.escape(identity.field))":"\#(JSONText.escape(identity.value))","#
    }
}

enum JSONText {
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            return text
        }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
