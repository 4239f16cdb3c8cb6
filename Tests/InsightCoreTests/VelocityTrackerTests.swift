#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import InsightCore

@Suite struct VelocityTrackerTests {
    let account = SubjectKey(high: 1, low: 1)
    let otherAccount = SubjectKey(high: 2, low: 2)
    let deviceA = SubjectKey(high: 10, low: 10)
    let deviceB = SubjectKey(high: 11, low: 11)
    let payee = SubjectKey(high: 20, low: 20)
    let minute: Int64 = 60_000
    static let bank = VelocityPartition(tenant: TenantID("bank")!, environment: .production)

    private func observe(
        _ tracker: VelocityTracker, _ partition: VelocityPartition = bank, account: SubjectKey, device: SubjectKey? = nil,
        payee: SubjectKey? = nil, at time: Int64
    ) -> VelocityCounts {
        tracker.observe(.init(partition: partition, account: account, device: device, counterparty: payee, time: time))
    }

    /// Loop B's request arrived a millisecond after loop A's but reached the tracker first: the window counts stay
    /// exact at every cutoff, and expiry drops exactly the old times.
    @Test func timesObservedOutOfOrderAreCountedAsIfInOrder() {
        var ring = TimestampRing()
        for time: Int64 in [100, 102, 101, 104, 103, 99] { ring.append(time, capacity: 10) }
        #expect((98...105).map { ring.count(after: $0) } == [6, 5, 4, 3, 2, 1, 0, 0])
        // Counted at 101, the times 102 to 104 that were recorded first are not in its window.
        #expect(ring.count(after: 98, through: 101) == 3)
        #expect(ring.count(after: 98, through: 104) == 6)
        ring.removeAll(atOrBefore: 101)
        #expect(ring.count == 3)
        #expect(ring.count(after: 102) == 2)
        // Full: the newest times stay, whatever order they came in.
        var full = TimestampRing()
        for time: Int64 in [10, 30, 20, 5, 40] { full.append(time, capacity: 3) }
        #expect(full.count == 3)
        #expect(full.count(after: 19) == 3)
        #expect(full.count(after: 20) == 2)
    }

    @Test func countsEvaluationsInExactSlidingWindows() {
        let tracker = VelocityTracker(configuration: .standard)
        let start: Int64 = 1_800_000_000_000
        var counts = observe(tracker, account: account, at: start)
        #expect(counts.value(named: "evaluationsPerAccount10m") == 1)
        counts = observe(tracker, account: account, at: start + 9 * minute)
        #expect(counts.value(named: "evaluationsPerAccount10m") == 2)
        // Exactly ten minutes after the first: the first falls out (the window is (now - 10 min, now]).
        counts = observe(tracker, account: account, at: start + 10 * minute)
        #expect(counts.value(named: "evaluationsPerAccount10m") == 2)
        #expect(counts.value(named: "evaluationsPerAccount1h") == 3)
        counts = observe(tracker, account: account, at: start + (24 * 60 + 5) * minute)
        #expect(counts.value(named: "evaluationsPerAccount24h") == 3)
        #expect(counts.value(named: "evaluationsPerAccount1h") == 1)
    }

    @Test func countsDistinctDevicesAndAccountsPerCounterparty() {
        let tracker = VelocityTracker(configuration: .standard)
        let start: Int64 = 1_800_000_000_000
        _ = observe(tracker, account: account, device: deviceA, payee: payee, at: start)
        _ = observe(tracker, account: account, device: deviceA, payee: payee, at: start + minute)
        var counts = observe(tracker, account: account, device: deviceB, payee: payee, at: start + 2 * minute)
        #expect(counts.value(named: "distinctDevicesPerAccount24h") == 2)
        #expect(counts.value(named: "distinctAccountsPerCounterparty1h") == 1)
        counts = observe(tracker, account: otherAccount, device: deviceA, payee: payee, at: start + 3 * minute)
        #expect(counts.value(named: "distinctAccountsPerCounterparty1h") == 2)
        #expect(counts.value(named: "distinctDevicesPerAccount24h") == 1)
        counts = observe(tracker, account: otherAccount, payee: payee, at: start + 62 * minute)
        #expect(counts.value(named: "distinctAccountsPerCounterparty1h") == 1)
    }

