import InsightCore
import InsightStore

/// Everything `serve` needs to start, after defaults, `config/default.json`, `TRUST_INSIGHTS_*` variables and
/// command-line flags have been layered in that order.
public struct ServiceConfiguration: Sendable, Equatable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var dataDir = "./data"
    public var modelsDir = "./models"
    public var configDir = "./config"
    public var eventLoops = 0
    public var maxConnections = 10_000
    public var maxRequestLineBytes = 8192
    public var maxHeaderBytes = 16384
    public var maxHeaderCount = 100
    public var maxBufferedBodyBytes = 268_435_456
    public var maxBodyBytes = 65536
    public var requestTimeoutSeconds = 10.0
    public var idleTimeoutSeconds = 60.0
    public var writeTimeoutSeconds = 10.0
    /// 0 leaves the kernel's autotuning on.
    public var sendBufferBytes = 256 * 1024
    public var shutdownGraceSeconds = 10.0
    public var accessLog = true
    public var accessLogRefusedPerSecond = 100
    public var authorizationCooldownSeconds = 86400.0
    /// About 230 bytes each: 46 MB at most by default.
    public var authorizationOptOutsInMemory = 200_000
    public var authorizationOptOutFilterBytes = 8 << 20
    public var consumptionDeadlineSeconds = 600.0
    public var metricsSuppressionK = MetricsPolicy.defaultSuppressionK
    public var metricsMaturityDays = MetricsPolicy.defaultMaturityDays
    public var commitWindowMicroseconds = 0
    /// Each commit waits for the disk's flush of the WAL before its answers go (SQLite's `synchronous=FULL`):
    /// acknowledged writes then survive an OS crash or a power cut too, not only the process's death.
    public var syncEveryCommit = false
    /// Retired and ignored (ConfigurationKey), kept so that files which set it stay valid.
    public var evaluationHoldMicroseconds = 2000

    public init() {}
}

extension ServiceConfiguration {
    /// The disclosure and maturity rules of label metrics, for the API, `export` and `report` alike.
    var metricsPolicy: MetricsPolicy {
        MetricsPolicy(suppressionK: metricsSuppressionK, maturityDays: metricsMaturityDays)
    }

    /// The opt-out cooldown as the registry keeps it, rounded up: a cooldown set above 0 (`0.0004`) must not become
    /// none.
    var authorizationCooldownMilliseconds: Int64 {
        Int64((authorizationCooldownSeconds * 1000).rounded(.up))
    }
}
