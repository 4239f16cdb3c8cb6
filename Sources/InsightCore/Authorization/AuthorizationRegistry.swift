import Synchronization

/// The subjects' authorization states, written through to the store. Only states that can fail an evaluation (an
/// opt-out in force or pending) are held in memory, for the evaluation hot path: a client setting `authorized` on
/// millions of made-up refs must not grow the process (it did, by about 150 bytes a subject, for good). The others
/// are read from the store when a route asks; a subject with no stored state is `notDetermined`.
///
/// Memory holds at most `memoryCapacity` opt-outs (about 230 bytes each, and a 40-byte deadline entry, by its layout, while one is pending). The ones past it are kept by the store
/// alone and marked in a fixed-size `OptOutFilter`, so an evaluation of their subject reads the store: leaving one
/// out would evaluate a person against their choice, and holding every one would let a client key grow the process
/// without end by opting out made-up refs.
public final class AuthorizationRegistry: Sendable {
    /// The filter's memory could not be reserved: start-up stops and names the setting, where a lazy reservation
    /// would have stopped the process inside a client's opt-out.
    public struct FilterUnavailable: Error, Equatable {
        public var bytes: Int
    }

    /// The filter's memory, reserved apart from the registry: the service takes it with its other settings, before
    /// it touches the data folder, so that a size it cannot have stops start-up before a first start prints keys.
    public struct FilterReservation: Sendable {
        fileprivate let filter: OptOutFilter

        public init(bytes: Int) throws(FilterUnavailable) {
            guard let filter = OptOutFilter(bytes: bytes) else { throw FilterUnavailable(bytes: bytes) }
            self.filter = filter
        }
    }

    private struct Key: Hashable {
        var tenant: TenantID
        var subject: SubjectKey
    }

    private struct Held {
        var states: [Key: AuthorizationState] = [:]
        /// For held pending opt-outs, the instant on the monotonic clock before which they may not take effect.
        var deadlines: [Key: Int64] = [:]
        let overflow: OptOutFilter
    }

    private struct Change: Sendable {
        var status: AuthorizationStatus
        var now: Int64
        let answer = OneShot<Result<AuthorizationState, any Error>>()
    }

    /// What memory says of a subject, before any store read.
    private enum Lookup {
        case held(AuthorizationState)
        case maybeInStore
        case none
    }

    private let store: any AuthorizationStore
    private let held: Mutex<Held>
    /// The subjects with a change under way, and the changes waiting behind it, oldest first.
    private let underWay = Mutex<[Key: [Change]]>([:])
    public let cooldownMilliseconds: Int64
    public let memoryCapacity: Int
    /// Milliseconds on a clock wall-clock steps do not move (`Clock.monotonicMilliseconds`), or nil to judge
    /// cooldowns by the wall clock alone (tests that pass their own `now`).
    private let monotonic: (@Sendable () -> Int64)?

    /// A wall clock this far behind a pending opt-out's time, once its cooldown has run on the monotonic clock, was
    /// stepped back; within it, the two clocks' readings merely differ.
    static let stepTolerance: Int64 = 1000

    /// The cooldown in whole seconds, as the wire states it: rounded up, so a fraction of a second set by the
    /// operator never makes the protective delay look shorter than it is.
    public var cooldownSeconds: Int64 { (cooldownMilliseconds + 999) / 1000 }

    /// - Parameters:
    ///   - memoryCapacity: the most opt-outs held in memory; the rest are read from the store when evaluated.
    ///   - overflowFilterBytes: the size of the filter that marks the rest (rounded down to a power of two; about
    ///     10 bits an opt-out past the capacity keep the store reads of other subjects near 1%).
    ///   - monotonic: a clock wall-clock steps do not move; with it, a held pending opt-out takes effect once its
    ///     cooldown has run on that clock, and one in force stays so however the wall clock is stepped (see
    ///     `blocksEvaluation`). `now` is the wall clock's time as the stored opt-outs are loaded.
    public convenience init(store: any AuthorizationStore, cooldownMilliseconds: Int64, memoryCapacity: Int = 200_000,
                            overflowFilterBytes: Int = 8 << 20, monotonic: (@Sendable () -> Int64)? = nil, now: Int64 = 0) throws {
        try self.init(
            store: store, cooldownMilliseconds: cooldownMilliseconds, memoryCapacity: memoryCapacity,
            overflowFilter: FilterReservation(bytes: overflowFilterBytes), monotonic: monotonic, now: now)
    }

