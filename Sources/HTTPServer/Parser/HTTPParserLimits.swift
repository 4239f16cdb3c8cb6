/// Size limits the parser enforces while bytes arrive, before anything is buffered beyond them.
struct HTTPParserLimits: Sendable, Equatable {
    var maxRequestLineBytes = 8192
    var maxHeaderBytes = 16384
    var maxHeaderCount = 100
    var defaultBodyLimit = 65536
    /// Chunk-size line: hex digits plus extensions, which carry nothing we use.
    var maxChunkHeaderBytes = 1024
    /// All chunk-size lines of one message together (RFC 9112 §7.1.1 asks to bound extensions like any field).
    var maxChunkHeaderBytesPerMessage = 16384
    /// RFC 9112 §2.2 asks to ignore at least one empty line before the request line; a few, not unboundedly many.
    var maxLeadingEmptyLines = 8
}
