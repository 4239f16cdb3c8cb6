/// Turns a response into header bytes. The server owns the framing fields; handlers' values for them are dropped,
/// and so is any field whose name or value could split the response.
enum ResponseSerializer {
    static let continueLine: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    private static let reservedNames = ["content-length", "transfer-encoding", "connection", "date", "x-request-id"]

    struct Framing {
        var requestID: String
        var keepAlive: Bool
        /// HTTP/1.0 clients need an explicit `Connection: keep-alive` to keep the connection.
        var requestVersion: HTTPVersion
        var isHeadRequest: Bool
    }

    static func head(for response: HTTPResponse, framing: Framing, dateLine: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(160 + response.headers.count * 48)
        append("HTTP/1.1 ", to: &out)
        appendDecimal(response.status.code, to: &out)
        append(" ", to: &out)
        append(response.status.reasonPhrase, to: &out)
        append("\r\n", to: &out)
        out.append(contentsOf: dateLine)
        if !response.status.forbidsContent {
            append("Content-Length: ", to: &out)
            appendDecimal(response.body.count, to: &out)
            append("\r\n", to: &out)
        }
        append("X-Request-ID: ", to: &out)
        append(framing.requestID, to: &out)
        append("\r\n", to: &out)
        if !framing.keepAlive {
            append("Connection: close\r\n", to: &out)
        } else if framing.requestVersion == .http1_0 {
            append("Connection: keep-alive\r\n", to: &out)
        }
        for field in response.headers where isSafe(field) {
            append(field.name, to: &out)
            append(": ", to: &out)
            append(field.value, to: &out)
            append("\r\n", to: &out)
        }
        append("\r\n", to: &out)
        return out
    }

    /// Appends a literal with one memcpy.
    @inline(__always)
    private static func append(_ literal: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends a string's UTF-8 with one memcpy (native strings are contiguous UTF-8).
    @inline(__always)
    private static func append(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    private static func isSafe(_ field: HTTPFields.Element) -> Bool {
        guard !field.name.isEmpty, field.name.utf8.allSatisfy({ ByteClass.isToken($0) }),
            field.value.utf8.allSatisfy({ ByteClass.isFieldValue($0) })
        else { return false }
        return !reservedNames.contains { field.name.equalsIgnoringASCIICase($0) }
    }

    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value < 10 {
            out.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
            UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var remaining = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while remaining > 0 {
                buffer[count] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) {
                out.append(buffer[index])
            }
        }
    }
}
