/// A CBOR data item (RFC 8949), limited to what COSE_Sign1 and its tests need: integers, byte and text strings,
/// arrays, maps, tags, booleans and null. Floating-point values and indefinite lengths are not supported.
///
/// Maps are Swift dictionaries, so a map cannot hold a key twice; `encoded()` writes their entries in the core
/// deterministic order (RFC 8949 §4.2.1: bytewise lexicographic order of the encoded keys).
public indirect enum CBOR: Hashable, Sendable {
    case unsigned(UInt64)
    /// The integer `-1 - n` (major type 1).
    case negative(UInt64)
    case byteString([UInt8])
    case textString(String)
    case array([CBOR])
    case map([CBOR: CBOR])
    case tagged(UInt64, CBOR)
    case bool(Bool)
    case null

    /// An integer of either sign.
    public static func integer(_ value: Int64) -> CBOR {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-(value + 1)))
    }

    /// The value as an `Int64` if it is an integer that fits.
    public var integerValue: Int64? {
        switch self {
        case let .unsigned(value) where value <= UInt64(Int64.max):
            return Int64(value)
        case let .negative(value) where value <= UInt64(Int64.max):
            return -1 - Int64(value)
        default:
            return nil
        }
    }
}
