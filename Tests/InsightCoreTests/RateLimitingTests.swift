import Foundation
import Synchronization
import Testing
@testable import InsightCore

@Suite struct GCRATests {
    let limit = RateLimit(ratePerSecond: 2, burst: 3)

    @Test func admitsTheBurstAtOnceThenOnePerInterval() {
        var state = GCRAState()
        let start: Int64 = 1_000_000_000
        let remaining = (0..<3).map { _ in state.admit(now: start, limit: limit) }
        #expect(remaining.map(\.allowed) == [true, true, true])
        #expect(remaining.map(\.remaining) == [2, 1, 0])
        let refused = state.admit(now: start, limit: limit)
        #expect(!refused.allowed)
        #expect(refused.retryAfterSeconds == 1)
        #expect(refused.resetSeconds == 2)
        // A refused request costs nothing: half a second later (one interval) exactly one more is admitted.
        #expect(state.admit(now: start + 500_000, limit: limit).allowed)
        #expect(!state.admit(now: start + 500_000, limit: limit).allowed)
    }

    /// The outside review's case: one request, then the wall clock stepped back an hour. The arrival time an hour
    /// ahead had refused the key for the hour; the request that finds the step now empties the allowance, and the
    /// next waits one interval. (Re-anchored to an emptied allowance, the first was refused: after a step of a few
    /// seconds each tenant's first evaluation answered rateLimitError on every insight; time probe, 6 December.)
    @Test func aClockSteppedBackCostsAtMostOneInterval() {
        var state = GCRAState()
        let noon: Int64 = 43_200 * 1_000_000
        #expect(state.admit(now: noon, limit: limit).allowed)
        let stepped = noon - 3_600 * 1_000_000
        #expect(state.admit(now: stepped, limit: limit).allowed)
        let second = state.admit(now: stepped, limit: limit)
        #expect(!second.allowed)
        #expect(second.retryAfterSeconds == 1)
        #expect(state.admit(now: stepped + 500_000, limit: limit).allowed)
        // A state the burst left empty is no step: it is not re-anchored.
        var spent = GCRAState()
        #expect((0..<4).map { _ in spent.admit(now: noon, limit: limit).allowed } == [true, true, true, false])
        // The burst itself is still exact: three at once, then none until an interval has passed.
        var fresh = GCRAState()
        #expect((0..<4).map { _ in fresh.admit(now: noon, limit: limit).allowed } == [true, true, true, false])
        #expect(!fresh.admit(now: noon + 499_999, limit: limit).allowed)
        #expect(fresh.admit(now: noon + 500_000, limit: limit).allowed)
    }

    /// The consumption probe's case (6 December): a slow key (one request every 10,000 s, burst 6) empties its
    /// burst, then stops reporting consumption and is cut to burst 1. The cut limit's reach is one interval, and a
    /// state further ahead was re-anchored as a clock step is: the request that found the cut was admitted at
    /// once, and when the cut lifted the key had most of its burst back. A cut is no step: the key keeps its wait.
    @Test func aCutNeitherAdmitsEarlyNorGivesBackTheBurstWhenItLifts() {
        let slow = RateLimit(ratePerSecond: 0.0001, burst: 6)
        let cut = slow.scaled(by: 0.25)
        #expect(cut == RateLimit(ratePerSecond: 0.0001, burst: 1))
        var state = GCRAState()
        let start: Int64 = 1_000_000_000_000
        #expect((0..<7).map { _ in state.admit(now: start, limit: slow).allowed } == [true, true, true, true, true, true, false])
        let second: Int64 = 1_000_000
        let underCut = state.admit(now: start + 7 * second, limit: cut)
        #expect(!underCut.allowed)
        // The whole burst's worth (60,000 s) less the 7 s gone: the uncut limit would say 10,000 s less 7.
        #expect(underCut.retryAfterSeconds == 59_993)
        // Lifted four minutes later: the uncut limit's own wait, not a refilled burst.
        let lifted = state.admit(now: start + 240 * second, limit: slow)
        #expect(!lifted.allowed && lifted.retryAfterSeconds == 9_760)
        #expect(state.admit(now: start + 10_000 * second, limit: slow).allowed)
        #expect(!state.admit(now: start + 10_000 * second, limit: slow).allowed)
        // A clock stepped back is still told from a cut: the same key a day behind is re-anchored and admitted.
        var stepped = GCRAState()
        for _ in 0..<6 { _ = stepped.admit(now: start, limit: slow) }
        #expect(stepped.admit(now: start - 86_400 * second, limit: cut, uncut: slow).allowed)
        #expect(!stepped.admit(now: start - 86_400 * second, limit: cut, uncut: slow).allowed)
    }

