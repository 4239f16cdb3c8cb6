import Dispatch
import Synchronization
import Testing
@testable import InsightCore

/// Keeps the last saved state per subject, as the database's upsert does, and can run another caller's change
/// just after a save has been stored: the moment two loops' changes would interleave.
final class InterleavingAuthorizationStore: AuthorizationStore {
    private let saved = Mutex<[String: AuthorizationState]>([:])
    private let afterSave = Mutex<(@Sendable () -> Void)?>(nil)
    private let reads = Mutex(0)
    private let failsReads = Mutex(false)

    /// How many single-subject reads the registry made.
    var readCount: Int { reads.withLock { $0 } }
    func failReads(_ fails: Bool) { failsReads.withLock { $0 = fails } }

    func afterNextSave(_ action: @escaping @Sendable () -> Void) { afterSave.withLock { $0 = action } }
    func savedState(of subject: SubjectKey) -> AuthorizationState? { saved.withLock { $0[subject.hex] } }

    func forEachOptOut(_ body: (TenantID, SubjectKey, AuthorizationState) throws -> Void) throws {
        for (hex, state) in saved.withLock({ $0 }) where state.canBlockEvaluation {
            try body(TenantID("acme")!, SubjectKey(hex: hex)!, state)
        }
    }
    func authorizationState(tenant: TenantID, subject: SubjectKey) throws -> AuthorizationState? {
        reads.withLock { $0 += 1 }
        if failsReads.withLock({ $0 }) { throw StoreUnavailable() }
        return savedState(of: subject)
    }
    func saveAuthorizationState(
        _ state: AuthorizationState, tenant: TenantID, subject: SubjectKey,
        completion: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        saved.withLock { $0[subject.hex] = state }
        let action = afterSave.withLock { hook in
            defer { hook = nil }
            return hook
        }
        action?()
        completion(.success(()))
    }
}

struct StoreUnavailable: Error {}

/// Keeps each save at once, as a commit's statement does, but calls back only when the test says: the writer's
/// commit still to come, or two commits' completions running on two threads in either order.
final class HeldCompletionAuthorizationStore: AuthorizationStore {
    private struct Save {
        var subject: SubjectKey
        var state: AuthorizationState
        var completion: @Sendable (Result<Void, any Error>) -> Void
    }
    private let saved = Mutex<[String: AuthorizationState]>([:])
    private let waiting = Mutex<[Save]>([])
    private let saves = Mutex(0)

    var saveCount: Int { saves.withLock { $0 } }
    var waitingCount: Int { waiting.withLock { $0.count } }
    func savedState(of subject: SubjectKey) -> AuthorizationState? { saved.withLock { $0[subject.hex] } }

    func forEachOptOut(_ body: (TenantID, SubjectKey, AuthorizationState) throws -> Void) throws {}
    func authorizationState(tenant: TenantID, subject: SubjectKey) throws -> AuthorizationState? { savedState(of: subject) }
    func saveAuthorizationState(
        _ state: AuthorizationState, tenant: TenantID, subject: SubjectKey,
        completion: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        saves.withLock { $0 += 1 }
        saved.withLock { $0[subject.hex] = state }
        waiting.withLock { $0.append(Save(subject: subject, state: state, completion: completion)) }
    }

    /// Calls back the save of `subject` that waits longest (or, `newestFirst`, the latest), with success or, when
    /// `failing`, an error (the store then forgets it, as a rolled-back transaction does).
    func complete(_ subject: SubjectKey, newestFirst: Bool = false, failing: Bool = false, previous: AuthorizationState? = nil) {
        let save = waiting.withLock { waiting -> Save? in
            let found = newestFirst ? waiting.lastIndex { $0.subject == subject } : waiting.firstIndex { $0.subject == subject }
            guard let index = found else { return nil }
            return waiting.remove(at: index)
        }
        guard let save else { return }
        if failing { saved.withLock { $0[subject.hex] = previous } }
        save.completion(failing ? .failure(StoreUnavailable()) : .success(()))
    }
}

