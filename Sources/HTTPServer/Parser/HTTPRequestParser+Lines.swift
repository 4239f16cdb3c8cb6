import Glibc

extension HTTPRequestParser {
    enum LineResult {
        /// The line's content, without its CRLF.
        case line(Range<Int>)
        case incomplete
        case tooLong
        case bareLineFeed
    }

    /// Takes the next CRLF-terminated line whose content is at most `limit` bytes.
    ///
    /// The length is judged on the bytes before the LF in both the complete and the partial case, so the same
    /// input gives the same verdict however it was split.
    mutating func takeLine(limit: Int) -> LineResult {
        let start = readIndex
        let end = buffer.count
        let searchFrom = max(scanIndex, start)
        let lineFeed: Int? = buffer.withUnsafeBytes { raw in
            guard searchFrom < end, let base = raw.baseAddress,
                let found = memchr(base + searchFrom, Int32(ByteClass.lf), end - searchFrom)
            else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
        guard let lineFeed else {
            if end - start > limit + 1 { return .tooLong }
            scanIndex = end
            return .incomplete
        }
        if lineFeed - start > limit + 1 { return .tooLong }
        guard lineFeed > start, buffer[lineFeed - 1] == ByteClass.cr else { return .bareLineFeed }
        readIndex = lineFeed + 1
        scanIndex = readIndex
        return .line(start..<(lineFeed - 1))
    }
}
