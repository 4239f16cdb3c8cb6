/// One boosting round, as reported to a progress display.
public struct TrainingProgress: Sendable {
    /// 0-based round.
    public var iteration: Int
    public var totalIterations: Int
    public var trainLogLoss: Double
    public var validationLogLoss: Double
    public var validationAUC: Double
    public var bestIteration: Int
}

/// Receives progress at most once per `interval` (plus the last round): computing AUC each round would cost more
/// than a small tree.
public struct TrainingProgressReporter {
    public var interval: Duration
    public var report: (TrainingProgress) -> Void

    public init(interval: Duration = .milliseconds(250), report: @escaping (TrainingProgress) -> Void) {
        self.interval = interval
        self.report = report
    }
}
