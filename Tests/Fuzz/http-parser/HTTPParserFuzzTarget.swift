@testable import HTTPServer

/// libFuzzer entry for the HTTP/1.1 request parser and the connection session behind it.
///
/// Input: one byte of options, then the bytes a client sends. Bit 0 picks small limits (so every limit is reached
/// by short inputs) or the server's defaults; the byte also seeds how the stream is cut into reads.
///
/// Checks, beyond "does not crash": the parser yields the same events whether the bytes arrive at once or cut
/// into arbitrary reads (swift-nio's ByteToMessageDecoderVerifier idea), and a connection session answers every
/// byte stream with well-formed HTTP/1.1 responses only.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let options = data[0]
    let stream = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let limits = options & 1 == 0 ? HTTPParserLimits.smallForFuzzing : HTTPParserLimits()

    let whole = ParserRun.events(feeding: [stream], limits: limits)
    let cut = ParserRun.events(feeding: ParserRun.cut(stream, seed: options), limits: limits)
    if whole != cut {
        fatalError("parser events differ when the same bytes arrive in other reads: \(whole.count) vs \(cut.count)")
    }
    SessionRun.check(stream, small: options & 1 == 0)
    return 0
}

extension HTTPParserLimits {
    static var smallForFuzzing: HTTPParserLimits {
        HTTPParserLimits(
            maxRequestLineBytes: 128, maxHeaderBytes: 512, maxHeaderCount: 8, defaultBodyLimit: 256,
            maxChunkHeaderBytes: 32, maxChunkHeaderBytesPerMessage: 128, maxLeadingEmptyLines: 2)
    }
}

enum ParserRun {
    /// Every event until the parser fails or wants more than the input holds. After each head the body limit is
    /// set the way a route would, from the head alone, so both feedings see the same limits.
    static func events(feeding reads: [[UInt8]], limits: HTTPParserLimits) -> [HTTPParserEvent] {
        var parser = HTTPRequestParser(limits: limits)
        var events: [HTTPParserEvent] = []
        for read in reads {
            parser.append(read)
            while let event = parser.next() {
                events.append(event)
                if case .head(let head) = event { parser.bodyLimit = head.path.utf8.count.isMultiple(of: 2) ? limits.defaultBodyLimit : 16 }
                if case .failure = event { return events }
            }
        }
        return events
    }

    /// Cuts `bytes` into reads of 1 to 64 bytes, sizes drawn from a tiny deterministic generator.
    static func cut(_ bytes: [UInt8], seed: UInt8) -> [[UInt8]] {
        var state = UInt32(seed) &* 2_654_435_761 | 1
        var reads: [[UInt8]] = []
        var start = 0
        while start < bytes.count {
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            let length = min(bytes.count - start, Int(state % 64) + 1)
            reads.append(Array(bytes[start..<(start + length)]))
            start += length
        }
        return reads
    }
}

enum SessionRun {
    static func check(_ stream: [UInt8], small: Bool) {
        var configuration = HTTPServerConfiguration()
        configuration.accessLog = false
        if small {
            configuration.maxRequestLineBytes = 128
            configuration.maxHeaderBytes = 512
            configuration.maxHeaderCount = 8
            configuration.defaultBodyLimit = 256
        }
        let shared = ServerShared(configuration: configuration, router: router(), metrics: MetricsRegistry(), logSink: CollectingLogSink())
        var session = ConnectionSession(services: LoopServices(shared: shared), remoteAddress: "127.0.0.1", now: 0)
        var output: [UInt8] = []
        for read in ParserRun.cut(stream, seed: UInt8(truncatingIfNeeded: stream.count)) {
            read.withUnsafeBytes { session.receive($0, now: 1) }
            output += session.output.takeAll()
        }
        if session.current != nil && !session.closeAfterFlush {
            session.requestTimedOut()
            output += session.output.takeAll()
        }
        checkResponses(output, headRequested: stream.contains(UInt8(ascii: "H")))
    }

    /// Every response starts with a status line and a header block ending in CRLF CRLF, and says how long it is
    /// (unless its status forbids content). A response to HEAD has the length of the GET body but no body.
    static func checkResponses(_ output: [UInt8], headRequested: Bool) {
        let prefix = Array("HTTP/1.1 ".utf8)
        func startsResponse(_ index: Int) -> Bool {
            output.count - index >= prefix.count && Array(output[index..<(index + prefix.count)]) == prefix
        }
        var index = 0
        while index < output.count {
            guard startsResponse(index) else { fatalError("response does not start with a status line") }
            guard let end = headEnd(output, from: index) else { fatalError("response head not terminated") }
            let lines = String(decoding: output[index..<end], as: UTF8.self).split(separator: "\r\n")
            guard let code = Int(lines[0].dropFirst(prefix.count).prefix(3)) else { fatalError("status code not a number") }
            var length = 0
            if let line = lines.first(where: { $0.lowercased().hasPrefix("content-length:") }) {
                guard let value = Int(line.dropFirst("content-length:".count).drop(while: { $0 == " " })) else {
                    fatalError("Content-Length not a number")
                }
                length = value
            } else if !(code < 200 || code == 204 || code == 304) {
                fatalError("response without Content-Length")
            }
            let bodyless = end + 4
            index = headRequested && (bodyless == output.count || startsResponse(bodyless)) ? bodyless : end + 4 + length
        }
        if index != output.count { fatalError("response body shorter than its Content-Length") }
    }

    static func headEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 3 < bytes.count {
            if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 { return index }
            index += 1
        }
        return nil
    }

    static func router() -> Router {
        var router = Router()
        router.add(.get, "/") { _, _ in HTTPResponse.text(.ok, "root") }
        router.add(.post, "/json", options: RouteOptions(acceptedContentTypes: ["application/json"])) { request, _ in
            HTTPResponse.json(.ok, request.body)
        }
        router.add(.post, "/small", options: RouteOptions(bodyLimit: 16)) { request, _ in
            HTTPResponse(status: .ok, body: request.body)
        }
        router.add(.get, "/items/{itemID}") { request, context in
            let items = request.queryItems.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            return HTTPResponse.text(.ok, (context.parameters["itemID"] ?? "") + "?" + items)
        }
        router.add(.put, "/v1/authorization/{subjectRef}") { _, context in
            HTTPResponse.text(.ok, context.parameters["subjectRef"] ?? "")
        }
        router.add(.get, "/fail") { _, _ in
            throw HTTPError(.conflict, slug: "conflict", detail: "fixed text")
        }
        return router
    }
}