    /// The regression probe's case: the slow key, its burst emptied, is admitted under the cut the moment its
    /// allowance is back (its state idle, so it had only the cut's reach), then the clock is set back 45,000 s. Taken
    /// for a step past the cut's reach, the state was re-anchored and the request admitted, where the uncut limit,
    /// in the same place, refused it for 5,000 s more. The uncut reach counts: no re-anchoring short of it.
    @Test func underACutAClockSetBackReanchorsOnlyWhereTheUncutLimitWould() {
        let slow = RateLimit(ratePerSecond: 0.0001, burst: 6)
        let cut = slow.scaled(by: 0.25)
        let second: Int64 = 1_000_000
        let start: Int64 = 1_000_000_000_000
        var reporting = GCRAState(), silent = GCRAState()
        for _ in 0..<6 {
            _ = reporting.admit(now: start, limit: slow)
            _ = silent.admit(now: start, limit: slow)
        }
        #expect(reporting.admit(now: start + 60_000 * second, limit: slow).allowed)
        #expect(silent.admit(now: start + 60_000 * second, limit: cut, uncut: slow).allowed)
        let steppedBack = start + 15_000 * second
        let uncutAnswer = reporting.admit(now: steppedBack, limit: slow)
        #expect(!uncutAnswer.allowed && uncutAnswer.retryAfterSeconds == 5_000)
        let cutAnswer = silent.admit(now: steppedBack, limit: cut, uncut: slow)
        #expect(!cutAnswer.allowed && cutAnswer.retryAfterSeconds == 55_000)
        // Past the uncut reach, a step is a step under either limit: re-anchored, admitted, then one interval.
        let farBack = start - 100_000 * second
        #expect(reporting.admit(now: farBack, limit: slow).allowed)
        #expect(silent.admit(now: farBack, limit: cut, uncut: slow).allowed)
        #expect(silent.admit(now: farBack, limit: cut, uncut: slow).retryAfterSeconds == 10_000)
    }

    /// The same through the table that the service uses. Before, the table kept a state only when it admitted, so
    /// the re-anchoring of a refusal was thrown away: every later request re-anchored from the old arrival time and
    /// was refused again, and a step back of a minute cost the key (and the tenant's insight type) that minute.
    @Test func aTableKeepsTheReanchoring() {
        let table = RateLimitTable<String>(shardCount: 1)
        let noon: Int64 = 43_200 * 1000
        #expect(table.admit("key", limit: limit, now: noon).allowed)
        #expect(table.admit("key", limit: limit, now: noon + 60_000).allowed)
        #expect(table.admit("key", limit: limit, now: noon).allowed)
        #expect(!table.admit("key", limit: limit, now: noon).allowed)
        #expect(table.admit("key", limit: limit, now: noon + 500).allowed)
        #expect(table.admit("key", limit: limit, now: noon + 10_000).allowed)
    }

    @Test func refillsToTheFullBurstAndThenIsIdle() {
        var state = GCRAState()
        for _ in 0..<3 { _ = state.admit(now: 0, limit: limit) }
        #expect(!state.isIdle(at: 1_000_000))
        #expect(state.isIdle(at: 1_500_000))
        let again = (0..<4).map { _ in state.admit(now: 1_500_000, limit: limit).allowed }
        #expect(again == [true, true, true, false])
    }

    @Test func policyWindowIsTheTimeToRefillTheBurst() {
        #expect(RateLimit(ratePerSecond: 2, burst: 3).windowSeconds == 2)
        #expect(RateLimit(ratePerSecond: 200, burst: 400).windowSeconds == 2)
        #expect(RateLimit(ratePerSecond: 0.5, burst: 10).windowSeconds == 20)
        let cut = RateLimit(ratePerSecond: 200, burst: 400).scaled(by: 0.25)
        #expect(cut == RateLimit(ratePerSecond: 50, burst: 100))
        // The floor of one request an hour lifts a small cut, never past the rate it cuts (found by a probe: a
        // tenant allowed 0.72 an hour was "cut" to one).
        #expect(RateLimit(ratePerSecond: 0.001, burst: 4).scaled(by: 0.25) == RateLimit(ratePerSecond: 1.0 / 3600, burst: 1))
        #expect(RateLimit(ratePerSecond: 0.0002, burst: 40).scaled(by: 0.25) == RateLimit(ratePerSecond: 0.0002, burst: 10))
    }

