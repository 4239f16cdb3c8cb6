import Synchronization

/// The subjects' authorization states, written through to the store. Only states that can fail an evaluation (an
/// opt-out in force or pending) are held in memory, for the evaluation hot path: a client setting `authorized` on
/// millions of made-up refs must not grow the process (it did, by about 150 bytes a subject, for good). The others
/// are read from the store when a route asks; a subject with no stored state is `notDetermined`.
public final class AuthorizationRegistry: Sendable {
    private struct Key: Hashable {
        var tenant: TenantID
        var subject: SubjectKey
    }

    private let store: any AuthorizationStore
    private let states: Mutex<[Key: AuthorizationState]>
    private let changing = Mutex<Void>(())
    public let cooldownMilliseconds: Int64

    /// The cooldown in whole seconds, as the wire states it: rounded up, so a fraction of a second set by the
    /// operator never makes the protective delay look shorter than it is.
    public var cooldownSeconds: Int64 { (cooldownMilliseconds + 999) / 1000 }

    public init(store: any AuthorizationStore, cooldownMilliseconds: Int64) throws {
        self.store = store
        self.cooldownMilliseconds = cooldownMilliseconds
        var loaded: [Key: AuthorizationState] = [:]
        for entry in try store.allAuthorizationStates() where entry.state.canBlockEvaluation {
            loaded[Key(tenant: entry.tenant, subject: entry.subject)] = entry.state
        }
        self.states = Mutex(loaded)
    }

    /// Whether the subject's evaluations fail with `denied` at `now`; from memory alone.
    public func blocksEvaluation(tenant: TenantID, subject: SubjectKey, now: Int64) -> Bool {
        states.withLock { $0[Key(tenant: tenant, subject: subject)] }?.resolved(at: now).status.blocksEvaluation ?? false
    }

    /// The subject's state at `now`, from memory or else the store.
    public func state(tenant: TenantID, subject: SubjectKey, now: Int64) throws -> AuthorizationState {
        if let held = states.withLock({ $0[Key(tenant: tenant, subject: subject)] }) { return held.resolved(at: now) }
        return (try store.authorizationState(tenant: tenant, subject: subject) ?? .initial(at: 0)).resolved(at: now)
    }

    /// How many subjects memory holds (opt-outs in force or pending): it has no cap, since a subject left out would
    /// be evaluated against the person's choice, so operators watch it (`trust_insights_authorization_opt_outs_held`).
    public var heldCount: Int { states.withLock { $0.count } }

    /// Applies a change, durably, and returns the new state.
    ///
    /// Read, save and install are one step under `changing`: two loops changing one subject at once would otherwise
    /// both start from the same state, and the store could keep one answer while memory kept the other (a pending
    /// opt-out the client was told was cancelled, say). Changes are rare; evaluations only read `states`.
    public func change(tenant: TenantID, subject: SubjectKey, to status: AuthorizationStatus, now: Int64) throws -> AuthorizationState {
        let key = Key(tenant: tenant, subject: subject)
        return try changing.withLock { _ in
            let stored = try states.withLock({ $0[key] }) ?? store.authorizationState(tenant: tenant, subject: subject)
            let next = (stored ?? .initial(at: now)).changing(to: status, at: now, cooldownMilliseconds: cooldownMilliseconds)
            // Never set, and set to what it already reads as: nothing to keep.
            if stored == nil && next.status == .notDetermined && next.pendingStatus == nil { return next }
            try store.saveAuthorizationState(next, tenant: tenant, subject: subject)
            states.withLock { states in
                if next.canBlockEvaluation { states[key] = next } else { states.removeValue(forKey: key) }
            }
            return next
        }
    }
}