    /// After the clock steps back a minute, the devices and accounts seen in that minute are "after" the new now:
    /// left out until the clock passes them again, as the evaluation counts leave theirs out, so that no count is
    /// higher than the exact one. The member of the request itself always counts. Before, every one of them was
    /// counted again and a fourth device read as four (velocity probe, 6 December).
    @Test func aClockSteppedBackNeverRaisesADistinctCount() {
        let tracker = VelocityTracker(configuration: .standard)
        let start: Int64 = 1_800_000_000_000
        let devices = (0..<4).map { SubjectKey(high: 100 + UInt64($0), low: 100 + UInt64($0)) }
        let accounts = (0..<8).map { SubjectKey(high: 200 + UInt64($0), low: 200 + UInt64($0)) }
        for (offset, device) in devices.prefix(3).enumerated() {
            _ = observe(tracker, account: account, device: device, at: start + Int64(offset) * 300)
        }
        for (offset, payer) in accounts.prefix(7).enumerated() {
            _ = observe(tracker, account: payer, payee: payee, at: start + Int64(offset) * 300)
        }
        let stepped = start + 2_000 - minute
        var counts = observe(tracker, account: account, device: devices[3], at: stepped)
        #expect(counts.value(named: "distinctDevicesPerAccount24h") == 1)
        counts = observe(tracker, account: accounts[7], payee: payee, at: stepped + 1)
        #expect(counts.value(named: "distinctAccountsPerCounterparty1h") == 1)
        // A device seen "in the future" and again now counts once, as seen now.
        counts = observe(tracker, account: account, device: devices[0], at: stepped + 2)
        #expect(counts.value(named: "distinctDevicesPerAccount24h") == 2)
        // Once the clock has passed the times recorded before the step, they count again.
        counts = observe(tracker, account: account, device: devices[3], at: start + 5 * minute)
        #expect(counts.value(named: "distinctDevicesPerAccount24h") == 4)
        counts = observe(tracker, account: accounts[7], payee: payee, at: start + 5 * minute)
        #expect(counts.value(named: "distinctAccountsPerCounterparty1h") == 8)
    }

    @Test func highOutcomesCountPriorHighsInSevenDays() {
        let tracker = VelocityTracker(configuration: .standard)
        let day: Int64 = 86_400_000
        let start: Int64 = 1_800_000_000_000
        for offset in 0..<3 {
            _ = observe(tracker, account: account, at: start + Int64(offset) * day)
            tracker.recordHighOutcome(account: account, at: start + Int64(offset) * day)
        }
        var counts = observe(tracker, account: account, at: start + 3 * day)
        #expect(counts.value(named: "highOutcomesPerAccount7d") == 3)
        #expect(counts.floor == .high)
        #expect(counts.firedRules.map(\.name) == ["repeatedHighOutcomes"])
        counts = observe(tracker, account: account, at: start + 7 * day + 1)
        #expect(counts.value(named: "highOutcomesPerAccount7d") == 2)
    }

    @Test func rulesRaiseTheFloorNeverLowerIt() {
        let tracker = VelocityTracker(configuration: .standard)
        var counts = observe(tracker, account: account, at: 0)
        #expect(counts.floor == .unknown)
        for second in 1...5 { counts = observe(tracker, account: account, at: Int64(second) * 1000) }
        #expect(counts.value(named: "evaluationsPerAccount10m") == 6)
        #expect(counts.floor == .medium)
    }

