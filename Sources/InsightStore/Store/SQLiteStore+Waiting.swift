import InsightCore

/// The store answers writes through callbacks so the service never parks a thread on a commit; command-line tools
/// and tests, which have nothing else to do meanwhile, wait for the answer with these.
extension SQLiteStore {
    public enum WaitedWriteError: Error { case failed }

    public func recordAndWait(_ evaluation: EvaluationRecord) throws {
        guard record(evaluation).wait() else { throw WaitedWriteError.failed }
    }

    public func recordConsumptionAndWait(_ consumption: ConsumptionRecord) throws -> StoredConsumption {
        let answer = OneShot<Result<StoredConsumption, any Error>>()
        recordConsumption(consumption) { answer.fulfil($0) }
        return try answer.wait().get()
    }

    public func inLabelTransactionAndWait<T: Sendable>(_ body: @escaping (any LabelTransaction) throws -> T) throws -> T {
        let answer = OneShot<Result<T, any Error>>()
        inLabelTransaction(body) { answer.fulfil($0) }
        return try answer.wait().get()
    }
}
