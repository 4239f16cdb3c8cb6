import InsightCore

/// Writes each simulated feature from a session's traits, adding the platform's own gaps (Missingness).
/// NaN stands for a missing value.
enum FeatureEmitter {
    static func value(
        of feature: SimulatedFeature, story: StoryProfile, traits: SessionTraits, random: inout SimulationRandom
    ) -> Double {
        switch feature {
        case .activeCall:
            return traits.onCall ? 1 : 0
        case .callDurationSeconds:
            guard traits.onCall, !random.bernoulli(Missingness.callDurationWhileOnCall) else { return .nan }
            return traits.callSeconds.rounded()
        case .callerKnownToPerson:
            guard traits.onCall, !random.bernoulli(Missingness.callerKnownWhileOnCall) else { return .nan }
            return traits.callerKnown ? 1 : 0
        case .screenSharingActive:
            return traits.screenSharing ? 1 : 0
        case .remoteAccessAppActive:
            if random.bernoulli(Missingness.remoteAccessUndetectable) { return .nan }
            return traits.remoteAccess && !random.bernoulli(Missingness.remoteAccessMissedDetection) ? 1 : 0
        case .hesitationMillis:
            return random.bernoulli(Missingness.hesitation) ? .nan : traits.hesitationMillis.rounded()
        case .typingCadenceVarianceMillis:
            return traits.typed ? traits.typingVarianceMillis.rounded() : .nan
        case .appSwitchesDuringFlow:
            return random.bernoulli(Missingness.appSwitches) ? .nan : Double(traits.appSwitches)
        case .pasteEventsInFlow:
            return random.bernoulli(Missingness.pastes) ? .nan : Double(traits.pastes)
        case .deviceMotionStillnessRatio:
            return traits.hasMotionSensor ? thousandths(traits.stillness) : .nan
        case .sessionDurationSeconds:
            return max(1, traits.sessionSeconds.rounded())
        case .timeOfDayBand:
            return Double(traits.timeOfDay)
        case .secondsSincePayeeFirstSeen, .secondsSinceRecipientFirstSeen, .secondsSinceResourceFirstUsed:
            return random.bernoulli(Missingness.novelty) ? .nan : noveltySeconds(traits.novelty, random: &random)
        case .amountBandRelativeToUsual, .requestCostBandRelativeToUsual:
            return Double(traits.relativeBand)
        case .communicationAppSwitchesDuringFlow:
            return random.bernoulli(Missingness.communicationSwitchesExtra) ? .nan : Double(traits.communicationSwitches)
        case .changeKindBand:
            return Double(random.categorical(story.changeKindWeights))
        case .secondsSinceSettingFirstSeen:
            if random.bernoulli(Missingness.settingWithoutValue) { return .nan }
            // Coaching tends to replace long-standing details (the email or phone of many years).
            let median = story.isCoached ? 9.5e7 : 3.2e7
            return random.logNormal(median: median, spread: story.isCoached ? 0.8 : 1.2).rounded()
        case .authenticationRetriesInFlow:
            return random.bernoulli(Missingness.authenticationRetries) ? .nan : Double(random.poisson(story.authenticationRetryMean))
        case .pointerPathStraightnessRatio:
            let gap = traits.remoteAccess ? Missingness.pointerWithoutDragsUnderRemoteControl : Missingness.pointerWithoutDrags
            if random.bernoulli(gap) { return .nan }
            let centre = traits.remoteAccess ? 0.9 : story.pointerStraightnessCentre
            return thousandths(random.logitNormal(centre: centre, spread: 0.8))
        case .inputEventsPerMinute:
            if random.bernoulli(Missingness.inputEvents) { return .nan }
            let median = traits.remoteAccess ? 110 : story.inputEventsMedianPerMinute
            return (random.logNormal(median: median, spread: 0.5) * 10).rounded() / 10
        case .documentReadDwellSeconds:
            if random.bernoulli(Missingness.documentNothingToRead) { return .nan }
            return random.logNormal(median: story.documentDwellMedianSeconds, spread: 0.9).rounded()
        case .pastedCharacterRatio:
            if !traits.typed, traits.pastes == 0 { return .nan }
            if random.bernoulli(Missingness.pastedRatioNoInput) { return .nan }
            if traits.pastes == 0 { return 0 }
            if !traits.typed { return 1 }
            return thousandths(random.logitNormal(centre: story.pastedCharacterCentre, spread: 0.8))
        case .irreversibleOperation:
            return random.bernoulli(story.irreversibleProbability) ? 1 : 0
        case .permissionGrantInFlow:
            if random.bernoulli(Missingness.permissionGrantUnknown) { return .nan }
            return random.bernoulli(story.permissionGrantProbability) ? 1 : 0
        }
    }

    static func value(of feature: VelocityFeature, velocity: VelocityDraw) -> Double {
        switch feature {
        case .evaluationsPerAccount10m: Double(velocity.evaluations10m)
        case .evaluationsPerAccount1h: Double(velocity.evaluations1h)
        case .evaluationsPerAccount24h: Double(velocity.evaluations24h)
        case .distinctDevicesPerAccount24h: Double(velocity.distinctDevices24h)
        case .distinctAccountsPerCounterparty1h: Double(velocity.distinctAccountsPerCounterparty1h)
        case .highOutcomesPerAccount7d: Double(velocity.highOutcomes7d)
        }
    }

    /// Seconds since a payee, recipient or resource was first seen, by novelty class.
    static func noveltySeconds(_ novelty: Int, random: inout SimulationRandom) -> Double {
        switch novelty {
        case 0: random.bernoulli(0.6) ? 0 : (random.uniform() * 600).rounded()
        case 1: random.logNormal(median: 172_800, spread: 0.9).rounded()
        default: random.logNormal(median: 2.6e7, spread: 1.0).rounded()
        }
    }

    /// Ratios are reported to three decimals, as a client would quantise them.
    static func thousandths(_ value: Double) -> Double {
        (value * 1000).rounded() / 1000
    }
}
