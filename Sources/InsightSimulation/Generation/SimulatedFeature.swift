import InsightCore

/// The client features the simulator knows how to produce. A catalogue feature outside this list makes the
/// simulator refuse to start rather than invent data for it.
enum SimulatedFeature: String, CaseIterable {
    case activeCall
    case callDurationSeconds
    case callerKnownToPerson
    case screenSharingActive
    case remoteAccessAppActive
    case hesitationMillis
    case typingCadenceVarianceMillis
    case appSwitchesDuringFlow
    case pasteEventsInFlow
    case deviceMotionStillnessRatio
    case sessionDurationSeconds
    case timeOfDayBand
    case secondsSincePayeeFirstSeen
    case amountBandRelativeToUsual
    case communicationAppSwitchesDuringFlow
    case changeKindBand
    case secondsSinceSettingFirstSeen
    case authenticationRetriesInFlow
    case requestCostBandRelativeToUsual
    case secondsSinceResourceFirstUsed
    case pointerPathStraightnessRatio
    case inputEventsPerMinute
    case secondsSinceRecipientFirstSeen
    case documentReadDwellSeconds
    case pastedCharacterRatio
    case irreversibleOperation
    case permissionGrantInFlow
}
