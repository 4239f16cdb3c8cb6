/// Decides whether a request may go ahead: the key's own limit (cut while it does not report consumption), the
/// device's, and each insight type's. Suspension for sustained non-compliance goes through `suspend`, which the
/// service wires to the key store; it answers whether the suspension was stored, and one that was not is tried
/// again on the key's next request rather than taken for done (and later for an operator's reinstatement).
public final class AdmissionControl: Sendable {
    public enum KeyAdmission: Sendable, Equatable {
        case admitted(RateLimitDecision)
        case limited(RateLimitDecision)
        /// The key has just been suspended (or its suspension is due): answer 403 `access-revoked`.
        case suspended
    }

    private struct DeviceSlot: Hashable, Sendable {
        var tenant: String
        var device: SubjectKey
    }

    /// Per environment too: a sandbox load test must not spend production's allowance, nor the reverse.
    private struct InsightSlot: Hashable, Sendable {
        var tenant: String
        var environment: DeploymentEnvironment
        var insightType: String
    }

    public let policy: RateLimitPolicy
    public let compliance: ComplianceTracker
    private let suspend: @Sendable (_ keyID: String, _ now: Int64) -> Bool
    private let keys = RateLimitTable<String>()
    private let devices = RateLimitTable<DeviceSlot>()
    private let insightTypes = RateLimitTable<InsightSlot>()

    public init(
        policy: RateLimitPolicy, deadlineMilliseconds: Int64, suspend: @escaping @Sendable (_ keyID: String, _ now: Int64) -> Bool
    ) {
        self.policy = policy
        self.compliance = ComplianceTracker(policy: policy.compliance, deadlineMilliseconds: deadlineMilliseconds)
        self.suspend = suspend
    }

    /// The limit a key has right now, after any compliance cut, with its compliance figures.
    public func effectiveLimit(for principal: Principal, now: Int64) -> (limit: RateLimit, figures: ComplianceFigures) {
        let figures = compliance.assess(keyID: principal.keyID, now: now)
        return (limit(for: principal, standing: figures.standing), figures)
    }

    /// The key's compliance figures for the key to read, after storing a suspension that has come due: a key
    /// is suspended by whichever of its requests first finds it due, not only by its next evaluation. A key the
    /// key table already holds suspended reads as suspended, whatever its counts say since (a restart rebuilds
    /// them, and an operator's reinstatement is what ends a suspension).
    public func complianceFigures(for principal: Principal, now: Int64) -> (limit: RateLimit, figures: ComplianceFigures) {
        var figures = compliance.assess(keyID: principal.keyID, now: now, seenSuspended: principal.isSuspended)
        if principal.isSuspended {
            figures.standing = .suspended
        } else if figures.standing == .suspended {
            storeSuspension(of: principal, now: now)
        }
        return (limit(for: principal, standing: figures.standing), figures)
    }

    /// A request of the key's other than an evaluation or a read of its figures (a consumption report): moves its
    /// non-compliance clock and stores a suspension that has come due, as those do.
    public func noteRequest(by principal: Principal, now: Int64) {
        _ = complianceFigures(for: principal, now: now)
    }

    /// The key's own limit, cut while it is not compliant.
    private func limit(for principal: Principal, standing: ComplianceFigures.Standing) -> RateLimit {
        let limit = policy.limit(for: principal)
        return standing == .compliant ? limit : limit.scaled(by: policy.compliance.reducedRateFactor)
    }

    /// One evaluation by this key.
    public func admitEvaluation(_ principal: Principal, now: Int64) -> KeyAdmission {
        let figures = compliance.assess(keyID: principal.keyID, now: now)
        if figures.standing == .suspended {
            storeSuspension(of: principal, now: now)
            return .suspended
        }
        let uncut = policy.limit(for: principal)
        let decision = figures.standing == .compliant
            ? keys.admit(principal.keyID, limit: uncut, now: now)
            : keys.admit(principal.keyID, limit: uncut.scaled(by: policy.compliance.reducedRateFactor), uncut: uncut, now: now)
        return decision.allowed ? .admitted(decision) : .limited(decision)
    }

    /// Gives back the key's share of an evaluation it admitted that another limit (the device's) then refused.
    public func refundEvaluation(_ principal: Principal, limit: RateLimit) {
        keys.refund(principal.keyID, limit: limit)
    }

    /// Stores the suspension once; one that could not be stored is tried again on the key's next request rather
    /// than taken for done.
    private func storeSuspension(of principal: Principal, now: Int64) {
        if compliance.noteSuspended(keyID: principal.keyID, now: now), !suspend(principal.keyID, now) {
            compliance.forgetSuspension(keyID: principal.keyID)
        }
    }

    /// One evaluation for this app on this device.
    public func admitDevice(_ device: SubjectKey, tenant: TenantID, now: Int64) -> RateLimitDecision {
        devices.admit(DeviceSlot(tenant: tenant.rawValue, device: device), limit: policy.device, now: now)
    }

    /// One scoring of this insight type for this tenant in this environment.
    public func admitInsight(_ insightType: String, tenant: TenantID, environment: DeploymentEnvironment, now: Int64) -> Bool {
        let slot = InsightSlot(tenant: tenant.rawValue, environment: environment, insightType: insightType)
        return insightTypes.admit(slot, limit: policy.insightType, now: now).allowed
    }

    /// Limiter states held once idle ones are dropped, for the metrics gauge.
    public func trackedStates(now: Int64) -> Int {
        keys.sweepAndCount(now: now) + devices.sweepAndCount(now: now) + insightTypes.sweepAndCount(now: now)
    }
}
