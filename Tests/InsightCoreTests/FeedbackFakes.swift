import Synchronization
@testable import InsightCore

/// Consumption storage in memory; `intruder` plays a concurrent request that stores its report first.
final class MemoryConsumptionStore: ConsumptionStore {
    struct Evaluation {
        var tenant: TenantID
        var environment: DeploymentEnvironment
        var createdAt: Int64
        var insightIDs: [String]
    }

    let evaluations = Mutex<[String: Evaluation]>([:])
    let records = Mutex<[String: ConsumptionRecord]>([:])
    let intruder = Mutex<ConsumptionRecord?>(nil)
    let failing = Atomic<Bool>(false)

    func add(
        _ evaluationID: String, tenant: TenantID, environment: DeploymentEnvironment = .production, createdAt: Int64,
        insightIDs: [String]
    ) {
        evaluations.withLock {
            $0[evaluationID] = Evaluation(tenant: tenant, environment: environment, createdAt: createdAt, insightIDs: insightIDs)
        }
    }

    func consumptionTarget(evaluationID: String, tenant: TenantID, environment: DeploymentEnvironment) throws -> ConsumptionTarget? {
        if failing.load(ordering: .relaxed) { throw FakeStoreError.unavailable }
        guard let evaluation = evaluations.withLock({ $0[evaluationID] }), evaluation.tenant == tenant,
              evaluation.environment == environment
        else { return nil }
        return ConsumptionTarget(createdAt: evaluation.createdAt, insightIDs: evaluation.insightIDs, existing: records.withLock { $0[evaluationID] })
    }

    func recordConsumption(_ record: ConsumptionRecord, completion: @escaping @Sendable (Result<StoredConsumption, any Error>) -> Void) {
        if failing.load(ordering: .relaxed) { return completion(.failure(FakeStoreError.unavailable)) }
        if let first = intruder.withLock({ $0 }) { records.withLock { $0[record.evaluationID] = first } }
        completion(.success(records.withLock { records in
            if let existing = records[record.evaluationID] { return .alreadyStored(existing) }
            records[record.evaluationID] = record
            return .inserted(record)
        }))
    }
}

enum FakeStoreError: Error { case unavailable }

/// Label storage in memory with real transaction semantics: a batch's writes are applied only if its body returns.
final class MemoryLabelStore: LabelStore {
    struct State {
        var evaluationTimes: [String: (tenant: TenantID, environment: DeploymentEnvironment, createdAt: Int64)] = [:]
        var versions: [LabelVersion] = []
        var idempotency: [String: IdempotencyRecord] = [:]
        /// Per key, bytes per day.
        var storedBytes: [String: [Int64: Int64]] = [:]
    }

    let state = Mutex(State())
    let failAppends = Atomic<Bool>(false)

    func addInsight(_ insightID: String, tenant: TenantID, environment: DeploymentEnvironment = .production, createdAt: Int64) {
        state.withLock { $0.evaluationTimes[insightID] = (tenant, environment, createdAt) }
    }

    var versions: [LabelVersion] { state.withLock { $0.versions } }

    /// Reads the committed state through a transaction's own functions.
    func transactionState<T>(_ read: (Transaction) throws -> T) throws -> T {
        try read(Transaction(state: state.withLock { $0 }, failAppends: false))
    }
    var idempotencyRecords: Int { state.withLock { $0.idempotency.count } }

    func inLabelTransaction<T: Sendable>(
        _ body: @escaping (any LabelTransaction) throws -> T, completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        let transaction = Transaction(state: state.withLock { $0 }, failAppends: failAppends.load(ordering: .relaxed))
        do {
            let result = try body(transaction)
            state.withLock { $0 = transaction.state }
            completion(.success(result))
        } catch {
            completion(.failure(error))
        }
    }

    final class Transaction: LabelTransaction {
        var state: State
        let failAppends: Bool

        init(state: State, failAppends: Bool) {
            self.state = state
            self.failAppends = failAppends
        }

        func evaluationTimes(ofInsights insightIDs: [String], tenant: TenantID, environment: DeploymentEnvironment) throws -> [String: Int64] {
            var times: [String: Int64] = [:]
            for id in insightIDs {
                if let entry = state.evaluationTimes[id], entry.tenant == tenant, entry.environment == environment {
                    times[id] = entry.createdAt
                }
            }
            return times
        }

        func latestLabels(ofInsights insightIDs: [String], tenant: TenantID) throws -> [String: LabelContent] {
            let wanted = Set(insightIDs)
            var latest: [String: LabelContent] = [:]
            for version in state.versions where version.tenant == tenant && wanted.contains(version.insightID) {
                latest[version.insightID] = version.content
            }
            return latest
        }

        func appendLabels(_ versions: [LabelVersion]) throws {
            if failAppends { throw FakeStoreError.unavailable }
            state.versions += versions
        }

        func idempotencyRecord(tenant: TenantID, environment: DeploymentEnvironment, request: IdempotentRequest) throws -> IdempotencyRecord? {
            state.idempotency[[tenant.rawValue, environment.rawValue, request.keyDigest].joined(separator: "\n")]
        }

        func saveIdempotencyRecord(_ record: IdempotencyRecord) throws {
            state.idempotency[[record.tenant.rawValue, record.environment.rawValue, record.keyDigest].joined(separator: "\n")] = record
        }

        func deleteIdempotencyRecords(createdBefore time: Int64) throws {
            state.idempotency = state.idempotency.filter { $0.value.createdAt >= time }
        }

        func storedLabelBytes(keyID: String, day: Int64) throws -> LabelStorageTally {
            LabelStorageTally(bytesByDay: (state.storedBytes[keyID] ?? [:]).filter { $0.key == day || $0.key == day + 1 })
        }

        func addStoredLabelBytes(_ bytes: Int64, keyID: String, day: Int64) throws {
            state.storedBytes = state.storedBytes.mapValues { $0.filter { $0.key >= day - 1 && $0.key <= day + 1 } }
            state.storedBytes[keyID, default: [:]][day, default: 0] += bytes
        }
    }
}

/// The intakes answer through a one-shot value; these tests read it straight away.
extension ConsumptionIntake {
    func submitAndWait(
        _ report: ConsumptionReport, evaluationID: String, tenant: TenantID, environment: DeploymentEnvironment = .production,
        now: Int64
    ) throws(ConsumptionError) -> ConsumptionOutcome {
        try submit(report, evaluationID: evaluationID, tenant: tenant, environment: environment, now: now).wait().get()
    }
}

extension LabelIntake {
    func submitAndWait(
        _ drafts: [LabelDraft], tenant: TenantID, environment: DeploymentEnvironment = .production, keyID: String = "k_partner",
        idempotency: IdempotentRequest?, now: Int64, encode: @escaping @Sendable ([LabelItemResult]) -> [UInt8]
    ) throws(LabelError) -> LabelSubmission {
        try submit(
            drafts, tenant: tenant, environment: environment, keyID: keyID, idempotency: idempotency, now: now, encode: encode
        ).wait().get()
    }
}