    @Test func countsSaturateAtTheConfiguredBound() {
        var configuration = VelocityConfiguration.standard
        configuration.limits.maxEventsPerSubject = 4
        let tracker = VelocityTracker(configuration: configuration)
        var counts = observe(tracker, account: account, at: 0)
        for second in 1...10 { counts = observe(tracker, account: account, at: Int64(second) * 1000) }
        #expect(counts.value(named: "evaluationsPerAccount10m") == 4)
    }

    @Test func evictsLeastRecentlyActiveSubjectsWhenFull() {
        var configuration = VelocityConfiguration.standard
        configuration.limits.maxTrackedAccounts = 160
        let tracker = VelocityTracker(configuration: configuration, shardCount: 16)
        for index in 0..<10_000 {
            _ = observe(tracker, account: SubjectKey(high: 0, low: UInt64(index)), at: Int64(index))
        }
        #expect(tracker.trackedAccounts <= 160)
        // The most recent subject is still tracked.
        let counts = observe(tracker, account: SubjectKey(high: 0, low: 9_999), at: 10_000)
        #expect(counts.value(named: "evaluationsPerAccount10m") == 2)
        // Every account dropped still held counts (all within their windows): each is counted for /metrics.
        #expect(tracker.evictedAccounts == 10_000 - tracker.trackedAccounts)
        #expect(tracker.evictedCounterparties == 0)
    }

    /// Entries whose windows have all passed are dropped first, and are no eviction: they held no count.
    @Test func dropsOfEntriesWithoutCountsAreNotCountedAsEvictions() {
        var configuration = VelocityConfiguration.standard
        configuration.limits.maxTrackedAccounts = 1024
        let tracker = VelocityTracker(configuration: configuration, shardCount: 16)
        for index in 0..<1_024 { _ = observe(tracker, account: SubjectKey(high: 0, low: UInt64(index)), at: 0) }
        let eightDays: Int64 = 8 * 86_400_000
        for index in 1_024..<3_072 { _ = observe(tracker, account: SubjectKey(high: 0, low: UInt64(index)), at: eightDays) }
        #expect(tracker.evictedAccounts > 0, "the second thousand fills the shards again")
        #expect(tracker.evictedAccounts <= 3_072 - 1_024 - tracker.trackedAccounts, "the first thousand were expired, not evicted")
    }

    /// Another tenant's flood of new accounts, or the same tenant's sandbox load test, fills the shared bound: a
    /// full shard makes room in the partition that holds the most (sandbox first), so the quiet production
    /// tenant's accounts keep their counts.
    /// The smallest bound the file allows: 64 accounts per shard, so a test fills it in milliseconds.
    static func trackerHolding1024Accounts() -> VelocityTracker {
        var configuration = VelocityConfiguration.standard
        configuration.limits.maxTrackedAccounts = 1024
        return VelocityTracker(configuration: configuration, shardCount: 16)
    }

    @Test func aFullTrackerEvictsFromTheLargestPartitionSandboxFirst() {
        let tracker = Self.trackerHolding1024Accounts()
        let victims = (0..<32).map { SubjectKey(high: 1, low: UInt64($0)) }
        for account in victims {
            for second in 0..<5 { _ = observe(tracker, account: account, at: Int64(second) * 1000) }
        }
        let flooders = [
            VelocityPartition(tenant: TenantID("other")!, environment: .production),
            VelocityPartition(tenant: TenantID("bank")!, environment: .sandbox),
        ]
        for flooder in flooders {
            for index in 0..<20_000 {
                _ = observe(tracker, flooder, account: SubjectKey(high: 2, low: UInt64(index)), at: 10_000 + Int64(index))
            }
        }
        #expect(tracker.trackedAccounts <= 1024)
        for account in victims {
            let counts = observe(tracker, account: account, at: 40_000)
            #expect(counts.value(named: "evaluationsPerAccount10m") == 6)
            #expect(counts.firedRules.map(\.name) == ["accountEvaluationBurst"])
        }
    }

