/// One allowed code of a band feature and what it means.
public struct FeatureBand: Sendable, Hashable, Codable {
    public var code: Int
    public var meaning: String

    public init(code: Int, meaning: String) {
        self.code = code
        self.meaning = meaning
    }
}
