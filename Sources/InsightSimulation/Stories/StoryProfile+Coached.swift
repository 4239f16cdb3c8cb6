/// Stories of coached use: a scammer guides the person in real time. Each changes the genuine baseline where
/// the scam leaves its traces.
extension StoryProfile {
    /// Common to all coaching: instructions take time, the target is new, the amount unusual.
    static let coachedBaseline: StoryProfile = routine.with(name: "coachedBaseline") {
        $0.isCoached = true
        $0.callerKnownProbability = 0.1
        $0.hesitationMedianMillis = 5000
        $0.hesitationSpread = 0.8
        $0.typingVarianceMedianMillis = 170
        $0.sessionMedianSeconds = 240
        $0.noveltyWeights = [0.75, 0.17, 0.08]
        $0.relativeBandWeights = [0.03, 0.2, 0.37, 0.3, 0.1]
        $0.changeKindWeights = [0.05, 0.3, 0.25, 0.3, 0.07, 0.03]
        $0.authenticationRetryMean = 0.7
        $0.documentDwellMedianSeconds = 8
        $0.pastedCharacterCentre = 0.45
        $0.irreversibleProbability = 0.5
        $0.permissionGrantProbability = 0.45
        $0.burstProbability = 0.3
        $0.muleCounterpartyProbability = 0.45
        $0.newDeviceProbability = 0.12
        $0.priorHighOutcomeMean = 0.3
    }

    /// A fake alert leads to a "support" call; the scammer installs remote access and shares the screen, then
    /// drives the operation. Long calls from unknown numbers, the device lying still, input that is not typing.
    public static let techSupportScam: StoryProfile = coachedBaseline.with(name: "techSupportScam") {
        $0.callProbability = 0.85
        $0.callerKnownProbability = 0.04
        $0.callMedianSeconds = 2100
        $0.callSpread = 0.5
        $0.screenSharingProbability = 0.7
        $0.remoteAccessProbability = 0.75
        $0.hesitationMedianMillis = 6500
        $0.typingProbability = 0.55
        $0.typingVarianceMedianMillis = 60
        $0.sessionMedianSeconds = 420
        $0.appSwitchMean = 3
        $0.communicationSwitchShare = 0.2
        $0.pasteMean = 1.8
        $0.stillnessCentre = 0.85
        $0.noMotionSensorProbability = 0.35
        $0.inputEventsMedianPerMinute = 95
        $0.pointerStraightnessCentre = 0.7
        $0.newDeviceProbability = 0.3
    }

    /// A caller poses as the bank, the police or a tax office: a long call from an unknown (or spoofed, so
    /// apparently known) number, urgency, a "safe account" that is new, an amount far above usual, office hours.
    public static let authorityImpersonation: StoryProfile = coachedBaseline.with(name: "authorityImpersonation") {
        $0.callProbability = 0.95
        $0.callerKnownProbability = 0.25
        $0.callMedianSeconds = 2700
        $0.callSpread = 0.6
        $0.screenSharingProbability = 0.1
        $0.remoteAccessProbability = 0.08
        $0.hesitationMedianMillis = 7000
        $0.typingVarianceMedianMillis = 210
        $0.sessionMedianSeconds = 300
        $0.appSwitchMean = 1.8
        $0.pasteMean = 0.9
        $0.stillnessCentre = 0.55
        $0.noveltyWeights = [0.85, 0.1, 0.05]
        $0.relativeBandWeights = [0.02, 0.1, 0.3, 0.4, 0.18]
        $0.timeOfDayWeights = [0.02, 0.45, 0.43, 0.1]
        $0.burstProbability = 0.55
        $0.muleCounterpartyProbability = 0.7
    }

    /// "Mum, I lost my phone, pay this for me": a message (sometimes a deepfaked voice call from an unknown
    /// number), a new payee, an unusual amount, often at odd hours, details pasted from the chat.
    public static let familyEmergency: StoryProfile = coachedBaseline.with(name: "familyEmergency") {
        $0.callProbability = 0.35
        $0.callerKnownProbability = 0.15
        $0.callMedianSeconds = 420
        $0.hesitationMedianMillis = 4200
        $0.sessionMedianSeconds = 180
        $0.appSwitchMean = 3
        $0.communicationSwitchShare = 0.75
        $0.pasteMean = 2.2
        $0.stillnessCentre = 0.25
        $0.noveltyWeights = [0.9, 0.07, 0.03]
        $0.relativeBandWeights = [0.0, 0.1, 0.45, 0.35, 0.1]
        $0.timeOfDayWeights = [0.33, 0.15, 0.2, 0.32]
        $0.burstProbability = 0.25
        $0.muleCounterpartyProbability = 0.5
    }

    /// Coaching over a messaging app with no call at all (investment and romance scams): the person goes back
    /// and forth to the chat and pastes what they are told. The coached story most like genuine use.
    public static let messagingCoached: StoryProfile = coachedBaseline.with(name: "messagingCoached") {
        $0.callProbability = 0.05
        $0.callerKnownProbability = 0.3
        $0.hesitationMedianMillis = 3600
        $0.sessionMedianSeconds = 240
        $0.appSwitchMean = 4
        $0.communicationSwitchShare = 0.8
        $0.pasteMean = 2.6
        $0.stillnessCentre = 0.3
        $0.noveltyWeights = [0.55, 0.3, 0.15]
        $0.relativeBandWeights = [0.05, 0.25, 0.4, 0.25, 0.05]
        $0.timeOfDayWeights = [0.12, 0.25, 0.3, 0.33]
        $0.burstProbability = 0.2
        $0.muleCounterpartyProbability = 0.4
        $0.priorHighOutcomeMean = 0.2
    }

    /// The person was coached earlier (by a call or chat that has ended) and now acts alone, following notes:
    /// behaviour close to routine, only the new payee, a higher amount and the mule counterparty remain.
    /// The story that keeps the data from being too easy.
    public static let preCoached: StoryProfile = coachedBaseline.with(name: "preCoached") {
        $0.callProbability = 0.08
        $0.callerKnownProbability = 0.6
        $0.hesitationMedianMillis = 2600
        $0.typingVarianceMedianMillis = 110
        $0.sessionMedianSeconds = 120
        $0.appSwitchMean = 1.0
        $0.communicationSwitchShare = 0.4
        $0.pasteMean = 0.8
        $0.noveltyWeights = [0.5, 0.3, 0.2]
        $0.relativeBandWeights = [0.1, 0.35, 0.35, 0.15, 0.05]
        $0.changeKindWeights = [0.2, 0.35, 0.2, 0.17, 0.05, 0.03]
        $0.documentDwellMedianSeconds = 20
        $0.pastedCharacterCentre = 0.2
        $0.irreversibleProbability = 0.3
        $0.permissionGrantProbability = 0.25
        $0.burstProbability = 0.15
        $0.muleCounterpartyProbability = 0.35
        $0.newDeviceProbability = 0.07
        $0.priorHighOutcomeMean = 0.1
    }

    /// Returns a copy with another name and the changes `edit` makes.
    func with(name: String, _ edit: (inout StoryProfile) -> Void) -> StoryProfile {
        var copy = self
        copy.name = name
        edit(&copy)
        return copy
    }
}
