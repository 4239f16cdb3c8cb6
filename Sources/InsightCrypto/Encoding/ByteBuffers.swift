extension Sequence<UInt8> {
    /// Contiguous bytes for a C call. The pointer is never nil, even for an empty input, because some libcrypto
    /// entry points treat a null pointer as "no data given" rather than "zero bytes".
    func withNonNullBytes<Result>(
        _ body: (UnsafePointer<UInt8>, Int) throws -> Result
    ) rethrows -> Result {
        if let result = try withContiguousStorageIfAvailable({ buffer -> Result in
            try Self.callWithNonNull(buffer, body)
        }) {
            return result
        }
        return try Array(self).withUnsafeBufferPointer { try Self.callWithNonNull($0, body) }
    }

    private static func callWithNonNull<Result>(
        _ buffer: UnsafeBufferPointer<UInt8>,
        _ body: (UnsafePointer<UInt8>, Int) throws -> Result
    ) rethrows -> Result {
        if let base = buffer.baseAddress {
            return try body(base, buffer.count)
        }
        var placeholder: UInt8 = 0
        return try withUnsafePointer(to: &placeholder) { try body($0, 0) }
    }
}
