/// Turns a response into header bytes. The server owns the framing fields; handlers' values for them are dropped,
/// and so is any field whose name or value could split the response.
enum ResponseSerializer {
    static let continueLine: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    struct Framing {
        var requestID: String
        var keepAlive: Bool
        /// HTTP/1.0 clients need an explicit `Connection: keep-alive` to keep the connection.
        var requestVersion: HTTPVersion
        var isHeadRequest: Bool
        /// Written when the response sets no `Cache-Control` of its own (`HTTPServerConfiguration.defaultCacheControl`).
        var defaultCacheControlLine: [UInt8]? = nil
    }

    /// Writes the head in one pass into an exactly sized buffer: this runs once per response.
    /// Bodies up to this size are copied behind the head, so the response leaves in one plain send; larger ones
    /// stay a separate segment of the same gather write, uncopied. Small enough that head and body together stay
    /// within glibc's per-thread cache of freed chunks (up to 1,032 bytes): a larger buffer per response takes
    /// malloc's slow path, which showed in the evaluation route's profile (docs/BENCHMARKS.md).
    static let inlineBodyLimit = 640

    static func head(
        for response: HTTPResponse, framing: Framing, dateLine: [UInt8], includingBody: Bool = false
    ) -> [UInt8] {
        // reason-phrase = *( HTAB / SP / VCHAR / obs-text ) (RFC 9112 §4): one from elsewhere (a problem's title for
        // a code this server has no phrase for) that holds anything else, CR or LF above all, is left out.
        var reason = response.status.reasonPhrase.allUTF8(ByteClass.isFieldValue) ? response.status.reasonPhrase : ""
        var requestID = framing.requestID
        let writesLength = !response.status.forbidsContent
        var capacity = 9 + 20 + 1 + reason.utf8.count + 2 + dateLine.count
        capacity += writesLength ? 16 + 20 + 2 : 0
        capacity += 14 + requestID.utf8.count + 2 + 24 + 2
        if includingBody { capacity += response.body.count }
        // Each field is judged once; the verdicts of the first 64 are remembered for the writing pass.
        var safeFields: UInt64 = 0
        var setsCacheControl = false
        for (index, field) in response.headers.enumerated() where isSafe(field) {
            if index < 64 { safeFields |= 1 << UInt64(index) }
            capacity += field.name.utf8.count + 2 + field.value.utf8.count + 2
            if field.name.utf8.count == 13 && field.name.equalsIgnoringASCIICase("cache-control") { setsCacheControl = true }
        }
        let cacheControl = setsCacheControl ? nil : framing.defaultCacheControlLine
        capacity += cacheControl?.count ?? 0
        return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            var out = ByteWriter(buffer.baseAddress!)
            out.put("HTTP/1.1 ")
            out.putDecimal(max(0, response.status.code))
            out.put(" ")
            out.put(&reason)
            out.put("\r\n")
            dateLine.withUnsafeBufferPointer { out.put($0) }
            if writesLength {
                out.put("Content-Length: ")
                out.putDecimal(response.body.count)
                out.put("\r\n")
            }
            out.put("X-Request-ID: ")
            out.put(&requestID)
            out.put("\r\n")
            if !framing.keepAlive {
                out.put("Connection: close\r\n")
            } else if framing.requestVersion == .http1_0 {
                out.put("Connection: keep-alive\r\n")
            }
            for (index, field) in response.headers.enumerated()
            where index < 64 ? safeFields & (1 << UInt64(index)) != 0 : isSafe(field) {
                var name = field.name
                var value = field.value
                out.put(&name)
                out.put(": ")
                out.put(&value)
                out.put("\r\n")
            }
            cacheControl?.withUnsafeBufferPointer { out.put($0) }
            out.put("\r\n")
            if includingBody { response.body.withUnsafeBufferPointer { out.put($0) } }
            count = out.written
        }
    }

    private static func isSafe(_ field: HTTPFields.Element) -> Bool {
        guard !field.name.isEmpty, field.name.allUTF8(ByteClass.isToken), field.value.allUTF8(ByteClass.isFieldValue)
        else { return false }
        switch field.name.utf8.count {
        case 4: return !field.name.equalsIgnoringASCIICase("date")
        case 10: return !field.name.equalsIgnoringASCIICase("connection")
        case 12: return !field.name.equalsIgnoringASCIICase("x-request-id")
        case 14: return !field.name.equalsIgnoringASCIICase("content-length")
        case 17: return !field.name.equalsIgnoringASCIICase("transfer-encoding")
        default: return true
        }
    }
}

/// A cursor over uninitialised bytes. A struct used in place, so writes need no exclusivity bookkeeping (a
/// captured `var` in nested functions would be boxed and checked at run time on every write).
struct ByteWriter {
    private let base: UnsafeMutablePointer<UInt8>
    private var cursor: UnsafeMutablePointer<UInt8>

    init(_ base: UnsafeMutablePointer<UInt8>) {
        self.base = base
        self.cursor = base
    }

    var written: Int { base.distance(to: cursor) }

    @inline(__always)
    mutating func put(_ literal: StaticString) {
        cursor.update(from: literal.utf8Start, count: literal.utf8CodeUnitCount)
        cursor += literal.utf8CodeUnitCount
    }

    @inline(__always)
    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        cursor.update(from: source, count: bytes.count)
        cursor += bytes.count
    }

    @inline(__always)
    mutating func put(_ text: inout String) {
        text.withUTF8 { put($0) }
    }

    mutating func putDecimal(_ value: Int) {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        var remaining = value
        for index in stride(from: digits - 1, through: 0, by: -1) {
            cursor[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
        }
        cursor += digits
    }
}