@Suite struct AuthorizationRegistryTests {
    let tenant = TenantID("acme")!
    let subject = SubjectKey(high: 0xabab, low: 0xcdcd)

    /// Memory holds only what can fail an evaluation: a flood of `authorized` on made-up refs grows the store,
    /// not the process, and a `notDetermined` on a subject never set stores nothing.
    @Test func memoryHoldsOnlyOptOutsAndTheRestIsReadFromTheStore() throws {
        let store = InterleavingAuthorizationStore()
        let registry = try AuthorizationRegistry(store: store, cooldownMilliseconds: 1000)
        for index in 0..<100 {
            let other = SubjectKey(high: UInt64(index), low: 1)
            #expect(try registry.change(tenant: tenant, subject: other, to: .authorized, now: 0).wait().get().status == .authorized)
            #expect(try registry.state(tenant: tenant, subject: other, now: 1).status == .authorized)
        }
        #expect(registry.heldCount == 0)
        let never = SubjectKey(high: 999, low: 999)
        #expect(try registry.change(tenant: tenant, subject: never, to: .notDetermined, now: 0).wait().get().status == .notDetermined)
        #expect(store.savedState(of: never) == nil)

        let pending = try registry.change(tenant: tenant, subject: subject, to: .denied, now: 0).wait().get()
        #expect(pending.pendingStatus == .denied && registry.heldCount == 1)
        #expect(try !registry.blocksEvaluation(tenant: tenant, subject: subject, now: 999))
        #expect(try registry.blocksEvaluation(tenant: tenant, subject: subject, now: 1000))
        #expect(try registry.change(tenant: tenant, subject: subject, to: .authorized, now: 2000).wait().get().status == .authorized)
        #expect(try registry.heldCount == 0 && !registry.blocksEvaluation(tenant: tenant, subject: subject, now: 3000))
        #expect(try registry.state(tenant: tenant, subject: subject, now: 3000).status == .authorized)
    }

    @Test func theCooldownIsStatedInWholeSecondsRoundedUp() throws {
        let store = InterleavingAuthorizationStore()
        #expect(try AuthorizationRegistry(store: store, cooldownMilliseconds: 1_500).cooldownSeconds == 2)
        #expect(try AuthorizationRegistry(store: store, cooldownMilliseconds: 86_400_000).cooldownSeconds == 86_400)
        #expect(try AuthorizationRegistry(store: store, cooldownMilliseconds: 0).cooldownSeconds == 0)
    }

    /// What docs/API.md promises of repeated and changed opt-outs: nothing shortens a cooldown.
    @Test func nothingShortensACooldown() throws {
        let registry = try AuthorizationRegistry(store: InterleavingAuthorizationStore(), cooldownMilliseconds: 10_000)
        let first = try registry.change(tenant: tenant, subject: subject, to: .denied, now: 1_000).wait().get()
        #expect(first.pendingStatus == .denied && first.pendingEffectiveAt == 11_000)
        // Asking again keeps the effective time.
        #expect(try registry.change(tenant: tenant, subject: subject, to: .denied, now: 5_000).wait().get().pendingEffectiveAt == 11_000)
        // Switching the pending opt-out starts the cooldown again.
        let switched = try registry.change(tenant: tenant, subject: subject, to: .deniedRequestable, now: 6_000).wait().get()
        #expect(switched.pendingStatus == .deniedRequestable && switched.pendingEffectiveAt == 16_000)
        #expect(try registry.state(tenant: tenant, subject: subject, now: 15_999).status == .notDetermined)
        #expect(try registry.state(tenant: tenant, subject: subject, now: 16_000).status == .deniedRequestable)
        // Once in force, switching between the two kinds of off is immediate.
        let other = try registry.change(tenant: tenant, subject: subject, to: .denied, now: 17_000).wait().get()
        #expect(other.status == .denied && other.pendingStatus == nil)
    }

