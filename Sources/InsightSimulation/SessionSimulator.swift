import InsightCore

/// Draws labelled sessions of one operation category from the documented stories (docs/SIMULATOR.md).
/// Deterministic: the same catalogue, seed and positive rate give the same sessions on every machine.
public struct SessionSimulator: Sendable {
    public let category: OperationCategory
    public let catalogue: CategoryCatalogue
    public let positiveRate: Double
    public let mix: StoryMix

    enum Plan: Sendable {
        case client(SimulatedFeature)
        case velocity(VelocityFeature)
    }

    let plan: [Plan]
    let minimums: [Double]
    let maximums: [Double]
    let integral: [Bool]
    let genuineWeights: [Double]
    let coachedWeights: [Double]
    /// Probability that a session names a counterparty: always when the category requires one, often when
    /// it is optional, never when the category has none.
    let counterpartyPresence: Double
    var random: SimulationRandom
    var subjects = SubjectState()

    public init(
        category: OperationCategory, catalogue: FeatureCatalogue, seed: UInt64, positiveRate: Double,
        mix: StoryMix? = nil
    ) throws(SimulationError) {
        guard positiveRate >= 0, positiveRate <= 1 else { throw .invalidPositiveRate }
        let entry = catalogue[category]
        var plan: [Plan] = []
        for definition in entry.features {
            if definition.source == .computed, let velocity = VelocityFeature(rawValue: definition.name) {
                plan.append(.velocity(velocity))
            } else if definition.source == .client, let client = SimulatedFeature(rawValue: definition.name) {
                plan.append(.client(client))
            } else {
                throw .unsupportedFeature(name: definition.name, category: category)
            }
        }
        self.category = category
        self.catalogue = entry
        self.positiveRate = positiveRate
        self.mix = mix ?? .standard(for: category)
        self.plan = plan
        self.minimums = entry.features.map(\.minimum)
        self.maximums = entry.features.map(\.maximum)
        self.integral = entry.features.map { $0.type != .number }
        self.genuineWeights = self.mix.genuine.map(\.weight)
        self.coachedWeights = self.mix.coached.map(\.weight)
        if entry.requiredSubjectRefs.contains(.counterpartyRef) {
            counterpartyPresence = 1
        } else if entry.optionalSubjectRefs.contains(.counterpartyRef) {
            counterpartyPresence = 0.6
        } else {
            counterpartyPresence = 0
        }
        self.random = SimulationRandom(seed: seed)
    }

    /// Feature names in catalogue order, client and computed: the CSV columns after `label`.
    public var featureNames: [String] { catalogue.layout.names }

    /// The next session, with names and refs.
    public mutating func next() -> SimulatedSession {
        var row = [Double](repeating: .nan, count: plan.count)
        let outcome = row.withUnsafeMutableBufferPointer { nextRow(into: $0) }
        var features: [(name: String, value: Double?)] = []
        var computed: [(name: String, value: Double)] = []
        features.reserveCapacity(plan.count)
        for (index, step) in plan.enumerated() {
            let name = catalogue.features[index].name
            switch step {
            case .client: features.append((name, row[index].isNaN ? nil : row[index]))
            case .velocity: computed.append((name, row[index]))
            }
        }
        let refs = outcome.subject.refs
        return SimulatedSession(
            label: outcome.label, story: outcome.story, features: features, computed: computed,
            subject: SimulatedSubject(accountRef: refs.accountRef, deviceRef: refs.deviceRef, counterpartyRef: refs.counterpartyRef))
    }

    struct RowOutcome {
        var label: Bool
        var story: String
        var subject: SubjectDraw
    }

    /// The fast path behind `next()` and the CSV writer: fills `row` (catalogue order, NaN = missing).
    mutating func nextRow(into row: UnsafeMutableBufferPointer<Double>) -> RowOutcome {
        let label = random.bernoulli(positiveRate)
        let story = label
            ? mix.coached[random.categorical(coachedWeights)].story
            : mix.genuine[random.categorical(genuineWeights)].story
        let traits = SessionTraits(story: story, random: &random)
        let velocity = VelocityDraw(story: story, counterpartyPresence: counterpartyPresence, random: &random)
        let subject = subjects.draw(coached: label, velocity: velocity, novelty: traits.novelty, random: &random)
        for index in 0..<plan.count {
            var value: Double
            switch plan[index] {
            case .client(let feature):
                value = FeatureEmitter.value(of: feature, story: story, traits: traits, random: &random)
            case .velocity(let feature):
                value = FeatureEmitter.value(of: feature, velocity: velocity)
            }
            if !value.isNaN {
                if integral[index] { value = value.rounded() }
                value = min(max(value, minimums[index]), maximums[index])
            }
            row[index] = value
        }
        return RowOutcome(label: label, story: story.name, subject: subject)
    }
}
