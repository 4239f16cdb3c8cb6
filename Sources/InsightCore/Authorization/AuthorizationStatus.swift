/// The person's choice for this app (`AuthorizationStatus` of the public API).
public enum AuthorizationStatus: String, Sendable, CaseIterable {
    case authorized
    case denied
    case deniedRequestable
    case notDetermined

    /// Whether evaluations for the subject fail with `denied`.
    public var blocksEvaluation: Bool { self == .denied || self == .deniedRequestable }
}

/// A subject's stored state: the status in force, and a pending opt-out waiting for its cooldown.
public struct AuthorizationState: Sendable, Equatable {
    public var status: AuthorizationStatus
    public var pendingStatus: AuthorizationStatus?
    public var pendingEffectiveAt: Int64?
    public var updatedAt: Int64

    public init(status: AuthorizationStatus, pendingStatus: AuthorizationStatus? = nil, pendingEffectiveAt: Int64? = nil, updatedAt: Int64) {
        self.status = status
        self.pendingStatus = pendingStatus
        self.pendingEffectiveAt = pendingEffectiveAt
        self.updatedAt = updatedAt
    }

    /// The state as it stands at `now`: a pending change whose time has come is in force.
    public func resolved(at now: Int64) -> AuthorizationState {
        guard let pending = pendingStatus, let at = pendingEffectiveAt, now >= at else { return self }
        return AuthorizationState(status: pending, updatedAt: at)
    }

    public static func initial(at now: Int64) -> AuthorizationState { AuthorizationState(status: .notDetermined, updatedAt: now) }

    /// Whether this state can fail an evaluation, now or once its cooldown ends: an opt-out in force or pending.
    public var canBlockEvaluation: Bool { status.blocksEvaluation || pendingStatus != nil }

    /// Applies a change asked for at `now`. Turning protection off (to denied or deniedRequestable) waits for the
    /// cooldown, which protects someone coached into switching it off; turning it on, or any other change, is
    /// immediate and cancels a pending opt-out.
    public func changing(to requested: AuthorizationStatus, at now: Int64, cooldownMilliseconds: Int64) -> AuthorizationState {
        let current = resolved(at: now)
        // An opt-out already waiting keeps waiting even when the cooldown is now 0: nothing shortens a wait begun.
        let waits = cooldownMilliseconds > 0 || current.pendingStatus != nil
        if requested.blocksEvaluation && !current.status.blocksEvaluation && waits {
            if current.pendingStatus == requested { return current }
            // Switching between the two opt-outs starts the cooldown again, and never ends sooner than the one
            // already running: a cooldown setting lowered since must not shorten a wait that has begun.
            let effectiveAt = max(now + cooldownMilliseconds, current.pendingEffectiveAt ?? .min)
            return AuthorizationState(status: current.status, pendingStatus: requested, pendingEffectiveAt: effectiveAt, updatedAt: now)
        }
        return AuthorizationState(status: requested, updatedAt: now)
    }
}

/// Where authorization states are kept.
public protocol AuthorizationStore: Sendable {
    /// Calls `body` with every stored state that can fail an evaluation (an opt-out in force or pending), one at a
    /// time: start-up reads them all, and there may be more than memory will hold.
    func forEachOptOut(_ body: (TenantID, SubjectKey, AuthorizationState) throws -> Void) throws
    /// One subject's stored state; nil if none was ever stored.
    func authorizationState(tenant: TenantID, subject: SubjectKey) throws -> AuthorizationState?
    /// Stores `state` as the subject's (replacing any), and calls back once it is durable or has failed, maybe on
    /// another thread. It must not wait for the write: the caller may be an event loop with other connections.
    func saveAuthorizationState(
        _ state: AuthorizationState, tenant: TenantID, subject: SubjectKey,
        completion: @escaping @Sendable (Result<Void, any Error>) -> Void)
}
