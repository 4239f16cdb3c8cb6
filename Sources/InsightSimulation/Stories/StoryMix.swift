import InsightCore

/// Which stories a category's sessions are drawn from, and how often, for genuine and for coached sessions.
public struct StoryMix: Sendable {
    public var genuine: [(story: StoryProfile, weight: Double)]
    public var coached: [(story: StoryProfile, weight: Double)]

    public init(genuine: [(story: StoryProfile, weight: Double)], coached: [(story: StoryProfile, weight: Double)]) {
        self.genuine = genuine
        self.coached = coached
    }

    /// The documented default mix of each category (docs/SIMULATOR.md).
    public static func standard(for category: OperationCategory) -> StoryMix {
        let genuineWeights: [Double]
        let coachedWeights: [Double]
        switch category {
        case .payment:
            genuineWeights = [0.62, 0.10, 0.17, 0.03, 0.08]
            coachedWeights = [0.2, 0.3, 0.2, 0.12, 0.18]
        case .account:
            genuineWeights = [0.70, 0.08, 0.12, 0.05, 0.05]
            coachedWeights = [0.4, 0.32, 0.04, 0.08, 0.16]
        case .resourceUse:
            genuineWeights = [0.72, 0.06, 0.12, 0.04, 0.06]
            coachedWeights = [0.5, 0.12, 0.04, 0.16, 0.18]
        case .communication:
            genuineWeights = [0.64, 0.12, 0.14, 0.03, 0.07]
            coachedWeights = [0.16, 0.26, 0.16, 0.26, 0.16]
        case .other:
            genuineWeights = [0.66, 0.10, 0.14, 0.04, 0.06]
            coachedWeights = [0.25, 0.25, 0.16, 0.16, 0.18]
        }
        let genuine: [StoryProfile] = [.routine, .genuineOnCall, .genuineNewCounterparty, .assistedGenuine, .lateNight]
        let coached: [StoryProfile] = [
            .techSupportScam, .authorityImpersonation, .familyEmergency, .messagingCoached, .preCoached,
        ]
        return StoryMix(
            genuine: Array(zip(genuine, genuineWeights)).map { (story: $0.0, weight: $0.1) },
            coached: Array(zip(coached, coachedWeights)).map { (story: $0.0, weight: $0.1) })
    }
}
