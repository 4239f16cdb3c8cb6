/// Stories of genuine use. The baseline is a routine session; the others change only what makes them differ.
extension StoryProfile {
    /// A person acting on their own: no call, short pauses, a known payee and a usual amount, in the day.
    public static let routine = StoryProfile(
        name: "routine", isCoached: false,
        callProbability: 0.06, callerKnownProbability: 0.8, callMedianSeconds: 240, callSpread: 0.9,
        screenSharingProbability: 0.01, remoteAccessProbability: 0.003,
        hesitationMedianMillis: 1800, hesitationSpread: 0.9, typingVarianceMedianMillis: 90, typingProbability: 0.8,
        sessionMedianSeconds: 90, appSwitchMean: 0.7, communicationSwitchShare: 0.3, pasteMean: 0.25,
        stillnessCentre: 0.3, noMotionSensorProbability: 0.12,
        noveltyWeights: [0.05, 0.12, 0.83],
        relativeBandWeights: [0.3, 0.58, 0.09, 0.025, 0.005],
        timeOfDayWeights: [0.04, 0.3, 0.36, 0.3],
        changeKindWeights: [0.45, 0.25, 0.18, 0.08, 0.02, 0.02],
        authenticationRetryMean: 0.15, documentDwellMedianSeconds: 35, pastedCharacterCentre: 0.08,
        inputEventsMedianPerMinute: 45, pointerStraightnessCentre: 0.6,
        irreversibleProbability: 0.15, permissionGrantProbability: 0.1,
        burstProbability: 0.04, muleCounterpartyProbability: 0.0, newDeviceProbability: 0.05,
        priorHighOutcomeMean: 0.02)

    /// Genuine use while on a call with someone the person knows (splitting a bill, a partner reading out details).
    public static let genuineOnCall: StoryProfile = routine.with(name: "genuineOnCall") {
        $0.callProbability = 1
        $0.callerKnownProbability = 0.85
        $0.callMedianSeconds = 360
        $0.hesitationMedianMillis = 2600
        $0.appSwitchMean = 1.2
        $0.communicationSwitchShare = 0.45
        $0.stillnessCentre = 0.4
    }

    /// A genuine first payment to a new payee (a tradesperson, a marketplace seller), sometimes on the phone
    /// with them: new counterparty, higher amount, pasted details.
    public static let genuineNewCounterparty: StoryProfile = routine.with(name: "genuineNewCounterparty") {
        $0.callProbability = 0.18
        $0.callerKnownProbability = 0.4
        $0.callMedianSeconds = 300
        $0.hesitationMedianMillis = 3000
        $0.pasteMean = 1.1
        $0.sessionMedianSeconds = 180
        $0.appSwitchMean = 1.3
        $0.communicationSwitchShare = 0.5
        $0.noveltyWeights = [0.7, 0.2, 0.1]
        $0.relativeBandWeights = [0.1, 0.45, 0.33, 0.1, 0.02]
        $0.changeKindWeights = [0.25, 0.45, 0.15, 0.12, 0.02, 0.01]
        $0.pastedCharacterCentre = 0.25
    }

    /// Genuine help: a relative or the real support desk guides the person, sometimes sharing the screen or
    /// with a remote-access tool. The hardest genuine story to tell from a scam.
    public static let assistedGenuine: StoryProfile = routine.with(name: "assistedGenuine") {
        $0.callProbability = 0.7
        $0.callerKnownProbability = 0.7
        $0.callMedianSeconds = 720
        $0.screenSharingProbability = 0.5
        $0.remoteAccessProbability = 0.15
        $0.hesitationMedianMillis = 3800
        $0.sessionMedianSeconds = 240
        $0.appSwitchMean = 2
        $0.stillnessCentre = 0.55
        $0.noMotionSensorProbability = 0.25
        $0.noveltyWeights = [0.25, 0.25, 0.5]
        $0.changeKindWeights = [0.2, 0.3, 0.25, 0.2, 0.04, 0.01]
        $0.newDeviceProbability = 0.12
    }

    /// A night owl: routine behaviour at unusual hours, slower and a little more hesitant.
    public static let lateNight: StoryProfile = routine.with(name: "lateNight") {
        $0.timeOfDayWeights = [0.7, 0.02, 0.03, 0.25]
        $0.hesitationMedianMillis = 2400
        $0.typingVarianceMedianMillis = 120
        $0.stillnessCentre = 0.45
    }
}
