/// One feature of a category's catalogue: its name, encoding, allowed values, and who supplies it.
public struct FeatureDefinition: Sendable, Hashable {
    /// lowerCamelCase wire name, unique within its category.
    public var name: String
    public var type: FeatureType
    /// Unit of the value ("seconds", "milliseconds", "ratio", "count", "boolean", "band").
    public var unit: String
    /// Smallest allowed value; for flags 0, for bands the smallest code.
    public var minimum: Double
    /// Largest allowed value; for flags 1, for bands the largest code.
    public var maximum: Double
    /// Allowed codes of a band feature, in ascending order; empty for other types.
    public var bands: [FeatureBand]
    /// A required client feature must be present and non-null in every request.
    public var isRequired: Bool
    public var source: FeatureSource
    public var description: String

    public init(
        name: String,
        type: FeatureType,
        unit: String,
        minimum: Double,
        maximum: Double,
        bands: [FeatureBand] = [],
        isRequired: Bool,
        source: FeatureSource = .client,
        description: String
    ) {
        self.name = name
        self.type = type
        self.unit = unit
        self.minimum = minimum
        self.maximum = maximum
        self.bands = bands
        self.isRequired = isRequired
        self.source = source
        self.description = description
    }

    /// Convenience for a flag: its range is always 0...1.
    public static func flag(_ name: String, required: Bool, description: String) -> FeatureDefinition {
        FeatureDefinition(
            name: name, type: .flag, unit: "boolean", minimum: 0, maximum: 1, isRequired: required,
            description: description)
    }

    /// Convenience for a band feature: its range spans the codes.
    public static func band(_ name: String, bands: [FeatureBand], required: Bool, description: String) -> FeatureDefinition {
        let codes = bands.map { Double($0.code) }
        return FeatureDefinition(
            name: name, type: .band, unit: "band", minimum: codes.min() ?? 0, maximum: codes.max() ?? 0,
            bands: bands, isRequired: required, description: description)
    }

    /// True when `code` is one of this band feature's codes.
    @inlinable
    public func allowsBand(_ code: Int) -> Bool {
        for band in bands where band.code == code { return true }
        return false
    }
}
