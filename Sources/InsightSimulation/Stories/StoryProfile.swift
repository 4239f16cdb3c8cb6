/// The parameters of one generative story: how a session of that kind of use tends to look. Every field is a
/// probability, a median (log-normal draws) or a weight list; docs/SIMULATOR.md tabulates them.
public struct StoryProfile: Sendable {
    public var name: String
    /// True for a story of coached (coerced) use: such sessions are labelled positive.
    public var isCoached: Bool

    // Calls.
    public var callProbability: Double
    public var callerKnownProbability: Double
    public var callMedianSeconds: Double
    public var callSpread: Double

    // Screen and control.
    public var screenSharingProbability: Double
    public var remoteAccessProbability: Double

    // Interaction timing.
    public var hesitationMedianMillis: Double
    public var hesitationSpread: Double
    public var typingVarianceMedianMillis: Double
    public var typingProbability: Double
    public var sessionMedianSeconds: Double
    public var appSwitchMean: Double
    /// Share of app switches that go to a messaging, calling or video app.
    public var communicationSwitchShare: Double
    public var pasteMean: Double
    /// Centre of the stillness ratio (logit-normal).
    public var stillnessCentre: Double
    /// Probability that the device reports no motion sensor (a desktop session).
    public var noMotionSensorProbability: Double

    // Context.
    /// Weights of [new, recent (days), established (months or years)] for the payee, recipient, setting or resource.
    public var noveltyWeights: [Double]
    /// Weights of the five bands of amount or cost relative to usual.
    public var relativeBandWeights: [Double]
    /// Weights of night, morning, afternoon, evening.
    public var timeOfDayWeights: [Double]

    // Category-specific behaviour.
    /// Weights of the six account change kinds (profile, contact, password, second factor, recovery, closure).
    public var changeKindWeights: [Double]
    public var authenticationRetryMean: Double
    public var documentDwellMedianSeconds: Double
    public var pastedCharacterCentre: Double
    public var inputEventsMedianPerMinute: Double
    public var pointerStraightnessCentre: Double
    public var irreversibleProbability: Double
    public var permissionGrantProbability: Double

    // Velocity context.
    /// Probability that the session is one of a burst of evaluations on the same account.
    public var burstProbability: Double
    /// Probability that the counterparty is a mule account that many victims pay.
    public var muleCounterpartyProbability: Double
    /// Probability that a new device appeared on the account in the last day.
    public var newDeviceProbability: Double
    /// Mean number of earlier `high` outcomes on the account in the last week.
    public var priorHighOutcomeMean: Double
}