    /// The same, with the filter's memory already reserved (`FilterReservation`).
    public init(store: any AuthorizationStore, cooldownMilliseconds: Int64, memoryCapacity: Int = 200_000,
                overflowFilter: FilterReservation, monotonic: (@Sendable () -> Int64)? = nil, now: Int64 = 0) throws {
        self.store = store
        self.cooldownMilliseconds = cooldownMilliseconds
        self.monotonic = monotonic
        let capacity = max(0, memoryCapacity)
        self.memoryCapacity = capacity
        var loaded = Held(overflow: overflowFilter.filter)
        let loadedAt = monotonic?()
        // Each row read brings its own copy of the tenant's name; held keys share one per tenant instead (a 64-byte
        // name cost 116 bytes more an opt-out).
        var tenants: [TenantID: TenantID] = [:]
        try store.forEachOptOut { tenant, subject, state in
            let shared = tenants[tenant] ?? tenant
            if tenants[tenant] == nil { tenants[tenant] = tenant }
            // One already in force is held as such, so that a step back cannot put it back to pending; a pending
            // one is timed on the monotonic clock from now.
            let held = loadedAt != nil && (state.pendingEffectiveAt.map { $0 <= now } ?? false) ? state.resolved(at: now) : state
            Self.install(
                held, for: Key(tenant: shared, subject: subject), in: &loaded, capacity: capacity,
                deadline: loadedAt.flatMap { Self.deadline(of: held, monotonic: $0, now: now) })
        }
        self.held = Mutex(loaded)
    }

    /// The monotonic instant a pending opt-out's time stands for, read against the wall clock's `now`.
    private static func deadline(of state: AuthorizationState, monotonic: Int64, now: Int64) -> Int64? {
        guard state.pendingStatus != nil, let at = state.pendingEffectiveAt else { return nil }
        return monotonic + max(0, at - now)
    }

    /// A held state as it stands at the wall clock's `now`. With a monotonic clock, a pending opt-out takes effect
    /// once its cooldown has run on it, and not before, whatever the wall clock says: a step forward (or a clock
    /// that was behind when the opt-out was asked for, then corrected) ended cooldowns at once, where they protect
    /// someone coached into switching protection off, and a step back put an opt-out in force back to pending
    /// (authorization probe, 6 December). In force, it is kept so in memory. While it waits, its time is stated on
    /// the wall clock as it now reads, when that moved by more than `stepTolerance`.
    private func resolvedHeld(_ state: AuthorizationState, for key: Key, now: Int64) -> AuthorizationState {
        guard let monotonic, let pending = state.pendingStatus, let at = state.pendingEffectiveAt else { return state.resolved(at: now) }
        return held.withLock { held in
            guard held.states[key] == state, let deadline = held.deadlines[key] else { return state.resolved(at: now) }
            let instant = monotonic()
            // Run on the monotonic clock, with the wall clock there too, or behind by more than a step's tolerance.
            if instant >= deadline && (now >= at || at - now > Self.stepTolerance) {
                let inForce = AuthorizationState(status: pending, updatedAt: at)
                held.states[key] = inForce
                held.deadlines[key] = nil
                return inForce
            }
            var waiting = state
            let expected = now + max(0, deadline - instant)
            if abs(expected - at) > Self.stepTolerance { waiting.pendingEffectiveAt = expected }
            return waiting
        }
    }

    /// Whether the subject's evaluations fail with `denied` at `now`: from memory, or from the store for a subject
    /// the filter may hold (throws only then, when the store cannot answer).
    public func blocksEvaluation(tenant: TenantID, subject: SubjectKey, now: Int64) throws -> Bool {
        let key = Key(tenant: tenant, subject: subject)
        switch lookup(key) {
        case .held(let state): return resolvedHeld(state, for: key, now: now).status.blocksEvaluation
        case .none: return false
        case .maybeInStore:
            return try store.authorizationState(tenant: tenant, subject: subject)?.resolved(at: now).status.blocksEvaluation ?? false
        }
    }

    /// The subject's state at `now`, from memory or else the store.
    public func state(tenant: TenantID, subject: SubjectKey, now: Int64) throws -> AuthorizationState {
        let key = Key(tenant: tenant, subject: subject)
        if case .held(let state) = lookup(key) { return resolvedHeld(state, for: key, now: now) }
        return (try store.authorizationState(tenant: tenant, subject: subject) ?? .initial(at: 0)).resolved(at: now)
    }

