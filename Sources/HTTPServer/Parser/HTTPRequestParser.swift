import Glibc

/// An incremental HTTP/1.1 request parser: a pure state machine over bytes, with no I/O.
///
/// Feed bytes with `append`, then call `next()` until it returns nil (more bytes needed). Each request yields
/// `.head` and then `.complete`; between the two the owner may set `bodyLimit` for the route it resolved, and
/// the limit is checked before any body byte is consumed. After `.failure` the parser stays failed.
struct HTTPRequestParser {
    enum State: Equatable {
        case requestLine(emptyLinesSkipped: Int)
        case fieldLines
        case bodyPending
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers(bytes: Int, count: Int)
        case failed
    }

    let limits: HTTPParserLimits
    /// The decoded body size allowed for the current request; reset to the default after each request.
    var bodyLimit: Int

    private(set) var state: State = .requestLine(emptyLinesSkipped: 0)
    var buffer: [UInt8] = []
    /// Start of the bytes not yet consumed.
    var readIndex = 0
    /// Where the search for the next LF resumes, so drip-fed lines are scanned once.
    var scanIndex = 0

    var requestLine = RequestLine.empty
    /// The method of a request whose request line was read but whose head was not emitted: an answer refusing it
    /// (a field or framing error, a timeout) must know a HEAD, which gets no body (RFC 9110 §9.3.2).
    private(set) var methodBeforeHead: HTTPMethod?
    var fields = HTTPFields()
    /// The field line a failure refused, when one did.
    private(set) var faultyField: FaultyFieldLine?
    /// The repeatable name of the last trailer field read (trailers are dropped), for a folded line after it; empty
    /// when it had none. Bytes kept with their capacity rather than a string made per trailer line: the buffer may be
    /// compacted between lines, so the line's range could not be kept instead.
    private var previousTrailerName: [UInt8] = []
    var framingFields = FramingFields()
    var headerBytes = 0
    var framing = BodyFraming.none
    var body: [UInt8] = []
    /// Chunk-size line bytes of the current message, capped so extensions cannot stream without end.
    var chunkHeaderBytes = 0

    init(limits: HTTPParserLimits = HTTPParserLimits()) {
        self.limits = limits
        self.bodyLimit = limits.defaultBodyLimit
    }

    /// True between messages with nothing buffered: the connection is idle. Empty lines already skipped before a
    /// request line (RFC 9112 §2.2: a client may send a CRLF after a body) leave it idle: they begin no request.
    var isIdle: Bool {
        guard case .requestLine = state else { return false }
        return readIndex == buffer.count
    }

    var hasFailed: Bool { state == .failed }

    /// Bytes received but not yet consumed.
    var bufferedByteCount: Int { buffer.count - readIndex }

    /// The most an emptied buffer keeps for the next bytes: more than a request's head and body as apps send them,
    /// and no more than a body that reserves nothing (`BodyBudget.reservedAbove`), so that no body is held twice over
    /// more than that (regression probe: at 16 KiB, bodies of 8 to 16 KiB were).
    static let retainedBufferCapacity = 8_192

