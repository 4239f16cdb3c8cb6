/// `models/manifest.json`: which model versions exist for each (insight type, category), their status and
/// where their files are (relative to the manifest's directory).
public struct ModelManifest: Codable, Sendable, Hashable {
    public static let currentFormatVersion = 1

    public var formatVersion: Int
    public var models: [Entry]

    public init(formatVersion: Int = ModelManifest.currentFormatVersion, models: [Entry] = []) {
        self.formatVersion = formatVersion
        self.models = models
    }

    public struct Entry: Codable, Sendable, Hashable {
        public var insightType: String
        public var category: String
        public var version: String
        public var status: ModelStatus
        /// Relative to the manifest's directory.
        public var path: String
        /// How the model was made (tool, seeds, data), free-form; kept through registration and edits.
        public var provenance: [String: String]?
        /// Metrics on data the model never saw in training or threshold selection (auc, logLoss, rows, ...).
        public var heldOutMetrics: [String: Double]?
        /// The SHA-256 of the model file, 64 hexadecimal digits, when the entry pins its bytes: a file changed or
        /// swapped after registration is refused at load instead of served. `models import --register` records it.
        public var sha256: String?

        public init(
            insightType: String, category: String, version: String, status: ModelStatus, path: String,
            provenance: [String: String]? = nil, heldOutMetrics: [String: Double]? = nil, sha256: String? = nil
        ) {
            self.insightType = insightType
            self.category = category
            self.version = version
            self.status = status
            self.path = path
            self.provenance = provenance
            self.heldOutMetrics = heldOutMetrics
            self.sha256 = sha256
        }
    }
}

public enum ModelStatus: String, Codable, Sendable, Hashable {
    /// Served for `modelVersion: "current"`; exactly one per pair that has any non-candidate version.
    case current
    /// Still served when asked for by version.
    case prior
    /// Registered but not yet promoted; served only when asked for by version.
    case candidate

    /// Names the statuses there are: the synthesised decoder said only "Cannot initialize ModelStatus from invalid
    /// String value" (command-line probe, 6 December).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let status = ModelStatus(rawValue: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text.prefix(64))' is no status: one of current, prior, candidate")
        }
        self = status
    }
}

/// The version a request asks for.
public enum ModelVersionSelector: Sendable, Hashable {
    case current
    case specific(String)
}

/// Orders versions like `2026.09.1` by their numeric parts, from the first (text compares where a part is not a
/// number, which `ModelVersionSyntax` keeps out of manifests). `09` and `9` are the same part.
public enum ModelVersionOrder {
    public static func isOlder(_ lhs: String, than rhs: String) -> Bool {
        let left = lhs.split(separator: ".")
        let right = rhs.split(separator: ".")
        for (a, b) in zip(left, right) where a != b {
            if let x = Int(a), let y = Int(b) {
                if x == y { continue }
                return x < y
            }
            return a < b
        }
        return left.count < right.count
    }

    /// Neither is older: the same version however its parts are written.
    public static func areSame(_ lhs: String, _ rhs: String) -> Bool {
        !isOlder(lhs, than: rhs) && !isOlder(rhs, than: lhs)
    }
}
