import InsightCore
import Testing
@testable import InsightSimulation

@Suite("Simulated behaviour")
struct SimulatorBehaviourTests {
    private func sessions(_ category: OperationCategory, count: Int, seed: UInt64 = 21, positiveRate: Double = 0.3) throws -> [SimulatedSession] {
        var simulator = try SessionSimulator(
            category: category, catalogue: try SimulationTestSupport.catalogue(), seed: seed, positiveRate: positiveRate)
        return (0..<count).map { _ in simulator.next() }
    }

    @Test func positiveRateIsRespected() throws {
        for rate in [0.02, 0.2, 0.5] {
            let drawn = try sessions(.payment, count: 20_000, positiveRate: rate)
            let observed = Double(drawn.filter(\.label).count) / Double(drawn.count)
            #expect(abs(observed - rate) < 0.012, "rate \(rate) gave \(observed)")
        }
        #expect(try sessions(.other, count: 500, positiveRate: 0).allSatisfy { !$0.label })
        #expect(try sessions(.other, count: 500, positiveRate: 1).allSatisfy(\.label))
    }

    @Test(arguments: OperationCategory.allCases)
    func everySessionPassesCatalogueValidation(category: OperationCategory) throws {
        let catalogue = try SimulationTestSupport.catalogue()[category]
        for session in try sessions(category, count: 4_000) {
            switch catalogue.validate(session.featureInputs) {
            case .success(let vector):
                _ = try vector.setting(computed: session.computed)
            case .failure(let failure):
                Issue.record("\(category) \(session.story): \(failure)")
                return
            }
        }
    }

    @Test(arguments: OperationCategory.allCases)
    func optionalFeaturesAreSometimesMissingAndRequiredNever(category: OperationCategory) throws {
        let catalogue = try SimulationTestSupport.catalogue()[category]
        let drawn = try sessions(category, count: 3_000)
        var missing: [String: Int] = [:]
        for session in drawn {
            for (name, value) in session.features where value == nil { missing[name, default: 0] += 1 }
        }
        for feature in catalogue.clientFeatures {
            if feature.isRequired {
                #expect(missing[feature.name] == nil, "\(feature.name) is required but missing")
            } else {
                #expect((missing[feature.name] ?? 0) > 0, "\(feature.name) is never missing")
            }
        }
    }

    @Test func missingnessIsInformative() throws {
        // No call, no call duration: the gap itself says something about the story.
        let drawn = try sessions(.payment, count: 10_000)
        func missingRate(_ label: Bool) -> Double {
            let group = drawn.filter { $0.label == label }
            let gaps = group.filter { $0.features.first { $0.name == "callDurationSeconds" }!.value == nil }.count
            return Double(gaps) / Double(group.count)
        }
        #expect(missingRate(false) - missingRate(true) > 0.3)
    }

    private func rate(_ drawn: [SimulatedSession], _ name: String, label: Bool) -> Double {
        let group = drawn.filter { $0.label == label }
        let on = group.filter { $0.features.first { $0.name == name }?.value == 1 }.count
        return Double(on) / Double(group.count)
    }

    private func median(_ drawn: [SimulatedSession], _ name: String, label: Bool, computed: Bool = false) -> Double {
        let values = drawn.filter { $0.label == label }.compactMap { session -> Double? in
            computed ? session.computed.first { $0.name == name }?.value : session.features.first { $0.name == name }?.value ?? nil
        }.sorted()
        return values[values.count / 2]
    }

    @Test func storiesSeparateTheLabels() throws {
        let payment = try sessions(.payment, count: 10_000)
        #expect(rate(payment, "activeCall", label: true) - rate(payment, "activeCall", label: false) > 0.35)
        #expect(rate(payment, "screenSharingActive", label: true) > 4 * rate(payment, "screenSharingActive", label: false))
        #expect(median(payment, "hesitationMillis", label: true) > 1.8 * median(payment, "hesitationMillis", label: false))
        #expect(median(payment, "amountBandRelativeToUsual", label: true) > median(payment, "amountBandRelativeToUsual", label: false))
        let resource = try sessions(.resourceUse, count: 10_000)
        #expect(rate(resource, "remoteAccessAppActive", label: true) > 10 * rate(resource, "remoteAccessAppActive", label: false))
    }

    @Test func labelsOverlapAsInRealUse() throws {
        let payment = try sessions(.payment, count: 10_000)
        // Genuine people are on calls too, and some coaching happens without any call.
        #expect(rate(payment, "activeCall", label: false) > 0.1)
        #expect(rate(payment, "activeCall", label: true) < 0.85)
        let stories = Set(payment.map(\.story))
        #expect(stories.isSuperset(of: ["routine", "techSupportScam", "authorityImpersonation", "familyEmergency", "messagingCoached"]))
    }

    @Test func velocityContextReflectsMulesAndBursts() throws {
        let payment = try sessions(.payment, count: 20_000)
        #expect(median(payment, "distinctAccountsPerCounterparty1h", label: true, computed: true) > 1)
        #expect(median(payment, "distinctAccountsPerCounterparty1h", label: false, computed: true) == 1)
        // The refs reproduce the pattern: coached sessions concentrate on few counterparties.
        let coached = payment.filter(\.label).prefix(2_000)
        let genuine = payment.filter { !$0.label }.prefix(2_000)
        let coachedPayees = Set(coached.compactMap(\.subject.counterpartyRef)).count
        let genuinePayees = Set(genuine.compactMap(\.subject.counterpartyRef)).count
        #expect(Double(coachedPayees) < 0.7 * Double(genuinePayees))
        // Bursts reuse one account for consecutive coached evaluations.
        let coachedAccounts = Set(coached.map(\.subject.accountRef)).count
        #expect(coachedAccounts < coached.count)
        // Categories without counterparties report none.
        let account = try sessions(.account, count: 200)
        #expect(account.allSatisfy { $0.subject.counterpartyRef == nil })
        #expect(account.allSatisfy { $0.computed.first { $0.name == "distinctAccountsPerCounterparty1h" }?.value == 0 })
    }

    @Test func refusesBadRatesAndUnknownFeatures() throws {
        let catalogue = try SimulationTestSupport.catalogue()
        #expect(throws: SimulationError.invalidPositiveRate) {
            try SessionSimulator(category: .payment, catalogue: catalogue, seed: 1, positiveRate: 1.5)
        }
        let odd = try CategoryCatalogue(
            category: .other, version: "t", requiredSubjectRefs: [.accountRef],
            features: [.flag("activeCall", required: true, description: "d"), .flag("somethingNew", required: false, description: "d")])
        var all = OperationCategory.allCases.filter { $0 != .other }.map { catalogue[$0] }
        all.append(odd)
        #expect(throws: SimulationError.unsupportedFeature(name: "somethingNew", category: .other)) {
            try SessionSimulator(category: .other, catalogue: try FeatureCatalogue(all), seed: 1, positiveRate: 0.1)
        }
    }
}