    /// Lets go of every byte held, and the buffer's memory: a connection closing lingeringly after its answer reads
    /// and discards what the peer still sends, and need not keep what came before.
    mutating func discardBufferedBytes() {
        buffer = []
        readIndex = 0
        scanIndex = 0
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    mutating func next() -> HTTPParserEvent? {
        while true {
            switch state {
            case .failed:
                return nil
            case .requestLine(let skipped):
                let lineStart = readIndex
                // Bytes that begin no request line (a TLS handshake's 0x16, a binary protocol) are refused as they
                // arrive: waiting for a space or a line end would hold the connection to the request deadline.
                if let error = requestLineOpeningError(at: lineStart) { return failRequestLine(error, startingAt: lineStart) }
                switch takeLine(limit: limits.maxRequestLineBytes) {
                case .incomplete: return nil
                case .tooLong: return failRequestLine(overlongRequestLineError(startingAt: lineStart), startingAt: lineStart)
                case .bareLineFeed: return failRequestLine(.invalidLineEnding, startingAt: lineStart)
                case .line(let range):
                    if range.isEmpty {
                        guard skipped < limits.maxLeadingEmptyLines else { return fail(.tooManyLeadingEmptyLines) }
                        state = .requestLine(emptyLinesSkipped: skipped + 1)
                        continue
                    }
                    switch buffer.withUnsafeBufferPointer({ Self.parseRequestLine($0, range) }) {
                    case .failure(let error): return failRequestLine(error, startingAt: range.lowerBound)
                    case .success(let line):
                        requestLine = line
                        methodBeforeHead = line.method
                        fields = HTTPFields()
                        fields.reserveCapacity(8)
                        framingFields = FramingFields()
                        headerBytes = 0
                        state = .fieldLines
                    }
                }
            case .fieldLines:
                switch takeLine(limit: limits.maxHeaderBytes - headerBytes - 2) {
                case .incomplete: return nil
                case .tooLong: return fail(.headerBlockTooLarge)
                case .bareLineFeed: return fail(.invalidLineEnding)
                case .line(let range):
                    headerBytes += range.count + 2
                    if range.isEmpty {
                        switch finishHead() {
                        case .failure(let error): return fail(error)
                        case .success(let head):
                            state = .bodyPending
                            methodBeforeHead = nil
                            return .head(head)
                        }
                    }
                    guard fields.count < limits.maxHeaderCount else { return fail(.tooManyHeaderFields) }
                    var noted = framingFields
                    let parsed = buffer.withUnsafeBufferPointer { Self.parseHeaderField($0, range, &noted) }
                    framingFields = noted
                    switch parsed {
                    case .failure(let error):
                        // A folded line continues the field before it, which is the one named.
                        let name = error == .obsoleteLineFolding
                            ? fields.reduce(nil) { $1.name }.flatMap { FaultyFieldLine.isRepeatable($0.utf8) ? $0 : nil }
                            : buffer.withUnsafeBufferPointer { FaultyFieldLine.repeatableName($0, range) }
                        faultyField = FaultyFieldLine(section: .header, line: fields.count + 1, name: name)
                        return fail(error)
                    case .success(let field): fields.append(name: field.name, value: field.value)
                    }
                }
            case .bodyPending:
                switch framing {
                case .none:
                    return complete()
                case .contentLength(let length):
                    guard length <= bodyLimit else { return fail(.bodyTooLarge) }
                    if length == 0 { return complete() }
                    body.reserveCapacity(length)
                    state = .fixedBody(remaining: length)
                case .chunked:
                    state = .chunkSize
                }
            case .fixedBody(let remaining):
                let taken = takeBodyBytes(upTo: remaining)
                if taken == 0 { return nil }
                if taken == remaining { return complete() }
                state = .fixedBody(remaining: remaining - taken)
            case .chunkSize:
                switch takeLine(limit: limits.maxChunkHeaderBytes) {
                case .incomplete: return nil
                case .tooLong: return fail(.chunkHeaderTooLong)
                case .bareLineFeed: return fail(.invalidLineEnding)
                case .line(let range):
                    chunkHeaderBytes += range.count + 2
                    guard chunkHeaderBytes <= limits.maxChunkHeaderBytesPerMessage else {
                        return fail(.chunkFramingTooLong)
                    }
                    switch buffer.withUnsafeBufferPointer({ Self.parseChunkSizeLine($0, range) }) {
                    case .failure(let error): return fail(error)
                    case .success(let size):
                        guard size <= bodyLimit - body.count else { return fail(.bodyTooLarge) }
                        state = size == 0 ? .trailers(bytes: 0, count: 0) : .chunkData(remaining: size)
                    }
                }
            case .chunkData(let remaining):
                let taken = takeBodyBytes(upTo: remaining)
                if taken == 0 { return nil }
                state = taken == remaining ? .chunkDataEnd : .chunkData(remaining: remaining - taken)
            case .chunkDataEnd:
                let available = buffer.count - readIndex
                if available >= 1 && buffer[readIndex] != ByteClass.cr { return fail(.invalidChunkTerminator) }
                if available < 2 { return nil }
                guard buffer[readIndex + 1] == ByteClass.lf else { return fail(.invalidChunkTerminator) }
                readIndex += 2
                scanIndex = readIndex
                state = .chunkSize
            case .trailers(let bytes, let count):
                switch takeLine(limit: limits.maxHeaderBytes - bytes - 2) {
                case .incomplete: return nil
                case .tooLong: return fail(.trailerSectionTooLarge)
                case .bareLineFeed: return fail(.invalidLineEnding)
                case .line(let range):
                    if range.isEmpty { return complete() }
                    guard count < limits.maxHeaderCount else { return fail(.tooManyTrailerFields) }
                    // Trailers are checked like header fields and then dropped: nothing may smuggle in through them.
                    if count == 0 { previousTrailerName.removeAll(keepingCapacity: true) }
                    if case .failure(let error) = buffer.withUnsafeBufferPointer({ Self.scanFieldLine($0, range) }) {
                        let previous = previousTrailerName.isEmpty ? nil : String(decoding: previousTrailerName, as: UTF8.self)
                        let name = error == .obsoleteLineFolding
                            ? previous : buffer.withUnsafeBufferPointer { FaultyFieldLine.repeatableName($0, range) }
                        faultyField = FaultyFieldLine(section: .trailer, line: count + 1, name: name)
                        return fail(error)
                    }
                    previousTrailerName.removeAll(keepingCapacity: true)
                    if let nameRange = buffer.withUnsafeBufferPointer({ FaultyFieldLine.repeatableNameRange($0, range) }) {
                        previousTrailerName.append(contentsOf: buffer[nameRange])
                    }
                    state = .trailers(bytes: bytes + range.count + 2, count: count + 1)
                }
            }
        }
    }

    private mutating func fail(_ error: HTTPParseError) -> HTTPParserEvent {
        state = .failed
        return .failure(error)
    }

    /// A request line refused whole (too long, malformed) may still have begun with `HEAD `: the refusal then
    /// carries no body, as any answer to HEAD (RFC 9110 §9.3.2), or a strict client reads it as the next response.
    private mutating func failRequestLine(_ error: HTTPParseError, startingAt start: Int) -> HTTPParserEvent {
        if startsWithHead(at: start) { methodBeforeHead = .head }
        return fail(error)
    }

    /// How far into a request line still arriving its method is judged: longer than any method implemented, and
    /// short enough that a line drip-fed a byte at a time costs little to look at again.
    static let openingWindow = 32

    /// What the first bytes of a request line settle before its end arrives, as the whole line would be judged: a
    /// leading space is a malformed line, and a byte before the first space that no method holds (anything but a
    /// token character) an invalid method. A CR is judged only once the byte after it shows it ends no line. nil
    /// while the opening is a method so far.
    private func requestLineOpeningError(at start: Int) -> HTTPParseError? {
        let end = min(buffer.count, start + Self.openingWindow)
        guard start < end else { return nil }
        if buffer[start] == ByteClass.space { return .malformedRequestLine }
        for index in start..<end {
            let byte = buffer[index]
            if byte == ByteClass.space || byte == ByteClass.lf { return nil }
            if byte == ByteClass.cr {
                guard index + 1 < buffer.count, buffer[index + 1] != ByteClass.lf else { return nil }
                return .invalidMethod
            }
            if !ByteClass.isToken(byte) { return .invalidMethod }
        }
        return nil
    }

    private func startsWithHead(at start: Int) -> Bool {
        let prefix: [UInt8] = [0x48, 0x45, 0x41, 0x44, ByteClass.space]  // "HEAD "
        return buffer.count - start >= prefix.count && buffer[start..<(start + prefix.count)].elementsEqual(prefix)
    }

    /// The method of a request under way, as far as its bytes tell: `methodBeforeHead`, or HEAD for a request line
    /// still arriving that begins `HEAD ` (a timeout's 408 must then go without a body too).
    var methodSoFar: HTTPMethod? {
        if let methodBeforeHead { return methodBeforeHead }
        if case .requestLine = state, startsWithHead(at: readIndex) { return .head }
        return nil
    }

    /// Which part made the request line too long (RFC 9112 §3): no space within the limit is a method longer than
    /// any implemented (501); more than a version's eight bytes after a second space is a version run on or a
    /// target holding a raw space (400); otherwise the target is what ran over (414).
    ///
    /// Judged on the first `limit + 2` bytes only: `takeLine` reports a line too long once that many have arrived,
    /// so those are all a caller fed in small reads is sure to have, and the answer may not depend on how the
    /// bytes were cut.
    private func overlongRequestLineError(startingAt start: Int) -> HTTPParseError {
        let seen = buffer[start..<(start + limits.maxRequestLineBytes + 2)]
        let window = seen.prefix(limits.maxRequestLineBytes)
        // As `requestLineOpeningError` and `parseRequestLine` judge the opening, whatever follows.
        if window.first == ByteClass.space { return .malformedRequestLine }
        let methodEnd = window.firstIndex(of: ByteClass.space) ?? window.endIndex
        if !window[..<methodEnd].allSatisfy(ByteClass.isToken) { return .invalidMethod }
        guard let firstSpace = window.firstIndex(of: ByteClass.space) else { return .methodTooLong }
        guard let secondSpace = window[(firstSpace + 1)...].firstIndex(of: ByteClass.space) else {
            return .requestLineTooLong
        }
        let tail = seen[(secondSpace + 1)...].prefix(9)
        return tail.count > 8 && !tail.contains(ByteClass.cr) ? .malformedRequestLine : .requestLineTooLong
    }

    private mutating func complete() -> HTTPParserEvent {
        let message = body
        body = []
        framing = .none
        chunkHeaderBytes = 0
        bodyLimit = limits.defaultBodyLimit
        state = .requestLine(emptyLinesSkipped: 0)
        return .complete(body: message)
    }

    private mutating func takeBodyBytes(upTo wanted: Int) -> Int {
        let count = min(wanted, buffer.count - readIndex)
        guard count > 0 else { return 0 }
        body.append(contentsOf: buffer[readIndex..<(readIndex + count)])
        readIndex += count
        scanIndex = readIndex
        // Every byte read is in the body now: a large buffer goes at once, not at the next read, which a client
        // that stops sending never brings.
        if readIndex == buffer.count, buffer.capacity > Self.retainedBufferCapacity { compact() }
        return count
    }

    /// Drops consumed bytes once they are a large share of the buffer, so pipelined input does not grow it.
    private mutating func compact() {
        if readIndex == buffer.count {
            // A large read (up to the event loop's 64 KiB) whose bytes went into a body leaves a buffer that large,
            // held beside the body (itself sized to its length) for as long as the body takes to arrive: twice the
            // memory its reservation counts (10,000 connections held 1.3-1.6 GB so). Kept only while small, as every
            // request's head needs one.
            if buffer.capacity > Self.retainedBufferCapacity { buffer = [] } else { buffer.removeAll(keepingCapacity: true) }
            readIndex = 0
            scanIndex = 0
        } else if readIndex > 4096 && readIndex * 2 > buffer.count {
            buffer.removeSubrange(0..<readIndex)
            scanIndex -= readIndex
            readIndex = 0
        }
    }
}