    @Test func tableKeepsKeysApartAndForgetsIdleOnes() {
        let table = RateLimitTable<String>(shardCount: 1, sweepEvery: 4)
        let tight = RateLimit(ratePerSecond: 1, burst: 1)
        #expect(table.admit("a", limit: tight, now: 0).allowed)
        #expect(!table.admit("a", limit: tight, now: 0).allowed)
        #expect(table.admit("b", limit: tight, now: 0).allowed)
        #expect(table.count == 2)
        for _ in 0..<4 { _ = table.admit("c", limit: tight, now: 10_000) }
        #expect(table.count <= 2)
    }

    /// Keys whose hashes are equal are still told apart: the table works a key's hash out once and compares the
    /// keys themselves only when hashes meet, so colliding keys must neither share nor overwrite a state.
    @Test func keysWithEqualHashesKeepTheirOwnStates() {
        struct Colliding: Hashable, Sendable {
            var name: String
            func hash(into hasher: inout Hasher) { hasher.combine(0) }
        }
        let table = RateLimitTable<Colliding>(shardCount: 4)
        let tight = RateLimit(ratePerSecond: 1, burst: 1)
        let a = Colliding(name: "a"), b = Colliding(name: "b")
        #expect(a.hashValue == b.hashValue)
        #expect(table.admit(a, limit: tight, now: 0).allowed)
        #expect(table.admit(b, limit: tight, now: 0).allowed)
        #expect(!table.admit(a, limit: tight, now: 0).allowed)
        #expect(!table.admit(b, limit: tight, now: 0).allowed)
        #expect(table.count == 2)
        // A refund gives back only its own key's request.
        table.refund(a, limit: tight)
        #expect(table.admit(a, limit: tight, now: 0).allowed)
        #expect(!table.admit(b, limit: tight, now: 0).allowed)
        // Refunding a key the table does not hold stores nothing.
        table.refund(Colliding(name: "c"), limit: tight)
        #expect(table.count == 2)
    }
}

@Suite struct ComplianceTrackerTests {
    let policy = CompliancePolicy(windowSeconds: 600, minimumJudged: 10, threshold: 0.2, reducedRateFactor: 0.5, suspendAfterSeconds: 60)
    let deadline: Int64 = 10_000

    @Test func judgesOnlyEvaluationsPastTheirDeadline() {
        let tracker = ComplianceTracker(policy: policy, deadlineMilliseconds: deadline)
        let start: Int64 = 1_000_000
        for index in 0..<20 { tracker.noteEvaluation(keyID: "k", at: start + Int64(index)) }
        for index in 0..<5 { tracker.noteReport(keyID: "k", evaluationCreatedAt: start + Int64(index), late: false) }
        #expect(tracker.assess(keyID: "k", now: start + 1000).judged == 0)
        let figures = tracker.assess(keyID: "k", now: start + deadline + 20_000)
        #expect(figures.judged == 20)
        #expect(figures.reportedOnTime == 5)
        #expect(figures.missing == 15)
        #expect(figures.standing == .rateReduced)
        #expect(figures.nonCompliantSince == start + deadline + 20_000)
        #expect(figures.suspendsAt == start + deadline + 20_000 + 60_000)
    }

    @Test func lateReportsStillCountAsMissing() {
        let tracker = ComplianceTracker(policy: policy, deadlineMilliseconds: deadline)
        for index in 0..<10 {
            tracker.noteEvaluation(keyID: "k", at: Int64(index))
            tracker.noteReport(keyID: "k", evaluationCreatedAt: Int64(index), late: index < 3)
        }
        let figures = tracker.assess(keyID: "k", now: 60_000)
        #expect(figures.reportedLate == 3)
        #expect(figures.missing == 3)
        #expect(figures.standing == .rateReduced)
    }

