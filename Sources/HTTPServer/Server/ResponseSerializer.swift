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
        out.reserveCapacity(192 + response.headers.count * 32)
        out.append(contentsOf: "HTTP/1.1 ".utf8)
        appendDecimal(response.status.code, to: &out)
        out.append(UInt8(ascii: " "))
        out.append(contentsOf: response.status.reasonPhrase.utf8)
        out.append(contentsOf: "\r\n".utf8)
        out.append(contentsOf: dateLine)
        if !response.status.forbidsContent {
            out.append(contentsOf: "Content-Length: ".utf8)
            appendDecimal(response.body.count, to: &out)
            out.append(contentsOf: "\r\n".utf8)
        }
        out.append(contentsOf: "X-Request-ID: ".utf8)
        out.append(contentsOf: framing.requestID.utf8)
        out.append(contentsOf: "\r\n".utf8)
        if !framing.keepAlive {
            out.append(contentsOf: "Connection: close\r\n".utf8)
        } else if framing.requestVersion == .http1_0 {
            out.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        for field in response.headers where isSafe(field) {
            out.append(contentsOf: field.name.utf8)
            out.append(contentsOf: ": ".utf8)
            out.append(contentsOf: field.value.utf8)
            out.append(contentsOf: "\r\n".utf8)
        }
        out.append(contentsOf: "\r\n".utf8)
        return out
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
