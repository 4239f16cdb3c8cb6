/// Why bytes could not be decoded as CBOR. Positions are byte offsets into the input.
public enum CBORError: Error, Equatable, Sendable {
    case unexpectedEnd(offset: Int)
    case trailingBytes(offset: Int)
    /// Additional information 28-30, or 31 (indefinite length), which this decoder does not accept.
    case unsupportedAdditionalInformation(offset: Int)
    /// An argument not in its shortest form; deterministic encoding (RFC 8949 §4.2.1) forbids it.
    case nonShortestArgument(offset: Int)
    /// Floating point, `undefined` and simple values other than false, true and null.
    case unsupportedSimpleValue(offset: Int)
    case invalidUTF8(offset: Int)
    case duplicateMapKey(offset: Int)
    case nestingTooDeep(offset: Int)
}
