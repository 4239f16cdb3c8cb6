/// The kind of the next value, known from its first byte; lets decoders report a wrong type without reading it.
public enum JSONValueKind: String, Sendable {
    case object, array, string, number, boolean, null
}
