import CCrypto

extension ES256PublicKey {
    /// The uncompressed point `04 || X || Y` (65 bytes), as ANSI X9.63 and SEC 1 define it.
    public var x963Representation: [UInt8] {
        var point = [UInt8](repeating: 0, count: 65)
        var length = 0
        let status = EVP_PKEY_get_octet_string_param(key.pointer, "encoded-pub-key", &point, point.count, &length)
        // The key was checked to be P-256 at construction, and OpenSSL encodes EC points uncompressed by default.
        precondition(status == 1 && length == 65 && point[0] == 0x04,
                     "libcrypto did not return an uncompressed P-256 point")
        return point
    }

    /// The JWK coordinates (RFC 7518 §6.2.1): base64url without padding of the 32-byte big-endian X and Y.
    public var jwk: (x: String, y: String) {
        let point = x963Representation
        return (Base64URL.encode(Array(point[1..<33])), Base64URL.encode(Array(point[33..<65])))
    }

    /// From an uncompressed point `04 || X || Y`; libcrypto rejects points that are not on the curve.
    public init(x963Representation point: [UInt8]) throws {
        guard point.count == 65, point[0] == 0x04 else {
            throw CryptoError.invalidKeyEncoding(reason: "expected a 65-byte uncompressed P-256 point")
        }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw LibCryptoErrorQueue.error("EVP_PKEY_CTX_new_from_name")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_fromdata_init(context) == 1 else { throw LibCryptoErrorQueue.error("EVP_PKEY_fromdata_init") }
        var pointBytes = point
        let pointer = try "group".withCString { groupName in
            try "prime256v1".withCString { group in
                try "pub".withCString { publicName in
                    try pointBytes.withUnsafeMutableBytes { publicBytes -> OpaquePointer in
                        var parameters = [
                            OSSL_PARAM_construct_utf8_string(groupName, UnsafeMutablePointer(mutating: group), 0),
                            OSSL_PARAM_construct_octet_string(publicName, publicBytes.baseAddress, publicBytes.count),
                            OSSL_PARAM_construct_end(),
                        ]
                        var created: OpaquePointer?
                        guard EVP_PKEY_fromdata(context, &created, ti_EVP_PKEY_PUBLIC_KEY(), &parameters) == 1,
                              let created
                        else {
                            throw CryptoError.invalidKeyEncoding(reason: LibCryptoErrorQueue.drainReason())
                        }
                        return created
                    }
                }
            }
        }
        let key = EVPKey(taking: pointer)
        try self.init(derRepresentation: key.subjectPublicKeyInfoDER())
    }

    /// From JWK coordinates `x` and `y` (base64url, 32 bytes each).
    public init(jwkX x: String, y: String) throws {
        guard let xBytes = Base64URL.decode(x), let yBytes = Base64URL.decode(y),
              xBytes.count == 32, yBytes.count == 32
        else {
            throw CryptoError.invalidKeyEncoding(reason: "JWK x and y must be 32-byte base64url values")
        }
        try self.init(x963Representation: [0x04] + xBytes + yBytes)
    }
}
