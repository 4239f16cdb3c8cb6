/// The counter values for one evaluation, and the rules they fire.
public struct VelocityCounts: Sendable, Equatable {
    public let configuration: VelocityConfiguration
    /// In `configuration.counters` order.
    public let values: [Int]

    public func value(named name: String) -> Int? {
        configuration.counters.firstIndex { $0.name == name }.map { values[$0] }
    }

    /// The rules whose threshold is reached, in configuration order.
    public var firedRules: [VelocityConfiguration.Rule] {
        configuration.rules.filter { rule in (value(named: rule.counter) ?? 0) >= rule.atLeast }
    }

    /// The lowest level the fired rules allow (`unknown` when none fired).
    public var floor: RiskLevel { Self.floor(of: firedRules) }

    /// The lowest level `rules` allow together (`unknown` for none).
    public static func floor(of rules: [VelocityConfiguration.Rule]) -> RiskLevel {
        rules.lazy.map(\.raiseTo).max() ?? .unknown
    }
}
