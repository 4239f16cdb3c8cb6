/// How a feature's value is encoded on the wire and what the catalogue checks about it.
public enum FeatureType: String, CaseIterable, Sendable, Hashable, Codable {
    /// A finite real number inside the declared range.
    case number
    /// A non-negative integer inside the declared range.
    case count
    /// `true`/`false`, or the numbers 0 and 1; stored as 0 or 1.
    case flag
    /// One of a declared list of integer codes, each with a documented meaning.
    case band
}