    @Test func tooFewEvaluationsAreNotJudgedAndGoodReportersStayCompliant() {
        let tracker = ComplianceTracker(policy: policy, deadlineMilliseconds: deadline)
        for index in 0..<9 { tracker.noteEvaluation(keyID: "few", at: Int64(index)) }
        #expect(tracker.assess(keyID: "few", now: 60_000).standing == .compliant)
        for index in 0..<50 {
            tracker.noteEvaluation(keyID: "good", at: Int64(index))
            if index % 10 != 0 { tracker.noteReport(keyID: "good", evaluationCreatedAt: Int64(index), late: false) }
        }
        let good = tracker.assess(keyID: "good", now: 60_000)
        #expect(good.missingShare == 0.1)
        #expect(good.standing == .compliant)
        #expect(tracker.assess(keyID: "unknown", now: 60_000).judged == 0)
    }

    @Test func sustainedNonComplianceSuspendsAndAReinstatedKeyStartsAfresh() {
        let tracker = ComplianceTracker(policy: policy, deadlineMilliseconds: deadline)
        for index in 0..<20 { tracker.noteEvaluation(keyID: "k", at: Int64(index)) }
        let first = tracker.assess(keyID: "k", now: 30_000)
        #expect(first.standing == .rateReduced)
        #expect(tracker.assess(keyID: "k", now: 89_999).standing == .rateReduced)
        #expect(tracker.assess(keyID: "k", now: 90_000).standing == .suspended)
        #expect(tracker.noteSuspended(keyID: "k", now: 90_000))
        #expect(!tracker.noteSuspended(keyID: "k", now: 90_001))
        // Reached again after the grace: an operator reinstated the key; the clock restarts.
        let after = tracker.assess(keyID: "k", now: 100_000)
        #expect(after.standing == .rateReduced)
        #expect(after.nonCompliantSince == 100_000)
    }

    /// The 5-second hold after a suspension of the process's own holds back a key whose counts still fail; one whose
    /// unreported evaluations left the window meanwhile is compliant, and is answered so at once (RATE-LIMITS.md,
    /// "Reinstatement": a probe read the hold as unconditional, which the documentation then said).
    @Test func theHoldAfterASuspensionKeepsOnlyAFailingKeySuspended() {
        let tracker = ComplianceTracker(policy: policy, deadlineMilliseconds: deadline)
        for index in 0..<20 { tracker.noteEvaluation(keyID: "k", at: Int64(index)) }
        #expect(tracker.assess(keyID: "k", now: 552_000).standing == .rateReduced)
        #expect(tracker.assess(keyID: "k", now: 612_000).standing == .suspended)
        #expect(tracker.noteSuspended(keyID: "k", now: 612_000))
        // Within the hold, still failing: suspended, whatever the key table says.
        #expect(tracker.assess(keyID: "k", now: 614_000).standing == .suspended)
        // Within the hold, the evaluations out of the window: nothing to judge, so compliant.
        let emptied = tracker.assess(keyID: "k", now: 616_000)
        #expect(emptied.judged == 0)
        #expect(emptied.standing == .compliant)
    }

    @Test func aKeySeenSuspendedIsNotTakenForReinstatedUntilItIsSeenActive() {
        let tracker = ComplianceTracker(policy: policy, deadlineMilliseconds: deadline)
        for index in 0..<20 { tracker.noteEvaluation(keyID: "k", at: Int64(index)) }
        _ = tracker.assess(keyID: "k", now: 30_000)
        #expect(tracker.noteSuspended(keyID: "k", now: 90_000))
        // A suspended key reading its figures long after: still suspended, its clock kept.
        let suspended = tracker.assess(keyID: "k", now: 200_000, seenSuspended: true)
        #expect(suspended.nonCompliantSince == 30_000)
        // Reinstated: the first active request long after the suspension restarts the clock, however recently the
        // key was seen suspended (it polled its figures while it waited).
        #expect(tracker.assess(keyID: "k", now: 200_500).nonCompliantSince == 200_500)
    }

