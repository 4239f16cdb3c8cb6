/// The latent facts of one simulated session, drawn from its story before any feature is written. Features are
/// views of these, so that related features agree (no call duration without a call).
struct SessionTraits {
    var onCall = false
    var callSeconds = 0.0
    var callerKnown = false
    var screenSharing = false
    var remoteAccess = false
    var hesitationMillis = 0.0
    var typed = false
    var typingVarianceMillis = 0.0
    var sessionSeconds = 0.0
    var appSwitches = 0
    var communicationSwitches = 0
    var pastes = 0
    var hasMotionSensor = true
    var stillness = 0.0
    /// 0 new (first seen in this flow), 1 recent (days), 2 established (months or years).
    var novelty = 2
    var relativeBand = 1
    var timeOfDay = 2

    init() {}

    init(story: StoryProfile, random: inout SimulationRandom) {
        onCall = random.bernoulli(story.callProbability)
        if onCall {
            callSeconds = random.logNormal(median: story.callMedianSeconds, spread: story.callSpread)
            callerKnown = random.bernoulli(story.callerKnownProbability)
        }
        screenSharing = random.bernoulli(story.screenSharingProbability)
        remoteAccess = random.bernoulli(story.remoteAccessProbability)
        hesitationMillis = random.logNormal(median: story.hesitationMedianMillis, spread: story.hesitationSpread)
        appSwitches = random.poisson(story.appSwitchMean)
        communicationSwitches = random.binomial(appSwitches, story.communicationSwitchShare)
        pastes = random.poisson(story.pasteMean)
        // Pasting replaces typing, and a remote operator's input is not the person's keystrokes.
        let typingChance = story.typingProbability * (pastes >= 2 ? 0.7 : 1) * (remoteAccess ? 0.6 : 1)
        typed = random.bernoulli(typingChance)
        if typed {
            let median = remoteAccess ? 45 : story.typingVarianceMedianMillis
            typingVarianceMillis = random.logNormal(median: median, spread: 0.6)
        }
        sessionSeconds = random.logNormal(median: story.sessionMedianSeconds, spread: 0.9)
        hasMotionSensor = !random.bernoulli(story.noMotionSensorProbability)
        if hasMotionSensor {
            stillness = random.logitNormal(centre: story.stillnessCentre, spread: 1.0)
        }
        novelty = random.categorical(story.noveltyWeights)
        relativeBand = random.categorical(story.relativeBandWeights)
        timeOfDay = random.categorical(story.timeOfDayWeights)
    }
}
