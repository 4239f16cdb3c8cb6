import Synchronization

/// Counts, per key, evaluations and the consumption reports that came back by their deadline, in time buckets by
/// evaluation time. A bucket is judged once every evaluation in it is past its deadline, so a report still in
/// time never counts as missing. State is in memory and rebuilt from the store at start (`replay`).
public final class ComplianceTracker: Sendable {
    private struct Bucket {
        var evaluated = 0
        var onTime = 0
        var late = 0
    }

    private struct KeyState {
        var buckets: [Int64: Bucket] = [:]
        var nonCompliantSince: Int64?
        /// When this service suspended the key, or first saw it suspended in the key table; see `assess` for how a
        /// reinstatement is noticed.
        var suspendedAt: Int64?
        /// This process stored the suspension (`noteSuspended`), as opposed to finding it in the key table (after a
        /// restart, or from another replica). Only its own suspension holds a reinstated key back for the grace, and
        /// only then is the non-compliance clock its own: a clock started while the key table held the key
        /// suspended would date from a sighting, not from the key's reporting.
        var suspendedHere = false
    }

    public let policy: CompliancePolicy
    public let deadlineMilliseconds: Int64
    private let bucketMilliseconds: Int64
    private let keys = Mutex<[String: KeyState]>([:])

    public init(policy: CompliancePolicy, deadlineMilliseconds: Int64) {
        self.policy = policy
        self.deadlineMilliseconds = deadlineMilliseconds
        bucketMilliseconds = max(1000, Int64(policy.windowSeconds) * 1000 / 120)
    }

    /// How far back `replay` needs evaluations: the window, behind the deadline, plus one bucket.
    public var replayWindowMilliseconds: Int64 { Int64(policy.windowSeconds) * 1000 + deadlineMilliseconds + bucketMilliseconds }

    public func noteEvaluation(keyID: String, at createdAt: Int64) {
        keys.withLock { keys in keys[keyID, default: KeyState()].buckets[createdAt / bucketMilliseconds, default: Bucket()].evaluated += 1 }
    }

    /// A first report for an evaluation of `keyID` created at `createdAt`.
    public func noteReport(keyID: String, evaluationCreatedAt createdAt: Int64, late: Bool) {
        keys.withLock { keys in
            let index = createdAt / bucketMilliseconds
            guard keys[keyID]?.buckets[index] != nil else { return }
            if late { keys[keyID]!.buckets[index]!.late += 1 } else { keys[keyID]!.buckets[index]!.onTime += 1 }
        }
    }

    /// Rebuilds one evaluation from the store: its time and, if reported, whether late.
    public func replay(keyID: String, createdAt: Int64, reportLate: Bool?) {
        noteEvaluation(keyID: keyID, at: createdAt)
        if let reportLate { noteReport(keyID: keyID, evaluationCreatedAt: createdAt, late: reportLate) }
    }

    /// The key's figures at `now`; also moves its non-compliance clock (call it on the key's requests).
    /// `seenSuspended`: the key table holds the key suspended (only the routes that admit suspended keys see it).
    public func assess(keyID: String, now: Int64, seenSuspended: Bool = false) -> ComplianceFigures {
        keys.withLock { keys in
            var state = keys[keyID] ?? KeyState()
            if seenSuspended {
                // From the first sighting only: the grace covers requests that passed authentication just before
                // the key table said suspended, and none can come later. Moving it with every sighting would hold
                // a reinstated key back for the grace after its last suspended request (an app polling its
                // compliance figures while suspended).
                if state.suspendedAt == nil { state.suspendedAt = now }
            } else if let suspendedAt = state.suspendedAt,
                !state.suspendedHere || now - suspendedAt > Self.reinstatementGraceMilliseconds
            {
                // An active key that this service suspended a while ago (longer than the key table takes to
                // refresh), or that it only saw suspended, has been reinstated by an operator: its non-compliance
                // clock starts again.
                state.suspendedAt = nil
                state.suspendedHere = false
                state.nonCompliantSince = nil
            }
            // While the key table holds a suspension this process did not store, the clock stands still: its
            // start would be this process's first sighting, which says nothing about the key.
            let clockStopped = seenSuspended && !state.suspendedHere
            let newestJudged = (now - deadlineMilliseconds) / bucketMilliseconds - 1
            let oldestJudged = (now - deadlineMilliseconds - Int64(policy.windowSeconds) * 1000) / bucketMilliseconds
            var judged = 0, onTime = 0, late = 0
            for (index, bucket) in state.buckets {
                if index < oldestJudged {
                    state.buckets[index] = nil
                } else if index <= newestJudged {
                    judged += bucket.evaluated
                    onTime += bucket.onTime
                    late += bucket.late
                }
            }
            let missingShare = judged == 0 ? 0 : Double(judged - onTime) / Double(judged)
            let failing = judged >= policy.minimumJudged && missingShare > policy.threshold
            if failing && !clockStopped {
                state.nonCompliantSince = state.nonCompliantSince ?? now
            } else {
                state.nonCompliantSince = nil
            }
            let suspendsAt = policy.suspendAfterSeconds > 0
                ? state.nonCompliantSince.map { $0 + Int64(policy.suspendAfterSeconds) * 1000 } : nil
            let standing: ComplianceFigures.Standing
            if let suspendsAt, now >= suspendsAt {
                standing = .suspended
            } else {
                standing = failing ? .rateReduced : .compliant
            }
            if state.buckets.isEmpty && state.nonCompliantSince == nil && state.suspendedAt == nil {
                keys[keyID] = nil
            } else {
                keys[keyID] = state
            }
            return ComplianceFigures(
                judged: judged, reportedOnTime: onTime, reportedLate: late, standing: standing,
                nonCompliantSince: state.nonCompliantSince, suspendsAt: suspendsAt)
        }
    }

    /// Longer than the authenticator's key-table refresh, so requests already past authentication when the key
    /// was suspended are not taken for a reinstatement.
    static let reinstatementGraceMilliseconds: Int64 = 5000

    /// The key was suspended at `now`; true the first time (the caller then stores the suspension).
    public func noteSuspended(keyID: String, now: Int64) -> Bool {
        keys.withLock { keys in
            guard keys[keyID]?.suspendedAt == nil else { return false }
            keys[keyID, default: KeyState()].suspendedAt = now
            keys[keyID]!.suspendedHere = true
            return true
        }
    }

    /// The suspension noted at `noteSuspended` could not be stored: the key is not suspended, and the next
    /// assessment that finds it due tries again.
    public func forgetSuspension(keyID: String) {
        keys.withLock { keys in
            keys[keyID]?.suspendedAt = nil
            keys[keyID]?.suspendedHere = false
        }
    }

    public var trackedKeys: Int { keys.withLock { $0.count } }
}
