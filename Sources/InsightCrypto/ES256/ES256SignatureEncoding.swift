import CCrypto

/// ECDSA P-256 signatures in the two encodings in use: raw `r || s` (64 bytes, COSE and JOSE) and DER
/// `ECDSA-Sig-Value` (X.509, the openssl CLI, most libraries). Conversion goes through libcrypto's `ECDSA_SIG`, except
/// for the signer's own output of the expected shape, read in place (`rawSignature(fromSignerDER:)`).
public enum ES256SignatureEncoding {
    public static let rawByteCount = 64
    static let scalarByteCount = 32

    public static func derSignature(fromRaw raw: [UInt8]) throws -> [UInt8] {
        guard raw.count == rawByteCount else { throw CryptoError.invalidSignatureEncoding }
        guard let signature = ECDSA_SIG_new() else { throw LibCryptoErrorQueue.error("ECDSA_SIG_new") }
        defer { ECDSA_SIG_free(signature) }
        let scalars = raw.withUnsafeBufferPointer { buffer -> (OpaquePointer?, OpaquePointer?) in
            (BN_bin2bn(buffer.baseAddress, Int32(scalarByteCount), nil),
             BN_bin2bn(buffer.baseAddress! + scalarByteCount, Int32(scalarByteCount), nil))
        }
        guard let r = scalars.0, let s = scalars.1, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(scalars.0)
            BN_free(scalars.1)
            throw LibCryptoErrorQueue.error("ECDSA_SIG_set0")
        }
        let length = i2d_ECDSA_SIG(signature, nil)
        guard length > 0 else { throw LibCryptoErrorQueue.error("i2d_ECDSA_SIG") }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(signature, &cursor)
        }
        guard written == length else { throw LibCryptoErrorQueue.error("i2d_ECDSA_SIG") }
        return der
    }

    public static func rawSignature(fromDER der: [UInt8]) throws -> [UInt8] {
        try der.withUnsafeBufferPointer { try rawSignature(fromDER: $0) }
    }

    /// `r || s` from the DER that libcrypto's signing just wrote, read in place when it has the one shape that
    /// signing writes (a SEQUENCE of two minimal positive INTEGERs of at most 33 bytes, short-form lengths); anything
    /// else goes through `ECDSA_SIG` as above. Through libcrypto this cost about 5,000 instructions per signature
    /// (two big numbers made, written out and freed), on every evaluation.
    static func rawSignature(fromSignerDER der: UnsafeBufferPointer<UInt8>) throws -> [UInt8] {
        if let raw = rawSignatureInPlace(der) { return raw }
        return try rawSignature(fromDER: der)
    }

    /// Nil unless `der` is exactly `30 L 02 Lr r 02 Ls s` with minimal, positive, at most 32-byte scalars.
    static func rawSignatureInPlace(_ der: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard der.count >= 8, der[0] == 0x30, Int(der[1]) == der.count - 2 else { return nil }
        var raw = [UInt8](repeating: 0, count: rawByteCount)
        var offset = 2
        for scalar in 0..<2 {
            guard offset + 2 <= der.count, der[offset] == 0x02 else { return nil }
            var length = Int(der[offset + 1])
            offset += 2
            guard length >= 1, length <= scalarByteCount + 1, offset + length <= der.count else { return nil }
            // A positive INTEGER has its top bit clear, and a leading zero only where the next byte needs it.
            guard der[offset] & 0x80 == 0 else { return nil }
            if der[offset] == 0 {
                guard length > 1, der[offset + 1] & 0x80 != 0 else { return nil }
                offset += 1
                length -= 1
            }
            guard length <= scalarByteCount else { return nil }
            let end = scalarByteCount * (scalar + 1)
            for index in 0..<length { raw[end - length + index] = der[offset + index] }
            offset += length
        }
        return offset == der.count ? raw : nil
    }

    static func rawSignature(fromDER der: UnsafeBufferPointer<UInt8>) throws -> [UInt8] {
        try der.withNonNullBytes { pointer, count in
            var cursor: UnsafePointer<UInt8>? = pointer
            guard let signature = d2i_ECDSA_SIG(nil, &cursor, count) else {
                LibCryptoErrorQueue.discard()
                throw CryptoError.invalidSignatureEncoding
            }
            defer { ECDSA_SIG_free(signature) }
            // Trailing bytes after the SEQUENCE make the input something other than one signature.
            guard cursor == pointer + count else { throw CryptoError.invalidSignatureEncoding }
            var raw = [UInt8](repeating: 0, count: rawByteCount)
            let written = raw.withUnsafeMutableBufferPointer { buffer -> Bool in
                let base = buffer.baseAddress!
                return BN_bn2binpad(ECDSA_SIG_get0_r(signature), base, Int32(scalarByteCount)) == scalarByteCount
                    && BN_bn2binpad(ECDSA_SIG_get0_s(signature), base + scalarByteCount,
                                    Int32(scalarByteCount)) == scalarByteCount
            }
            guard written else { throw CryptoError.invalidSignatureEncoding }
            return raw
        }
    }
}
