/// COSE_Sign1 (RFC 9052 §4.2) with ES256, as `signedPayload` uses it:
///
///     18([ << {1: -7} >>,          protected: alg ES256
///          {4: h'<kid as UTF-8>'}, unprotected: kid
///          h'<payload>',
///          h'<r || s>' ])
///
/// The signature covers `Sig_structure = ["Signature1", protected, h'', payload]` (RFC 9052 §4.4) with an empty
/// external AAD. The kid travels unprotected, as RFC 9052 allows: it only selects a key, and a wrong key fails.
public struct COSESign1 {
    public static let tag: UInt64 = 18
    /// COSE algorithm identifier for ES256 (RFC 9053 §2.1).
    public static let algorithmES256: Int64 = -7
    static let algorithmLabel: Int64 = 1
    static let criticalLabel: Int64 = 2
    static let keyIDLabel: Int64 = 4

    /// `{1: -7}` in deterministic encoding: the protected header of every message we sign.
    static let protectedHeader: [UInt8] = CBOR.map([.integer(algorithmLabel): .integer(algorithmES256)]).encoded()

    /// Signs `payload` and returns the tagged COSE_Sign1 message. `kid` is carried as its UTF-8 bytes.
    public static func sign(payload: [UInt8], kid: String, signer: ES256Signer) throws -> [UInt8] {
        let signature = try signer.sign(signatureStructure(protected: protectedHeader, payload: payload))
        var writer = CBORWriter(reservingCapacity: payload.count + kid.utf8.count + 96)
        writer.writeTag(tag)
        writer.writeArrayHead(count: 4)
        writer.writeByteString(protectedHeader)
        writer.writeMapHead(count: 1)
        writer.writeInteger(keyIDLabel)
        writer.writeByteString(Array(kid.utf8))
        writer.writeByteString(payload)
        writer.writeByteString(signature)
        return writer.bytes
    }

    /// The payload of `message` if it is a COSE_Sign1 whose ES256 signature verifies under the key its kid names
    /// in `publicKeys`; otherwise nil.
    public static func verify(_ message: [UInt8], publicKeys: [String: ES256PublicKey]) -> [UInt8]? {
        try? verifiedPayload(message, publicKeys: publicKeys)
    }

    /// `["Signature1", protected, h'', payload]`, the bytes ES256 signs.
    static func signatureStructure(protected: [UInt8], payload: [UInt8]) -> [UInt8] {
        var writer = CBORWriter(reservingCapacity: payload.count + protected.count + 20)
        writer.writeArrayHead(count: 4)
        writer.writeTextString("Signature1")
        writer.writeByteString(protected)
        writer.writeByteString([UInt8]())
        writer.writeByteString(payload)
        return writer.bytes
    }
}
