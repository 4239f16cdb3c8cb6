/// Why a COSE_Sign1 message was not accepted. `COSESign1.verify` collapses these to `nil`; the throwing variant
/// exists so that tests and diagnostics can tell the causes apart.
public enum COSEError: Error, Equatable, Sendable {
    case malformedCBOR(CBORError)
    /// Not tag 18 around an array of four items of the right types.
    case notCOSESign1
    case malformedProtectedHeader
    /// The protected `alg` (label 1) is missing or is not ES256 (-7).
    case unsupportedAlgorithm
    /// `crit` (label 2) names headers this implementation does not understand.
    case criticalHeaders
    case missingKeyID
    case unknownKeyID(String)
    /// Detached payloads (payload `nil`) are not supported.
    case detachedPayload
    case invalidSignature
}
