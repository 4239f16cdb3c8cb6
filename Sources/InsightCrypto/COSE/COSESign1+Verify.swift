extension COSESign1 {
    /// As `verify`, but says why a message was refused.
    public static func verifiedPayload(
        _ message: [UInt8], publicKeys: [String: ES256PublicKey]
    ) throws(COSEError) -> [UInt8] {
        let item: CBOR
        do {
            item = try CBOR.decode(message)
        } catch {
            throw .malformedCBOR(error)
        }
        guard case let .tagged(tag, content) = item, tag == Self.tag,
              case let .array(parts) = content, parts.count == 4,
              case let .byteString(protected) = parts[0],
              case let .map(unprotected) = parts[1],
              case let .byteString(signature) = parts[3]
        else {
            throw .notCOSESign1
        }
        guard case let .byteString(payload) = parts[2] else {
            if parts[2] == .null { throw .detachedPayload }
            throw .notCOSESign1
        }
        let protectedHeader = try decodeProtectedHeader(protected)
        guard protectedHeader[.integer(algorithmLabel)] == .integer(algorithmES256),
              unprotected[.integer(algorithmLabel)] == nil
        else {
            throw .unsupportedAlgorithm
        }
        // We understand no extension headers, so any `crit` list means we must refuse (RFC 9052 §3.1).
        guard protectedHeader[.integer(criticalLabel)] == nil else { throw .criticalHeaders }
        let kid = try keyID(protected: protectedHeader, unprotected: unprotected)
        guard let publicKey = publicKeys[kid] else { throw .unknownKeyID(kid) }
        let signed = signatureStructure(protected: protected, payload: payload)
        guard publicKey.isValidSignature(signature, for: signed) else { throw .invalidSignature }
        return payload
    }

    private static func decodeProtectedHeader(_ protected: [UInt8]) throws(COSEError) -> [CBOR: CBOR] {
        // An empty protected header would leave `alg` unauthenticated; ES256 messages must protect it.
        guard !protected.isEmpty,
              let decoded = try? CBOR.decode(protected),
              case let .map(header) = decoded
        else {
            throw .malformedProtectedHeader
        }
        return header
    }

    private static func keyID(protected: [CBOR: CBOR], unprotected: [CBOR: CBOR]) throws(COSEError) -> String {
        let label = CBOR.integer(keyIDLabel)
        guard let value = protected[label] ?? unprotected[label] else { throw .missingKeyID }
        guard case let .byteString(bytes) = value, let kid = String(validating: bytes, as: UTF8.self) else {
            throw .missingKeyID
        }
        return kid
    }
}
