extension ES256PublicKey {
    /// The key identifier used in COSE headers, key file names and `GET /v1/signing-keys`: the first 16 lowercase
    /// hex characters (64 bits) of SHA-256 over the SubjectPublicKeyInfo DER. Anyone holding the public key can
    /// recompute it; 64 bits make an accidental collision among a handful of rotated keys negligible.
    public var keyID: String {
        String(SHA256.hex(derRepresentation).prefix(16))
    }
}
