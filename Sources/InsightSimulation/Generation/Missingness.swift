/// How often a value is missing for reasons other than the story: platform limits, permissions, sensors.
/// Structural gaps (no call, so no call duration; nothing typed, so no cadence) come from the traits instead.
/// docs/SIMULATOR.md lists these rates.
enum Missingness {
    static let callDurationWhileOnCall = 0.05
    static let callerKnownWhileOnCall = 0.25
    static let remoteAccessUndetectable = 0.30
    /// Share of active remote-access sessions that detection misses (reported as 0).
    static let remoteAccessMissedDetection = 0.10
    static let hesitation = 0.03
    static let appSwitches = 0.04
    static let pastes = 0.04
    static let novelty = 0.06
    static let communicationSwitchesExtra = 0.10
    static let settingWithoutValue = 0.08
    static let authenticationRetries = 0.05
    static let pointerWithoutDrags = 0.30
    static let pointerWithoutDragsUnderRemoteControl = 0.12
    static let inputEvents = 0.03
    static let documentNothingToRead = 0.20
    static let pastedRatioNoInput = 0.10
    static let permissionGrantUnknown = 0.20
}