    /// Evictions are counted by their subjects' environment: a sandbox load test filling the tracker evicted only
    /// sandbox accounts, yet the one counter it moved fired the alert to raise the limits (resources probe,
    /// 6 December).
    @Test func evictionsAreCountedByTheEnvironmentOfTheirSubjects() {
        let tracker = Self.trackerHolding1024Accounts()
        let production = VelocityPartition(tenant: TenantID("bank")!, environment: .production)
        let sandbox = VelocityPartition(tenant: TenantID("bank")!, environment: .sandbox)
        for index in 0..<200 { _ = observe(tracker, production, account: SubjectKey(high: 1, low: UInt64(index)), at: Int64(index)) }
        for index in 0..<5_000 { _ = observe(tracker, sandbox, account: SubjectKey(high: 2, low: UInt64(index)), at: 1_000 + Int64(index)) }
        #expect(tracker.evicted(in: .sandbox).accounts > 3_000)
        #expect(tracker.evicted(in: .production).accounts == 0)
        let other = VelocityPartition(tenant: TenantID("other")!, environment: .production)
        for index in 0..<5_000 { _ = observe(tracker, other, account: SubjectKey(high: 3, low: UInt64(index)), at: 10_000 + Int64(index)) }
        #expect(tracker.evicted(in: .production).accounts > 3_000)
        #expect(tracker.evicted(in: .sandbox).accounts + tracker.evicted(in: .production).accounts == tracker.evictedAccounts)
        #expect(tracker.evicted(in: .sandbox).counterparties == 0 && tracker.evicted(in: .production).counterparties == 0)
    }

    /// Entries whose every window has passed hold no count and go first: a tenant's accounts from last month do not
    /// make it the largest partition, nor push out the accounts another tenant evaluates now.
    @Test func expiredEntriesGoBeforeAnyLiveOne() {
        let tracker = Self.trackerHolding1024Accounts()
        let old = VelocityPartition(tenant: TenantID("old")!, environment: .production)
        for index in 0..<600 {
            _ = observe(tracker, old, account: SubjectKey(high: 3, low: UInt64(index)), at: Int64(index))
        }
        let later: Int64 = 8 * 86_400_000  // beyond every shipped window, 7 days the longest
        let live = (0..<700).map { SubjectKey(high: 4, low: UInt64($0)) }
        for (index, account) in live.enumerated() { _ = observe(tracker, account: account, at: later + Int64(index)) }
        for account in live {
            #expect(observe(tracker, account: account, at: later + 1_000).value(named: "evaluationsPerAccount10m") == 2)
        }
        #expect(tracker.trackedAccounts <= 1024)
    }

    /// With production partitions only, the one holding the most is evicted: a flooder evicts its own accounts once
    /// it is the largest, not the older accounts of a smaller tenant.
    @Test func aFloodingTenantEvictsItsOwnAccountsOnceItIsTheLargest() {
        let tracker = Self.trackerHolding1024Accounts()
        let flooder = VelocityPartition(tenant: TenantID("other")!, environment: .production)
        for index in 0..<5_000 {
            _ = observe(tracker, flooder, account: SubjectKey(high: 2, low: UInt64(index)), at: Int64(index))
        }
        let late = (0..<32).map { SubjectKey(high: 1, low: UInt64($0)) }
        for account in late { _ = observe(tracker, account: account, at: 6_000) }
        for index in 5_000..<25_000 {
            _ = observe(tracker, flooder, account: SubjectKey(high: 2, low: UInt64(index)), at: 6_001 + Int64(index))
        }
        for account in late {
            #expect(observe(tracker, account: account, at: 40_000).value(named: "evaluationsPerAccount10m") == 2)
        }
    }

