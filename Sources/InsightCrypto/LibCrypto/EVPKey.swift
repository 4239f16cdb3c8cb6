import CCrypto

/// Owns one `EVP_PKEY`. The key is never mutated after construction, and libcrypto's reference counting is atomic,
/// so one instance may be used for signing and verifying from several threads, each with its own operation context.
final class EVPKey: @unchecked Sendable {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// Checks that the key is EC on P-256, the only curve ES256 allows.
    func requireP256() throws {
        guard EVP_PKEY_is_a(pointer, "EC") == 1 else {
            throw CryptoError.unsupportedKey(reason: "not an EC key")
        }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(pointer, &name, name.count, &length) == 1 else {
            throw CryptoError.unsupportedKey(reason: "EC key without a named curve")
        }
        let curve = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard curve == "prime256v1" || curve == "P-256" else {
            throw CryptoError.unsupportedKey(reason: "curve \(curve), ES256 needs P-256")
        }
        // A key written with the curve's parameters spelt out (`openssl ecparam -param_enc explicit`) is P-256 to
        // libcrypto, but its SubjectPublicKeyInfo is not the one a verifier rebuilds from the published JWK, so the
        // kid could not be recomputed from it; RFC 5480 §2.1.1 allows only the named curve in PKIX anyway.
        var encoding = [CChar](repeating: 0, count: 32)
        var encodingLength = 0
        if EVP_PKEY_get_utf8_string_param(pointer, "encoding", &encoding, encoding.count, &encodingLength) == 1 {
            let spelt = String(decoding: encoding.prefix(encodingLength).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard spelt != "explicit" else {
                throw CryptoError.unsupportedKey(
                    reason: "P-256 with explicit curve parameters; only the named curve is allowed (RFC 5480): re-encode it with 'openssl ec -param_enc named_curve -conv_form uncompressed'")
            }
        }
        // Likewise a public point kept compressed (`-conv_form compressed`): its SubjectPublicKeyInfo, and so the
        // kid, is not the uncompressed one a verifier rebuilds from the JWK's x and y (regression probe, 6 December).
        var format = [CChar](repeating: 0, count: 32)
        var formatLength = 0
        if EVP_PKEY_get_utf8_string_param(pointer, "point-format", &format, format.count, &formatLength) == 1 {
            let spelt = String(decoding: format.prefix(formatLength).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard spelt == "uncompressed" else {
                throw CryptoError.unsupportedKey(
                    reason: "P-256 with its public point \(spelt); only the uncompressed form is published (RFC 5480 §2.2): re-encode it with 'openssl ec -conv_form uncompressed'")
            }
        }
    }

    /// Checks that a private key's public half is the one its private scalar makes: a file may state another
    /// point, which would be published while every signature fails against it (second regression probe,
    /// 6 December). libcrypto's pairwise check (`EVP_PKEY_pairwise_check`) recomputes the point.
    func requireMatchingPublicKey() throws {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else {
            throw LibCryptoErrorQueue.error("EVP_PKEY_CTX_new_from_pkey")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_pairwise_check(context) == 1 else {
            _ = LibCryptoErrorQueue.drainReason()
            throw CryptoError.unsupportedKey(reason: "its public key is not the one its private key makes (the file is damaged or was put together from two keys)")
        }
    }

    /// SubjectPublicKeyInfo DER of the public half.
    func subjectPublicKeyInfoDER() throws -> [UInt8] {
        let length = i2d_PUBKEY(pointer, nil)
        guard length > 0 else { throw LibCryptoErrorQueue.error("i2d_PUBKEY") }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_PUBKEY(pointer, &cursor)
        }
        guard written == length else { throw LibCryptoErrorQueue.error("i2d_PUBKEY") }
        return der
    }
}
