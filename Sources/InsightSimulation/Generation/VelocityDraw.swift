/// The velocity context of one session: the counts the service would compute from earlier evaluations.
/// Drawn from the story (bursts, mule counterparties, new devices, earlier `high` outcomes) rather than replayed
/// from a timeline; `SubjectDraw` picks refs that reproduce the same patterns when the service counts them.
struct VelocityDraw {
    var burst = false
    var muleCounterparty = false
    var popularCounterparty = false
    var newDevice = false
    var hasCounterparty = false
    var evaluations10m = 1
    var evaluations1h = 1
    var evaluations24h = 1
    var distinctDevices24h = 1
    var distinctAccountsPerCounterparty1h = 0
    var highOutcomes7d = 0

    init() {}

    init(story: StoryProfile, counterpartyPresence: Double, random: inout SimulationRandom) {
        burst = random.bernoulli(story.burstProbability)
        evaluations10m = 1 + random.poisson(burst ? 2.5 : 0.12)
        evaluations1h = evaluations10m + random.poisson(burst ? 1.5 : 0.35)
        evaluations24h = evaluations1h + random.poisson(burst ? 2.5 : 1.8)
        newDevice = random.bernoulli(story.newDeviceProbability)
        distinctDevices24h = newDevice ? 2 + random.poisson(0.2) : 1
        hasCounterparty = random.bernoulli(counterpartyPresence)
        if hasCounterparty {
            muleCounterparty = random.bernoulli(story.muleCounterpartyProbability)
            // Genuine payees include big merchants and utilities that many accounts pay every hour.
            popularCounterparty = !muleCounterparty && random.bernoulli(story.isCoached ? 0.02 : 0.05)
            if muleCounterparty {
                distinctAccountsPerCounterparty1h = 1 + Int(random.logNormal(median: 4, spread: 0.8).rounded())
            } else if popularCounterparty {
                distinctAccountsPerCounterparty1h = 1 + Int(random.logNormal(median: 12, spread: 1.0).rounded())
            } else {
                distinctAccountsPerCounterparty1h = 1 + random.poisson(0.03)
            }
        }
        highOutcomes7d = random.poisson(story.priorHighOutcomeMean)
    }
}
