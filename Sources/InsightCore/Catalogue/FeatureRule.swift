/// What request validation needs of one feature, as plain numbers: reading it retains nothing, so the hot
/// path never copies a `FeatureDefinition` (strings, arrays).
struct FeatureRule: Sendable {
    var type: FeatureType
    var isComputed: Bool
    var isRequired: Bool
    var minimum: Double
    var maximum: Double
    /// Bit `c` is set when band code `c` (0...63) is allowed; codes outside 0...63 use `FeatureDefinition.bands`.
    var bandMask: UInt64
    var hasLargeBandCodes: Bool

    init(_ definition: FeatureDefinition) {
        type = definition.type
        isComputed = definition.source == .computed
        isRequired = definition.isRequired
        minimum = definition.minimum
        maximum = definition.maximum
        var mask: UInt64 = 0
        var large = false
        for band in definition.bands {
            if (0..<64).contains(band.code) { mask |= 1 << UInt64(band.code) } else { large = true }
        }
        bandMask = mask
        hasLargeBandCodes = large
    }
}
