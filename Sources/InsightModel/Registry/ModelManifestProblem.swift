/// What makes a manifest entry wrong before its model file is read. Each names the entry by its position and
/// identity, as `models[3] (isLikelyBeingCoached/payment 2026.12.01)`.
enum ModelManifestProblem: Sendable, CustomStringConvertible {
    case badVersion(entry: String, InvalidModelVersion)
    case sameVersion(entry: String, earlier: String, identical: Bool)
    case absolutePath(entry: String, path: String)
    case emptyPath(entry: String)
    case badDigest(entry: String)
    /// Every insight would answer insightUnavailable: a deployment mistake (a script that wrote an empty list),
    /// refused alike at start, on reload (the old models stay) and by `models verify`.
    case noModels

    static func name(of entry: ModelManifest.Entry, at index: Int) -> String {
        "models[\(index)] (\(entry.insightType)/\(entry.category) \(entry.version))"
    }

    var description: String {
        switch self {
        case .badVersion(let entry, let problem): "\(entry): \(problem)"
        case .sameVersion(let entry, let earlier, let identical):
            identical
                ? "\(entry): the version is listed twice (also as \(earlier))"
                : "\(entry): the same version as \(earlier) (versions compare by the numbers of their parts)"
        case .absolutePath(let entry, let path):
            "\(entry): path '\(path)' is absolute: a path is relative to the manifest's directory"
        case .emptyPath(let entry): "\(entry): path is empty"
        case .badDigest(let entry): "\(entry): sha256 is not 64 hexadecimal digits (the output of sha256sum)"
        case .noModels: "lists no models: every insight would answer insightUnavailable"
        }
    }

    /// The first problem of `manifest`'s entries, if any, checked before any model is loaded.
    static func first(in manifest: ModelManifest) -> ModelManifestProblem? {
        guard !manifest.models.isEmpty else { return .noModels }
        var earlier: [String: [(version: String, name: String)]] = [:]
        for (index, entry) in manifest.models.enumerated() {
            let name = name(of: entry, at: index)
            do throws(InvalidModelVersion) {
                try ModelVersionSyntax.check(entry.version)
            } catch {
                return .badVersion(entry: name, error)
            }
            guard !entry.path.isEmpty else { return .emptyPath(entry: name) }
            guard !entry.path.hasPrefix("/") else { return .absolutePath(entry: name, path: entry.path) }
            if let digest = entry.sha256, !ModelFileDigest.isWellFormed(digest) { return .badDigest(entry: name) }
            let pair = "\(entry.insightType)\u{0}\(entry.category)"
            if let same = earlier[pair]?.first(where: { ModelVersionOrder.areSame($0.version, entry.version) }) {
                return .sameVersion(entry: name, earlier: same.name, identical: same.version == entry.version)
            }
            earlier[pair, default: []].append((entry.version, name))
        }
        return nil
    }
}

extension ModelManifest {
    /// Why the registry refuses this manifest before it loads any model (its format version, then its entries), or
    /// nil: one rule for the registry and for the commands that look at a manifest beside their output.
    public var refusalBeforeLoading: String? {
        guard formatVersion == ModelManifest.currentFormatVersion else { return "unsupported manifest formatVersion \(formatVersion)" }
        return ModelManifestProblem.first(in: self)?.description
    }
}