    /// After a restart (or from another replica) the key table holds a suspension this process did not store: its
    /// clock stands still while the key is seen suspended, and a reinstatement starts it afresh at once, with no
    /// grace, since no request of this process's could have passed authentication before a suspension of its own.
    @Test func aSuspensionFoundInTheKeyTableStopsTheClockAndItsReinstatementRestartsItAtOnce() {
        let tracker = ComplianceTracker(policy: policy, deadlineMilliseconds: deadline)
        for index in 0..<20 { tracker.noteEvaluation(keyID: "k", at: Int64(index)) }
        let seen = tracker.assess(keyID: "k", now: 30_000, seenSuspended: true)
        #expect(seen.nonCompliantSince == nil)
        #expect(seen.suspendsAt == nil)
        #expect(tracker.assess(keyID: "k", now: 30_500, seenSuspended: true).nonCompliantSince == nil)
        // Reinstated 0.8 s after the first sighting: the clock starts now, not at the sighting.
        let reinstated = tracker.assess(keyID: "k", now: 30_800)
        #expect(reinstated.standing == .rateReduced)
        #expect(reinstated.nonCompliantSince == 30_800)
        #expect(reinstated.suspendsAt == Int64(30_800 + 60_000))
    }

    @Test func evaluationsLeaveTheWindowAndComplianceRecovers() {
        let tracker = ComplianceTracker(policy: policy, deadlineMilliseconds: deadline)
        for index in 0..<20 { tracker.noteEvaluation(keyID: "k", at: Int64(index)) }
        #expect(tracker.assess(keyID: "k", now: 30_000).standing == .rateReduced)
        #expect(tracker.assess(keyID: "k", now: 700_000).standing == .compliant)
        #expect(tracker.trackedKeys == 0)
    }
}

@Suite struct AdmissionControlTests {
    let principal = Principal(keyID: "k1", tenant: TenantID("acme")!, role: .client, environment: .sandbox)
    /// Judges a key from 5 evaluations, cuts it to a tenth, and suspends it after 10 s of non-compliance.
    let suspending = RateLimitPolicy(
        key: RateLimit(ratePerSecond: 100, burst: 100),
        compliance: CompliancePolicy(windowSeconds: 600, minimumJudged: 5, threshold: 0.2, reducedRateFactor: 0.1, suspendAfterSeconds: 10))

