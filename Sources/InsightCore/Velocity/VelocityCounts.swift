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

    /// Whether `rule` counts high outcomes. An outcome it raised is not itself counted as one: otherwise each
    /// `high` it gives would keep it firing, and an account would stay `high` long after the highs that started
    /// it left the window (VELOCITY.md, "High outcomes").
    public func isOverHighOutcomes(_ rule: VelocityConfiguration.Rule) -> Bool {
        configuration.counters.first { $0.name == rule.counter }?.kind == .highOutcomesPerAccount
    }

    /// The lowest level `rules` allow together (`unknown` for none).
    public static func floor(of rules: [VelocityConfiguration.Rule]) -> RiskLevel {
        rules.lazy.map(\.raiseTo).max() ?? .unknown
    }
}