    /// A cooldown setting lowered between two changes (a restart with another configuration) does not shorten a
    /// wait already running: the switch ends no sooner than the pending opt-out would have.
    @Test func aLowerCooldownSettingDoesNotShortenARunningCooldown() throws {
        let pending = AuthorizationState.initial(at: 0).changing(to: .denied, at: 1_000, cooldownMilliseconds: 86_400_000)
        #expect(pending.pendingEffectiveAt == 86_401_000)
        let switched = pending.changing(to: .deniedRequestable, at: 2_000, cooldownMilliseconds: 2_000)
        #expect(switched.pendingStatus == .deniedRequestable && switched.pendingEffectiveAt == 86_401_000)
        // A longer setting still starts the cooldown again from the switch.
        let longer = pending.changing(to: .deniedRequestable, at: 2_000, cooldownMilliseconds: 172_800_000)
        #expect(longer.pendingEffectiveAt == 172_802_000)
    }

    /// A cooldown of 0 makes new opt-outs immediate, but one already waiting (from before a restart with 0) keeps its
    /// time, whether asked for again or switched.
    @Test func aCooldownOfZeroDoesNotEndAWaitAlreadyRunning() throws {
        let pending = AuthorizationState.initial(at: 0).changing(to: .denied, at: 1_000, cooldownMilliseconds: 600_000)
        let again = pending.changing(to: .denied, at: 2_000, cooldownMilliseconds: 0)
        #expect(again == pending)
        #expect(!again.resolved(at: 2_000).status.blocksEvaluation)
        let switched = pending.changing(to: .deniedRequestable, at: 2_000, cooldownMilliseconds: 0)
        #expect(switched.status == .notDetermined)
        #expect(switched.pendingStatus == .deniedRequestable && switched.pendingEffectiveAt == 601_000)
        // Opting in still cancels it at once, and a fresh opt-out after that is immediate.
        let optedIn = pending.changing(to: .authorized, at: 3_000, cooldownMilliseconds: 0)
        #expect(optedIn == AuthorizationState(status: .authorized, updatedAt: 3_000))
        #expect(optedIn.changing(to: .denied, at: 4_000, cooldownMilliseconds: 0).status == .denied)
        // Once the wait is over the opt-out is in force, and switching between opt-outs is immediate.
        let later = pending.changing(to: .deniedRequestable, at: 601_000, cooldownMilliseconds: 0)
        #expect(later == AuthorizationState(status: .deniedRequestable, updatedAt: 601_000))
    }

    /// One loop asks to opt out while another opts back in. Whatever order they run in, memory (what evaluations
    /// see) must hold the state the store kept, or a subject told "authorized" is denied after the cooldown.
    @Test func concurrentChangesLeaveMemoryAsTheStoreHasIt() throws {
        let store = InterleavingAuthorizationStore()
        let registry = try AuthorizationRegistry(store: store, cooldownMilliseconds: 86_400_000)
        _ = try registry.change(tenant: tenant, subject: subject, to: .authorized, now: 1).wait().get()
        let secondDone = DispatchSemaphore(value: 0)
        store.afterNextSave { [tenant, subject] in
            // The other loop's change starts once the first change is stored and not yet in memory; it may wait for
            // the first to finish, but not for longer than this, or the test would prove nothing either way.
            DispatchQueue.global().async {
                _ = try? registry.change(tenant: tenant, subject: subject, to: .authorized, now: 3).wait().get()
                secondDone.signal()
            }
            if secondDone.wait(timeout: .now() + .milliseconds(200)) == .success { secondDone.signal() }
        }
        _ = try registry.change(tenant: tenant, subject: subject, to: .denied, now: 2).wait().get()
        secondDone.wait()
        let stored = try #require(store.savedState(of: subject))
        #expect(try registry.state(tenant: tenant, subject: subject, now: 4) == stored.resolved(at: 4))
        // The opt-in came last, so the pending opt-out is cancelled in both places.
        #expect(stored.pendingStatus == nil)
        #expect(try registry.state(tenant: tenant, subject: subject, now: 2 + 86_400_001).status == .authorized)
    }

