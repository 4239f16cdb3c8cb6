import Synchronization

/// The subjects' authorization states, in memory for the evaluation hot path and written through to the store.
/// Only subjects with an explicit state are held; everyone else is `notDetermined`.
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
        for entry in try store.allAuthorizationStates() { loaded[Key(tenant: entry.tenant, subject: entry.subject)] = entry.state }
        self.states = Mutex(loaded)
    }

    public func state(tenant: TenantID, subject: SubjectKey, now: Int64) -> AuthorizationState {
        (states.withLock { $0[Key(tenant: tenant, subject: subject)] } ?? .initial(at: 0)).resolved(at: now)
    }

    /// Applies a change, durably, and returns the new state.
    ///
    /// Read, save and install are one step under `changing`: two loops changing one subject at once would otherwise
    /// both start from the same state, and the store could keep one answer while memory kept the other (a pending
    /// opt-out the client was told was cancelled, say). Changes are rare; evaluations only read `states`.
    public func change(tenant: TenantID, subject: SubjectKey, to status: AuthorizationStatus, now: Int64) throws -> AuthorizationState {
        let key = Key(tenant: tenant, subject: subject)
        return try changing.withLock { _ in
            let current = states.withLock { $0[key] } ?? .initial(at: now)
            let next = current.changing(to: status, at: now, cooldownMilliseconds: cooldownMilliseconds)
            try store.saveAuthorizationState(next, tenant: tenant, subject: subject)
            states.withLock { $0[key] = next }
            return next
        }
    }
}