    /// How many opt-outs, in force or pending, memory holds (`trust_insights_authorization_opt_outs_held`); at most
    /// `memoryCapacity`.
    public var heldCount: Int { held.withLock { $0.states.count } }

    /// About how many distinct opt-outs were marked in the filter since start, for want of room in memory (counted
    /// while the filter is sparse, then estimated from its fill; opt-ins since do not lower it): those whose
    /// subjects' evaluations read the store (`trust_insights_authorization_opt_outs_in_store_only`).
    public var overflowCount: Int { held.withLock { $0.overflow.estimatedCount } }

    /// Applies a change, durably: the answer is the new state, once it is stored and what evaluations see, or the
    /// store's error. It returns at once; the caller (an event loop) serves others while the write commits.
    ///
    /// Changes to one subject run one after another, each from the state the one before it left: read, save and
    /// install, then the next. Two loops changing one subject at once would otherwise both start from the same
    /// state, and their saves' completions (which may run on two threads) could install in the other order than
    /// the store kept them (a pending opt-out the client was told was cancelled, say). Only subjects with a change
    /// under way are queued for; evaluations only read `held`.
    public func change(tenant: TenantID, subject: SubjectKey, to status: AuthorizationStatus, now: Int64) -> OneShot<Result<AuthorizationState, any Error>> {
        let key = Key(tenant: tenant, subject: subject)
        let change = Change(status: status, now: now)
        let first = underWay.withLock { underWay in
            guard underWay[key] == nil else {
                underWay[key]?.append(change)
                return false
            }
            underWay[key] = []
            return true
        }
        if first { run(change, for: key) }
        return change.answer
    }

    private func run(_ first: Change, for key: Key) {
        var change: Change? = first
        while let current = change {
            change = nil
            let stored: AuthorizationState?
            do {
                if case .held(let state) = lookup(key) {
                    stored = resolvedHeld(state, for: key, now: current.now)
                } else {
                    stored = try store.authorizationState(tenant: key.tenant, subject: key.subject)
                }
            } catch {
                change = finish(current, with: .failure(error), for: key)
                continue
            }
            let next = (stored ?? .initial(at: current.now)).changing(to: current.status, at: current.now, cooldownMilliseconds: cooldownMilliseconds)
            // Never set, and set to what it already reads as: nothing to keep.
            if stored == nil && next.status == .notDetermined && next.pendingStatus == nil {
                change = finish(current, with: .success(next), for: key)
                continue
            }
            let deadline = monotonic.flatMap { Self.deadline(of: next, monotonic: $0(), now: current.now) }
            store.saveAuthorizationState(next, tenant: key.tenant, subject: key.subject) { [self] saved in
                if case .success = saved {
                    held.withLock { Self.install(next, for: key, in: &$0, capacity: memoryCapacity, deadline: deadline) }
                }
                if let following = finish(current, with: saved.map { next }, for: key) { run(following, for: key) }
            }
        }
    }

    /// Answers `change` and returns the subject's next change, if one is waiting; else the subject has none under way.
    private func finish(_ change: Change, with result: Result<AuthorizationState, any Error>, for key: Key) -> Change? {
        change.answer.fulfil(result)
        return underWay.withLock { underWay in
            guard let waiting = underWay[key], !waiting.isEmpty else {
                underWay[key] = nil
                return nil
            }
            underWay[key]?.removeFirst()
            return waiting[0]
        }
    }

    private func lookup(_ key: Key) -> Lookup {
        held.withLock { held in
            if let state = held.states[key] { return .held(state) }
            return held.overflow.mayContain(tenant: key.tenant, subject: key.subject) ? .maybeInStore : .none
        }
    }

    /// Keeps a state that can block in memory while there is room, or else marks it in the filter; forgets one that
    /// cannot (a filter's mark stays, and only costs a store read).
    private static func install(_ state: AuthorizationState, for key: Key, in held: inout Held, capacity: Int, deadline: Int64?) {
        guard state.canBlockEvaluation else {
            held.states.removeValue(forKey: key)
            held.deadlines.removeValue(forKey: key)
            return
        }
        if held.states[key] != nil || held.states.count < capacity {
            held.states[key] = state
            held.deadlines[key] = deadline
        } else {
            held.overflow.insert(tenant: key.tenant, subject: key.subject)
        }
    }
}