    /// `change` answers once the save is durable and never waits for it: the caller is an event loop. A second
    /// change to the same subject waits, unsaved, behind the first and starts from the state the first left; other
    /// subjects' changes do not wait for it.
    @Test func changesToOneSubjectRunOneAfterAnotherWithoutBlockingTheCaller() throws {
        let store = HeldCompletionAuthorizationStore()
        let registry = try AuthorizationRegistry(store: store, cooldownMilliseconds: 0)
        let other = SubjectKey(high: 7, low: 7)

        let optOut = registry.change(tenant: tenant, subject: subject, to: .denied, now: 10)
        let optIn = registry.change(tenant: tenant, subject: subject, to: .authorized, now: 11)
        let otherOptOut = registry.change(tenant: tenant, subject: other, to: .deniedRequestable, now: 12)
        #expect(store.saveCount == 2 && store.waitingCount == 2)
        // Saved but not yet durable: nobody is told, and evaluations do not see it yet.
        #expect(try !registry.blocksEvaluation(tenant: tenant, subject: subject, now: 20))

        store.complete(other)
        #expect(try otherOptOut.wait().get().status == .deniedRequestable)
        #expect(try registry.blocksEvaluation(tenant: tenant, subject: other, now: 20))

        store.complete(subject)
        #expect(try optOut.wait().get().status == .denied)
        // The opt-in starts now, from the opt-out: its save is the third.
        #expect(store.saveCount == 3 && store.savedState(of: subject)?.status == .authorized)
        #expect(try registry.blocksEvaluation(tenant: tenant, subject: subject, now: 20))
        store.complete(subject)
        #expect(try optIn.wait().get() == AuthorizationState(status: .authorized, updatedAt: 11))
        #expect(try !registry.blocksEvaluation(tenant: tenant, subject: subject, now: 20))
        #expect(registry.heldCount == 1 && store.waitingCount == 0)
    }