    @Test func aTrackerAwaitingReplayIsRestoredOnlyWhenToldSo() {
        let fresh = VelocityTracker(configuration: .standard)
        #expect(fresh.isRestored)
        let restarting = VelocityTracker(configuration: .standard, awaitingReplay: true)
        #expect(!restarting.isRestored)
        restarting.finishRestoring()
        #expect(restarting.isRestored)
    }

    @Test func replayRestoresState() {
        let original = VelocityTracker(configuration: .standard)
        let restored = VelocityTracker(configuration: .standard)
        for index in 0..<5 {
            let observation = VelocityTracker.Observation(partition: Self.bank, account: account, device: index % 2 == 0 ? deviceA : deviceB, counterparty: payee, time: Int64(index) * 1000)
            _ = original.observe(observation)
            restored.replay(observation, wasHigh: false)
        }
        let next = VelocityTracker.Observation(partition: Self.bank, account: account, device: deviceA, counterparty: payee, time: 10_000)
        #expect(original.observe(next) == restored.observe(next))
    }
}

@Suite struct VelocityConfigurationTests {
    @Test func shippedFileMatchesStandardConfiguration() throws {
        let root = "/" + String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        let bytes = try #require(readFile(root + "/config/velocity.json"))
        #expect(try VelocityConfiguration.load(json: bytes) == .standard)
    }