    /// A tenant name is escaped in its pointer (RFC 6901), and a refusal says what a tenant ID may be (configuration
    /// probe, 7 December).
    @Test func aTenantThatIsNoIDIsNamedByAnEscapedPointer() {
        let limit = #"{"ratePerSecond": 1, "burst": 2}"#
        #expect(throws: RateLimitPolicy.LoadError(
            path: "/tenants/a~1b c", message: "not a tenant ID (1 to 64 letters, digits, '-' or '_', as `keys create --tenant` takes)")) {
            try RateLimitPolicy.load(json: Array(#"{"formatVersion": 1, "tenants": {"a/b c": \#(limit)}}"#.utf8))
        }
        #expect(throws: RateLimitPolicy.LoadError(path: "/compliance/a~1b~0c", message: "unknown key")) {
            try RateLimitPolicy.load(json: Array(#"{"formatVersion": 1, "compliance": {"a/b~c": 1}}"#.utf8))
        }
        #expect(throws: RateLimitPolicy.LoadError(path: "/a~1b", message: "unknown key")) {
            try RateLimitPolicy.load(json: Array(#"{"formatVersion": 1, "a/b": 1}"#.utf8))
        }
        #expect(throws: RateLimitPolicy.LoadError(path: "/tenants/acme", message: "appears more than once")) {
            try RateLimitPolicy.load(json: Array(#"{"formatVersion": 1, "tenants": {"acme": \#(limit), "acme": \#(limit)}}"#.utf8))
        }
    }

    @Test func keyLimitComesFromTheKeyThenTheTenantThenTheDefault() {
        var policy = RateLimitPolicy(key: RateLimit(ratePerSecond: 10, burst: 20))
        policy.tenants["acme"] = RateLimit(ratePerSecond: 5, burst: 5)
        #expect(policy.limit(for: principal) == RateLimit(ratePerSecond: 5, burst: 5))
        var own = principal
        own.rate = 2
        own.burst = 4
        #expect(policy.limit(for: own) == RateLimit(ratePerSecond: 2, burst: 4))
        own.tenant = TenantID("other")!
        own.rate = nil
        #expect(policy.limit(for: own) == RateLimit(ratePerSecond: 10, burst: 20))
    }

    @Test func nonCompliantKeysAreCutThenSuspendedOnce() {
        let policy = suspending
        let suspended = LockedBox<[String]>([])
        let admission = AdmissionControl(policy: policy, deadlineMilliseconds: 1000) { keyID, _ in
            suspended.mutate { $0.append(keyID) }
            return true
        }
        for index in 0..<10 { admission.compliance.noteEvaluation(keyID: "k1", at: Int64(index)) }
        #expect(admission.effectiveLimit(for: principal, now: 10_000).limit == RateLimit(ratePerSecond: 10, burst: 10))
        #expect(admission.admitEvaluation(principal, now: 19_999) != .suspended)
        #expect(admission.admitEvaluation(principal, now: 20_000) == .suspended)
        #expect(admission.admitEvaluation(principal, now: 20_001) == .suspended)
        #expect(suspended.value == ["k1"])
    }

    @Test func readingTheFiguresStoresASuspensionThatIsDueAndASuspendedKeyReadsSuspended() {
        let policy = suspending
        let stored = LockedBox<[Int64]>([])
        let admission = AdmissionControl(policy: policy, deadlineMilliseconds: 1000) { _, now in
            stored.mutate { $0.append(now) }
            return true
        }
        for index in 0..<10 { admission.compliance.noteEvaluation(keyID: "k1", at: Int64(index)) }
        #expect(admission.complianceFigures(for: principal, now: 10_000).figures.standing == .rateReduced)
        let due = admission.complianceFigures(for: principal, now: 20_000)
        #expect(due.figures.standing == .suspended)
        #expect(due.limit == RateLimit(ratePerSecond: 10, burst: 10))
        #expect(stored.value == [20_000])
        // Once the key table says suspended, so do the figures, whatever the counts (here none, as after a restart).
        var suspended = principal
        suspended.isSuspended = true
        let fresh = AdmissionControl(policy: policy, deadlineMilliseconds: 1000) { _, _ in true }
        let read = fresh.complianceFigures(for: suspended, now: 30_000)
        #expect(read.figures.standing == .suspended)
        #expect(read.limit == RateLimit(ratePerSecond: 10, burst: 10))
    }

    /// RATE-LIMITS.md: whichever request first finds the key due stores the suspension, a consumption report too.
    @Test func aReportFindingTheSuspensionDueStoresIt() {
        let stored = LockedBox<[Int64]>([])
        let admission = AdmissionControl(policy: suspending, deadlineMilliseconds: 1000) { _, now in
            stored.mutate { $0.append(now) }
            return true
        }
        for index in 0..<10 { admission.compliance.noteEvaluation(keyID: "k1", at: Int64(index)) }
        admission.noteRequest(by: principal, now: 10_000)
        #expect(stored.value.isEmpty)
        admission.noteRequest(by: principal, now: 21_500)
        #expect(stored.value == [21_500])
        admission.noteRequest(by: principal, now: 22_000)
        #expect(stored.value == [21_500])
    }

    @Test func aSuspensionTheStoreRefusedIsTriedAgainNotTakenForAReinstatement() {
        let policy = suspending
        let attempts = LockedBox<[Int64]>([])
        let storeWorks = LockedBox(false)
        let admission = AdmissionControl(policy: policy, deadlineMilliseconds: 1000) { _, now in
            attempts.mutate { $0.append(now) }
            return storeWorks.value
        }
        for index in 0..<10 { admission.compliance.noteEvaluation(keyID: "k1", at: Int64(index)) }
        #expect(admission.admitEvaluation(principal, now: 10_000) != .suspended)
        #expect(admission.admitEvaluation(principal, now: 20_000) == .suspended)
        // Long past the reinstatement grace: had the failed write been taken for done, the key would look
        // reinstated here and be admitted at the reduced rate.
        #expect(admission.admitEvaluation(principal, now: 40_000) == .suspended)
        storeWorks.mutate { $0 = true }
        #expect(admission.admitEvaluation(principal, now: 41_000) == .suspended)
        #expect(admission.admitEvaluation(principal, now: 41_001) == .suspended)
        #expect(attempts.value == [20_000, 40_000, 41_000])
    }

    @Test func devicesAndInsightTypesHaveTheirOwnLimits() {
        let policy = RateLimitPolicy(device: RateLimit(ratePerSecond: 1, burst: 2), insightType: RateLimit(ratePerSecond: 1, burst: 1))
        let admission = AdmissionControl(policy: policy, deadlineMilliseconds: 1000) { _, _ in true }
        let device = SubjectKey(high: 1, low: 2)
        let acme = TenantID("acme")!
        #expect(admission.admitDevice(device, tenant: acme, now: 0).allowed)
        #expect(admission.admitDevice(device, tenant: acme, now: 0).allowed)
        #expect(!admission.admitDevice(device, tenant: acme, now: 0).allowed)
        #expect(admission.admitDevice(device, tenant: TenantID("other")!, now: 0).allowed)
        #expect(admission.admitInsight("isLikelyBeingCoached", tenant: acme, environment: .production, now: 0))
        #expect(!admission.admitInsight("isLikelyBeingCoached", tenant: acme, environment: .production, now: 0))
        #expect(admission.admitInsight("other", tenant: acme, environment: .production, now: 0))
        // A sandbox load test does not spend production's allowance of an insight type.
        #expect(admission.admitInsight("isLikelyBeingCoached", tenant: acme, environment: .sandbox, now: 0))
    }

    /// The device's limit refused what the key's let through: the key gets its request back, so one flooding
    /// device cannot spend its app's allowance on every other device.
    @Test func aRefundGivesBackExactlyOneAdmittedRequest() {
        let limit = RateLimit(ratePerSecond: 0.001, burst: 3)
        let admission = AdmissionControl(policy: RateLimitPolicy(key: limit), deadlineMilliseconds: 1000) { _, _ in true }
        for _ in 0..<3 {
            guard case .admitted(let decision) = admission.admitEvaluation(principal, now: 0) else {
                Issue.record("not admitted")
                return
            }
            admission.refundEvaluation(principal, limit: decision.limit)
        }
        // Three taken and three given back: the whole burst is there, and no more than it.
        for _ in 0..<3 {
            guard case .admitted = admission.admitEvaluation(principal, now: 0) else { Issue.record("refused"); return }
        }
        guard case .limited = admission.admitEvaluation(principal, now: 0) else {
            Issue.record("a refund gave back more than it took")
            return
        }
    }

    @Test func theGaugeDropsLimiterStatesOnceTheirAllowanceIsFullAgain() {
        let table = RateLimitTable<String>(shardCount: 2, sweepEvery: 1_000_000)
        let limit = RateLimit(ratePerSecond: 1, burst: 5)
        _ = table.admit("a", limit: limit, now: 0)
        _ = table.admit("b", limit: limit, now: 0)
        #expect(table.sweepAndCount(now: 500) == 2)
        #expect(table.sweepAndCount(now: 1_000) == 0)
    }
}

@Suite struct RateLimitPolicyLoadingTests {
    @Test func loadsTheShippedFile() throws {
        let root = "/" + String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        let bytes = try #require(FileManager.default.contents(atPath: root + "/config/rate-limits.json"))
        let policy = try RateLimitPolicy.load(json: Array(bytes))
        #expect(policy.key == RateLimit(ratePerSecond: 200, burst: 400))
        #expect(policy.compliance.threshold == 0.2)
    }

    @Test func namesThePathOfABadValue() {
        #expect(throws: RateLimitPolicy.LoadError(path: "/device/burst", message: "expected an integer from 1 to 10000000")) {
            try RateLimitPolicy.load(json: Array(#"{"formatVersion": 1, "device": {"ratePerSecond": 1, "burst": 0.5}}"#.utf8))
        }
        #expect(throws: RateLimitPolicy.LoadError(path: "/compliance/treshold", message: "unknown key")) {
            try RateLimitPolicy.load(json: Array(#"{"formatVersion": 1, "compliance": {"treshold": 0.1}}"#.utf8))
        }
        #expect(throws: RateLimitPolicy.LoadError(path: "/formatVersion", message: "required (1)")) {
            try RateLimitPolicy.load(json: Array("{}".utf8))
        }
    }
}

/// A value several threads may touch, for callbacks under test.
final class LockedBox<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    var value: Value { storage.withLock { $0 } }
    func mutate(_ body: (inout Value) -> Void) { storage.withLock { body(&$0) } }
}