    /// Two commits' completions on two threads: each subject's changes still install in the order they were
    /// stored, so memory ends as the store does, whichever completion runs first.
    @Test func completionsOnOtherThreadsInstallEachSubjectsChangesInOrder() throws {
        let store = HeldCompletionAuthorizationStore()
        let registry = try AuthorizationRegistry(store: store, cooldownMilliseconds: 0)
        let subjects = (0..<200).map { SubjectKey(high: 0xc0ffee, low: UInt64($0)) }
        var answers: [OneShot<Result<AuthorizationState, any Error>>] = []
        for (index, subject) in subjects.enumerated() {
            answers.append(registry.change(tenant: tenant, subject: subject, to: .denied, now: Int64(index)))
            answers.append(registry.change(tenant: tenant, subject: subject, to: index.isMultiple(of: 2) ? .authorized : .deniedRequestable, now: Int64(index) + 1))
        }
        // Both completions of a subject raced from two threads, the later save's first when both are waiting: the
        // second change must not even be saved before the first is answered.
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for subject in subjects { store.complete(subject, newestFirst: true) }
        }
        for subject in subjects { store.complete(subject) }
        for answer in answers { _ = try answer.wait().get() }
        for (index, subject) in subjects.enumerated() {
            let stored = try #require(store.savedState(of: subject))
            #expect(stored.status == (index.isMultiple(of: 2) ? .authorized : .deniedRequestable))
            #expect(try registry.state(tenant: tenant, subject: subject, now: 1_000) == stored.resolved(at: 1_000))
        }
        #expect(registry.heldCount == 100 && store.waitingCount == 0)
    }

    /// A save that fails is answered with its error and leaves memory as it was; the change queued behind it still
    /// runs, from the state the store kept.
    @Test func aFailedSaveAnswersItsErrorAndTheNextChangeStillRuns() throws {
        let store = HeldCompletionAuthorizationStore()
        let registry = try AuthorizationRegistry(store: store, cooldownMilliseconds: 0)
        let failed = registry.change(tenant: tenant, subject: subject, to: .denied, now: 10)
        let next = registry.change(tenant: tenant, subject: subject, to: .deniedRequestable, now: 11)
        store.complete(subject, failing: true)
        #expect(throws: StoreUnavailable.self) { try failed.wait().get() }
        #expect(try !registry.blocksEvaluation(tenant: tenant, subject: subject, now: 20) && registry.heldCount == 0)
        #expect(store.waitingCount == 1)
        store.complete(subject)
        #expect(try next.wait().get() == AuthorizationState(status: .deniedRequestable, updatedAt: 11))
        #expect(try registry.blocksEvaluation(tenant: tenant, subject: subject, now: 20))
    }

    /// Memory holds at most its capacity; the opt-outs past it are marked in the filter and read from the store
    /// when their subject is evaluated, so every one still denies, and other subjects seldom cost a read.
    @Test func optOutsPastMemorysCapacityAreReadFromTheStoreAndStillBlock() throws {
        let store = InterleavingAuthorizationStore()
        let registry = try AuthorizationRegistry(store: store, cooldownMilliseconds: 0, memoryCapacity: 2, overflowFilterBytes: 4096)
        let optedOut = (0..<50).map { SubjectKey(high: 0x5eed_0000 + UInt64($0), low: 0xfeed_0000 &* UInt64($0 + 1)) }
        for subject in optedOut { _ = try registry.change(tenant: tenant, subject: subject, to: .denied, now: 10).wait().get() }
        #expect(registry.heldCount == 2 && registry.overflowCount == 48)
        for subject in optedOut {
            #expect(try registry.blocksEvaluation(tenant: tenant, subject: subject, now: 20))
            #expect(try registry.state(tenant: tenant, subject: subject, now: 20).status == .denied)
        }
        // 48 marked in 32,768 bits: other subjects of the tenant, and the same subjects under another tenant,
        // almost never need the store.
        let before = store.readCount
        let others = (0..<10_000).map { SubjectKey(high: 0xabcd_0000 + UInt64($0), low: UInt64($0) &* 0x9e37_79b9_7f4a_7c15) }
        for subject in others { #expect(try !registry.blocksEvaluation(tenant: tenant, subject: subject, now: 20)) }
        for subject in optedOut { #expect(try !registry.blocksEvaluation(tenant: TenantID("globex")!, subject: subject, now: 20)) }
        #expect(store.readCount - before < 100, "\(store.readCount - before) needless reads of 10,050")

        // Opting back in ends an opt-out only the store keeps.
        let last = try #require(optedOut.last)
        #expect(try registry.change(tenant: tenant, subject: last, to: .authorized, now: 30).wait().get().status == .authorized)
        #expect(try !registry.blocksEvaluation(tenant: tenant, subject: last, now: 40))
        // A store that cannot answer for a subject the filter may hold fails the check rather than letting it pass.
        store.failReads(true)
        #expect(throws: StoreUnavailable.self) { try registry.blocksEvaluation(tenant: tenant, subject: optedOut[10], now: 40) }
        // The two memory holds (the first two opted out) need no read.
        #expect(try registry.blocksEvaluation(tenant: tenant, subject: optedOut[0], now: 40))
        #expect(try registry.blocksEvaluation(tenant: tenant, subject: optedOut[1], now: 40))
        store.failReads(false)

        // A restart fills memory up to its capacity again, and marks the rest.
        let restarted = try AuthorizationRegistry(store: store, cooldownMilliseconds: 0, memoryCapacity: 2, overflowFilterBytes: 4096)
        #expect(restarted.heldCount == 2 && restarted.overflowCount == 47)
        for subject in optedOut.dropLast() { #expect(try restarted.blocksEvaluation(tenant: tenant, subject: subject, now: 50)) }
        #expect(try !restarted.blocksEvaluation(tenant: tenant, subject: last, now: 50))
    }

    /// Room freed in memory by an opt-in takes the next opt-out, and memory never holds more than its capacity.
    @Test func anOptInFreesRoomInMemoryForTheNextOptOut() throws {
        let registry = try AuthorizationRegistry(store: InterleavingAuthorizationStore(), cooldownMilliseconds: 1000, memoryCapacity: 1)
        let first = SubjectKey(high: 1, low: 1), second = SubjectKey(high: 2, low: 2), third = SubjectKey(high: 3, low: 3)
        _ = try registry.change(tenant: tenant, subject: first, to: .denied, now: 0).wait().get()
        _ = try registry.change(tenant: tenant, subject: second, to: .denied, now: 0).wait().get()
        #expect(registry.heldCount == 1 && registry.overflowCount == 1)
        _ = try registry.change(tenant: tenant, subject: first, to: .authorized, now: 10).wait().get()
        #expect(registry.heldCount == 0)
        _ = try registry.change(tenant: tenant, subject: third, to: .deniedRequestable, now: 20).wait().get()
        #expect(registry.heldCount == 1 && registry.overflowCount == 1)
        // Pending opt-outs past the cap wait out their cooldown like the others.
        #expect(try !registry.blocksEvaluation(tenant: tenant, subject: second, now: 999))
        #expect(try registry.blocksEvaluation(tenant: tenant, subject: second, now: 1000))
        #expect(try registry.blocksEvaluation(tenant: tenant, subject: third, now: 1020))
        #expect(try !registry.blocksEvaluation(tenant: tenant, subject: first, now: 1020))
    }

    /// The count an operator watches for a flood keeps rising past the filter's design load: counting only keys that
    /// set a new bit read 3,013 for 17,000 opt-outs in a 1 KiB filter (authorization probe, 6 December).
    @Test func theFiltersCountFollowsAFloodPastItsDesignLoad() throws {
        let filter = try #require(OptOutFilter(bytes: 1024))  // 8,192 bits: about 819 keys at 10 bits a key
        func key(_ index: Int) -> SubjectKey {
            SubjectKey(high: UInt64(index) &* 0xff51_afd7_ed55_8ccd &+ 1, low: UInt64(index) &* 0xc4ce_b9fe_1a85_ec53 ^ 0x77)
        }
        // Sparse: counted exactly but for a false "maybe" now and then.
        for index in 0..<200 { filter.insert(tenant: tenant, subject: key(index)) }
        #expect(filter.estimatedCount == filter.insertions && filter.insertions > 195 && filter.insertions <= 200)
        var previous = filter.estimatedCount
        for total in [1_000, 2_000, 4_000] {
            for index in previous..<total { filter.insert(tenant: tenant, subject: key(index)) }
            let estimate = filter.estimatedCount
            #expect(Double(estimate) > Double(total) * 0.85 && Double(estimate) < Double(total) * 1.15, "\(estimate) for \(total)")
            previous = total
        }
        // Repeats of keys it holds add nothing.
        let counted = filter.estimatedCount
        for index in 0..<500 { filter.insert(tenant: tenant, subject: key(index)) }
        #expect(filter.estimatedCount == counted)
        // Full: at its ceiling, about (m/k) ln(m), far above what the old count stopped at.
        for index in 4_000..<40_000 { filter.insert(tenant: tenant, subject: key(index)) }
        #expect(filter.estimatedCount > 8_000, "\(filter.estimatedCount)")
        #expect(filter.insertions < 4_000, "\(filter.insertions)")
    }

    /// The filter never answers "no" for a key it holds, keeps tenants apart, and its false "maybe" rate at 10
    /// bits a key is near Bloom's 1%.
    @Test func theOptOutFilterHasNoFalseNegativesAndFewFalsePositives() throws {
        let filter = try #require(OptOutFilter(bytes: 12_500))  // rounded down to 8,192 bytes: 65,536 bits
        #expect(filter.bytes == 8_192 && !filter.mayContain(tenant: tenant, subject: subject))
        let held = (0..<6_553).map { SubjectKey(high: UInt64($0) &* 0xff51_afd7_ed55_8ccd, low: UInt64($0) &* 0xc4ce_b9fe_1a85_ec53 ^ 0x1234) }
        for key in held { filter.insert(tenant: tenant, subject: key) }
        // Counted once each, less the few whose bits were all set already.
        #expect(filter.insertions > 6_450 && filter.insertions <= 6_553, "\(filter.insertions)")
        let counted = filter.insertions
        for key in held.prefix(100) { filter.insert(tenant: tenant, subject: key) }
        #expect(filter.insertions == counted)
        #expect(held.allSatisfy { filter.mayContain(tenant: tenant, subject: $0) })
        let probes = 100_000
        let falseMaybes = (0..<probes).filter {
            filter.mayContain(tenant: tenant, subject: SubjectKey(high: UInt64($0) &* 0x9e37_79b9_7f4a_7c15 &+ 7, low: UInt64($0) &* 0xbf58_476d_1ce4_e5b9))
        }.count
        #expect(falseMaybes < probes / 50, "\(falseMaybes) false maybes of \(probes)")
        let otherTenant = held.filter { filter.mayContain(tenant: TenantID("globex")!, subject: $0) }.count
        #expect(otherTenant < held.count / 50, "\(otherTenant) of another tenant's keys")
    }

    /// A filter size the process cannot have stops start-up, not a client's opt-out later.
    @Test func aFilterThatCannotBeReservedFailsTheRegistrysCreation() {
        #expect(throws: AuthorizationRegistry.FilterUnavailable(bytes: .max)) {
            try AuthorizationRegistry(store: InterleavingAuthorizationStore(), cooldownMilliseconds: 0, overflowFilterBytes: .max)
        }
        #expect(OptOutFilter(bytes: 8)?.bytes == 8 && OptOutFilter(bytes: 0)?.bytes == 8)
    }
}

/// Cooldowns against wall-clock steps: with a monotonic clock, a pending opt-out takes effect once its cooldown has
/// run on that clock, and one in force stays in force (authorization probe, 6 December: a step forward ended a 24 h
/// cooldown at once, and a step back put an opt-out in force back to pending).
@Suite struct AuthorizationCooldownClockTests {
    let tenant = TenantID("acme")!
    let subject = SubjectKey(high: 0x1234, low: 0x5678)
    let cooldown: Int64 = 60_000

    final class FakeMonotonicClock: Sendable {
        let value = Atomic<Int64>(0)
        func read() -> Int64 { value.load(ordering: .relaxed) }
        func set(_ milliseconds: Int64) { value.store(milliseconds, ordering: .relaxed) }
    }

    private func registry(_ store: InterleavingAuthorizationStore, _ clock: FakeMonotonicClock, now: Int64 = 0) throws -> AuthorizationRegistry {
        try AuthorizationRegistry(store: store, cooldownMilliseconds: cooldown, monotonic: { clock.read() }, now: now)
    }

    @Test func aStepForwardDoesNotEndACooldown() throws {
        let clock = FakeMonotonicClock()
        let registry = try registry(InterleavingAuthorizationStore(), clock)
        _ = try registry.change(tenant: tenant, subject: subject, to: .denied, now: 0).wait().get()
        // The wall clock jumps a day ahead ten seconds later: the opt-out still waits for the other 50 s.
        clock.set(10_000)
        let stepped: Int64 = 86_400_000
        #expect(try !registry.blocksEvaluation(tenant: tenant, subject: subject, now: stepped))
        let shown = try registry.state(tenant: tenant, subject: subject, now: stepped)
        #expect(shown.pendingStatus == .denied && shown.pendingEffectiveAt == stepped + 50_000)
        clock.set(59_999)
        #expect(try !registry.blocksEvaluation(tenant: tenant, subject: subject, now: stepped + 49_999))
        clock.set(60_000)
        #expect(try registry.blocksEvaluation(tenant: tenant, subject: subject, now: stepped + 50_000))
    }

    @Test func aStepBackNeitherUndoesAnOptOutInForceNorHoldsOneWhoseCooldownHasRun() throws {
        let clock = FakeMonotonicClock()
        let registry = try registry(InterleavingAuthorizationStore(), clock)
        _ = try registry.change(tenant: tenant, subject: subject, to: .denied, now: 0).wait().get()
        clock.set(60_000)
        #expect(try registry.blocksEvaluation(tenant: tenant, subject: subject, now: 60_000))
        // An hour back: still in force.
        #expect(try registry.blocksEvaluation(tenant: tenant, subject: subject, now: 60_000 - 3_600_000))
        #expect(try registry.state(tenant: tenant, subject: subject, now: -3_540_000).status == .denied)

        let other = SubjectKey(high: 0x9999, low: 0x1)
        _ = try registry.change(tenant: tenant, subject: other, to: .deniedRequestable, now: 100_000).wait().get()
        // The clock is stepped back ten minutes while the cooldown runs; once it has run, the opt-out is in force.
        clock.set(60_000 + 59_999)
        #expect(try !registry.blocksEvaluation(tenant: tenant, subject: other, now: 100_000 + 59_999 - 600_000))
        clock.set(60_000 + 60_000)
        #expect(try registry.blocksEvaluation(tenant: tenant, subject: other, now: 100_000 + 60_000 - 600_000))
    }

    /// Without a step, the wall clock's time stands: no opt-out in force before its `pendingEffectiveAt`, even when
    /// the monotonic clock reads a little ahead, and the time shown is the one stored.
    @Test func withoutAStepTheStatedTimeHolds() throws {
        let clock = FakeMonotonicClock()
        let registry = try registry(InterleavingAuthorizationStore(), clock)
        _ = try registry.change(tenant: tenant, subject: subject, to: .denied, now: 0).wait().get()
        clock.set(60_005)
        #expect(try !registry.blocksEvaluation(tenant: tenant, subject: subject, now: 59_999))
        #expect(try registry.state(tenant: tenant, subject: subject, now: 59_999).pendingEffectiveAt == 60_000)
        #expect(try registry.blocksEvaluation(tenant: tenant, subject: subject, now: 60_000))
    }

    /// Opt-outs loaded at start are timed from the wall clock as it reads then.
    @Test func aLoadedPendingOptOutWaitsOnTheMonotonicClock() throws {
        let store = InterleavingAuthorizationStore()
        let first = try registry(store, FakeMonotonicClock())
        _ = try first.change(tenant: tenant, subject: subject, to: .denied, now: 0).wait().get()
        let clock = FakeMonotonicClock()
        clock.set(5_000_000)
        let restarted = try registry(store, clock, now: 20_000)
        // 40 s of cooldown left at the restart; the clock is then stepped a day ahead.
        clock.set(5_000_000 + 39_999)
        #expect(try !restarted.blocksEvaluation(tenant: tenant, subject: subject, now: 86_400_000))
        clock.set(5_000_000 + 40_000)
        #expect(try restarted.blocksEvaluation(tenant: tenant, subject: subject, now: 86_400_000))
        // In force when loaded: a step back after the start does not put it back to pending.
        let inForceAtStart = try registry(store, FakeMonotonicClock(), now: 100_000)
        #expect(try inForceAtStart.blocksEvaluation(tenant: tenant, subject: subject, now: 100_000))
        #expect(try inForceAtStart.blocksEvaluation(tenant: tenant, subject: subject, now: 1_000))
    }
}