    @Test func rejectsUnknownKeyWithPath() {
        let json = #"{"formatVersion": 1, "counters": [{"name": "a", "kind": "evaluationsPerAccount", "windowSeconds": 60, "extra": 1}], "rules": []}"#
        #expect(throws: VelocityConfiguration.LoadError(path: "/counters/0/extra", message: "unknown key")) {
            try VelocityConfiguration.load(json: Array(json.utf8))
        }
    }

    /// Read strictly: a repeated member, a member of the wrong type and a repeated rule name are named by path, not
    /// merged, replaced or reported as "not valid JSON".
    @Test func rejectsRepeatedMembersWrongShapesAndDuplicateRuleNames() {
        let counter = #"{"name": "a", "kind": "evaluationsPerAccount", "windowSeconds": 60}"#
        let rule = #"{"name": "r", "counter": "a", "atLeast": 2, "raiseTo": "high"}"#
        let cases: [(String, VelocityConfiguration.LoadError)] = [
            (#"{"formatVersion": 1, "counters": [\#(counter)], "counters": [], "rules": []}"#, .init(path: "/counters", message: "appears more than once")),
            (#"{"formatVersion": 1, "counters": [{"name": "b", "name": "a", "kind": "evaluationsPerAccount", "windowSeconds": 60}], "rules": []}"#,
             .init(path: "/counters/0/name", message: "appears more than once")),
            (#"{"formatVersion": 1, "counters": [\#(counter)], "rules": {}}"#, .init(path: "/rules", message: "expected an array")),
            (#"{"formatVersion": 1, "counters": "x", "rules": []}"#, .init(path: "/counters", message: "expected an array")),
            (#"{"formatVersion": 1, "counters": [\#(counter)], "rules": [], "limits": []}"#, .init(path: "/limits", message: "expected an object")),
            (#"{"formatVersion": 1, "counters": [\#(counter)], "rules": [\#(rule), \#(rule)]}"#, .init(path: "/rules/1/name", message: "duplicate rule name")),
            (#"{"formatVersion": 1, "counters": [\#(counter)], "rules": [\#(rule), \#(rule.replacingOccurrences(of: #""r""#, with: #""R""#))]}"#,
             .init(path: "/rules/1/name", message: "duplicate rule name (differs from another only in letter case)")),
            (#"{"formatVersion": 1, "counters": [\#(counter), \#(counter.replacingOccurrences(of: #""a""#, with: #""A""#))], "rules": []}"#,
             .init(path: "/counters/1/name", message: "duplicate counter name (differs from another only in letter case)")),
            (#"{"formatVersion": 1, "counters": [\#(counter), \#(counter)], "rules": []}"#, .init(path: "/counters/1/name", message: "duplicate counter name")),
            // A missing member of a rule is named, as a counter's is.
            (#"{"formatVersion": 1, "counters": [\#(counter)], "rules": [{"name": "r", "counter": "a", "raiseTo": "high"}]}"#,
             .init(path: "/rules/0/atLeast", message: "required")),
            (#"{"formatVersion": 1, "counters": [\#(counter)], "rules": [{"name": "r", "counter": "a", "atLeast": 2}]}"#,
             .init(path: "/rules/0/raiseTo", message: "required (medium or high)")),
            (#"{"formatVersion": 1, "counters": [\#(counter)], "rules": [{"counter": "a", "atLeast": 2, "raiseTo": "high"}]}"#,
             .init(path: "/rules/0/name", message: "required")),
        ]
        for (json, error) in cases {
            #expect(throws: error, "\(json)") { try VelocityConfiguration.load(json: Array(json.utf8)) }
        }
        #expect(throws: RateLimitPolicy.LoadError(path: "/key", message: "expected an object")) {
            try RateLimitPolicy.load(json: Array(#"{"formatVersion": 1, "key": 200}"#.utf8))
        }
        // Text that is no JSON literal is not JSON, whatever type was expected where it stands.
        for text in ["nope", "tru", "nul", "fals"] {
            let rateLimits = #expect(throws: RateLimitPolicy.LoadError.self) { try RateLimitPolicy.load(json: Array(text.utf8)) }
            #expect(rateLimits?.message.hasPrefix("not valid JSON") == true, "\(text): \(String(describing: rateLimits))")
            let velocity = #expect(throws: VelocityConfiguration.LoadError.self) { try VelocityConfiguration.load(json: Array(text.utf8)) }
            #expect(velocity?.message.hasPrefix("not valid JSON") == true, "\(text): \(String(describing: velocity))")
            let nested = #expect(throws: RateLimitPolicy.LoadError.self) {
                try RateLimitPolicy.load(json: Array(#"{"formatVersion": 1, "key": \#(text)}"#.utf8))
            }
            #expect(nested?.message.hasPrefix("not valid JSON") == true, "\(text): \(String(describing: nested))")
        }
        // Broken text whose first byte opens no object is not JSON, not JSON of the wrong shape (lifecycle probe).
        for text in ["[1,", "[", "\"open", "[] x"] {
            let rateLimits = #expect(throws: RateLimitPolicy.LoadError.self) { try RateLimitPolicy.load(json: Array(text.utf8)) }
            #expect(rateLimits?.message.hasPrefix("not valid JSON") == true, "\(text): \(String(describing: rateLimits))")
            let velocity = #expect(throws: VelocityConfiguration.LoadError.self) { try VelocityConfiguration.load(json: Array(text.utf8)) }
            #expect(velocity?.message.hasPrefix("not valid JSON") == true, "\(text): \(String(describing: velocity))")
        }
        #expect(throws: RateLimitPolicy.LoadError(path: "", message: "expected an object")) {
            try RateLimitPolicy.load(json: Array("[1]".utf8))
        }
        #expect(throws: RateLimitPolicy.LoadError(path: "/key", message: "appears more than once")) {
            try RateLimitPolicy.load(json: Array(#"{"formatVersion": 1, "key": {"ratePerSecond": 1, "burst": 2}, "key": {"ratePerSecond": 9, "burst": 9}}"#.utf8))
        }
    }

    /// A rule named like a catalogue feature would give a reason code that reads as the feature.
    @Test func rejectsARuleNamedLikeAFeature() throws {
        var configuration = VelocityConfiguration.standard
        configuration.rules.append(.init(name: "activeCall", counter: "evaluationsPerAccount1h", atLeast: 2, raiseTo: .medium))
        #expect(throws: VelocityConfiguration.LoadError.self) { try configuration.check(against: try shippedCatalogue()) }
        var otherCase = VelocityConfiguration.standard
        otherCase.rules.append(.init(name: "ActiveCall", counter: "evaluationsPerAccount1h", atLeast: 2, raiseTo: .medium))
        #expect(throws: VelocityConfiguration.LoadError.self) { try otherCase.check(against: try shippedCatalogue()) }
        #expect(throws: Never.self) { try VelocityConfiguration.standard.check(against: try shippedCatalogue()) }
    }

    @Test func rejectsRuleOverMissingCounter() {
        let json = #"{"formatVersion": 1, "counters": [], "rules": [{"name": "r", "counter": "nope", "atLeast": 1, "raiseTo": "high"}]}"#
        #expect(throws: VelocityConfiguration.LoadError(path: "/rules/0/counter", message: "no counter of that name")) {
            try VelocityConfiguration.load(json: Array(json.utf8))
        }
    }

    /// Counts stop at the per-subject caps, so a threshold above its cap is a rule that can never fire.
    @Test func rejectsARuleThresholdAboveItsCountersCap() {
        let events = #"{"formatVersion": 1, "counters": [{"name": "a", "kind": "evaluationsPerAccount", "windowSeconds": 60}], "rules": [{"name": "r", "counter": "a", "atLeast": 6, "raiseTo": "high"}], "limits": {"maxEventsPerSubject": 5}}"#
        #expect(throws: VelocityConfiguration.LoadError(path: "/rules/0/atLeast", message: "can never be reached: evaluationsPerAccount counts stop at /limits/maxEventsPerSubject (5)")) {
            try VelocityConfiguration.load(json: Array(events.utf8))
        }
        let distinct = #"{"formatVersion": 1, "counters": [{"name": "d", "kind": "distinctDevicesPerAccount", "windowSeconds": 60}], "rules": [{"name": "r", "counter": "d", "atLeast": 257, "raiseTo": "medium"}]}"#
        #expect(throws: VelocityConfiguration.LoadError(path: "/rules/0/atLeast", message: "can never be reached: distinctDevicesPerAccount counts stop at /limits/maxDistinctPerSubject (256)")) {
            try VelocityConfiguration.load(json: Array(distinct.utf8))
        }
        let atTheCap = #"{"formatVersion": 1, "counters": [{"name": "d", "kind": "distinctDevicesPerAccount", "windowSeconds": 60}], "rules": [{"name": "r", "counter": "d", "atLeast": 256, "raiseTo": "medium"}]}"#
        #expect((try? VelocityConfiguration.load(json: Array(atTheCap.utf8))) != nil)
    }

    /// 20,000 rules made a 3 MB answer, each firing rule a reason code in every insight (velocity probe).
    @Test func boundsTheNumberOfCountersAndRules() {
        func file(counters: Int, rules: Int) -> [UInt8] {
            let counterList = (0..<counters).map { #"{"name": "c\#($0)", "kind": "evaluationsPerAccount", "windowSeconds": 60}"# }
            let ruleList = (0..<rules).map { #"{"name": "r\#($0)", "counter": "c0", "atLeast": 1, "raiseTo": "medium"}"# }
            return Array(#"{"formatVersion": 1, "counters": [\#(counterList.joined(separator: ","))], "rules": [\#(ruleList.joined(separator: ","))]}"#.utf8)
        }
        #expect((try? VelocityConfiguration.load(json: file(counters: 64, rules: 128))) != nil)
        #expect(throws: VelocityConfiguration.LoadError(path: "/counters/64", message: "at most 64 counters (each is read on every evaluation)")) {
            try VelocityConfiguration.load(json: file(counters: 65, rules: 1))
        }
        #expect(throws: VelocityConfiguration.LoadError(path: "/rules/128", message: "at most 128 rules (each that fires is a reason code in every insight of an answer)")) {
            try VelocityConfiguration.load(json: file(counters: 1, rules: 129))
        }
    }

    @Test func rejectsSubjectBoundsSmallerThanSixtyFourPerShard() {
        let json = #"{"formatVersion": 1, "counters": [], "rules": [], "limits": {"maxTrackedAccounts": 1023}}"#
        #expect(throws: VelocityConfiguration.LoadError(path: "/limits/maxTrackedAccounts", message: "expected an integer from 1024 to 100000000")) {
            try VelocityConfiguration.load(json: Array(json.utf8))
        }
    }

    /// A counter deleted from velocity.json would leave the models' computed feature always missing; a counter
    /// that keeps a catalogue name but counts something else would feed the model the wrong quantity.
    @Test func theCatalogueCheckRefusesAMissingOrMisnamedComputedFeature() throws {
        let catalogue = try CatalogueTestSupport.shippedCatalogue()
        try VelocityConfiguration.standard.check(against: catalogue)

        var missing = VelocityConfiguration.standard
        missing.counters.removeAll { $0.name == "evaluationsPerAccount1h" }
        missing.rules.removeAll { $0.counter == "evaluationsPerAccount1h" }
        #expect(throws: VelocityConfiguration.LoadError(path: "/counters", message: "no counter named evaluationsPerAccount1h, which the payment catalogue declares as computed: its models would always see it missing")) {
            try missing.check(against: catalogue)
        }

        var wrongKind = VelocityConfiguration.standard
        wrongKind.counters[0].kind = .highOutcomesPerAccount
        #expect(throws: VelocityConfiguration.LoadError(path: "/counters/0/kind", message: "the counter named evaluationsPerAccount10m must have kind evaluationsPerAccount")) {
            try wrongKind.check(against: catalogue)
        }

        var wrongWindow = VelocityConfiguration.standard
        wrongWindow.counters[1].windowSeconds = 7200
        #expect(throws: VelocityConfiguration.LoadError(path: "/counters/1/windowSeconds", message: "the counter named evaluationsPerAccount1h must have a window of 3600 seconds")) {
            try wrongWindow.check(against: catalogue)
        }

        // A name that differs from a feature's only in letter case would look like it feeds that feature, and the
        // exact name of a feature the client sends would look like it replaces that value: both feed nothing.
        let lookalike = ": a counter feeds only the feature of exactly its name"
        for (name, message) in [
            ("EvaluationsPerAccount10m", "EvaluationsPerAccount10m differs from the feature evaluationsPerAccount10m only in letter case" + lookalike),
            ("ActiveCall", "ActiveCall differs from the feature activeCall only in letter case" + lookalike),
            ("activeCall", "activeCall is a feature the client sends, not one a catalogue declares source: computed: a counter feeds only a computed feature of its name"),
        ] {
            var named = VelocityConfiguration.standard
            named.counters.append(.init(name: name, kind: .evaluationsPerAccount, windowSeconds: 60))
            #expect(throws: VelocityConfiguration.LoadError(path: "/counters/\(named.counters.count - 1)/name", message: message)) {
                try named.check(against: catalogue)
            }
        }

        // A counter of a name of its own feeds no catalogue feature, and may be anything.
        var extra = VelocityConfiguration.standard
        extra.counters.append(.init(name: "evaluationsPerAccount30m", kind: .evaluationsPerAccount, windowSeconds: 1800))
        try extra.check(against: catalogue)
    }

    @Test func rejectsRuleThatWouldLowerToUnknown() {
        let json = #"{"formatVersion": 1, "counters": [{"name": "a", "kind": "evaluationsPerAccount", "windowSeconds": 60}], "rules": [{"name": "r", "counter": "a", "atLeast": 1, "raiseTo": "unknown"}]}"#
        #expect(throws: VelocityConfiguration.LoadError.self) { try VelocityConfiguration.load(json: Array(json.utf8)) }
    }
}

func readFile(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count == 0 { break }
        bytes.append(contentsOf: buffer[0..<count])
    }
    return bytes
}
