import FoundationEssentials

/// Every model of one manifest, loaded, validated, compiled and schema-checked. A request takes one snapshot and
/// uses it to the end, so a reload never changes a model under it.
public final class RegistrySnapshot: Sendable {
    struct Pair: Hashable, Sendable {
        var insightType: String
        var category: String
    }

    public let manifest: ModelManifest
    /// Increases by one with every successful reload.
    public let generation: Int
    let models: [Pair: [String: LoadedModel]]
    let currentVersions: [Pair: String]
    let newestVersions: [Pair: String]
    /// Models of the manifest left out because they could not be loaded (only when built skipping them).
    public let refused: [ModelRegistryError]

    /// Models of the manifest loaded and compiled, candidates included.
    public var loadedCount: Int { models.values.reduce(0) { $0 + $1.count } }

    /// Builds a snapshot from manifest bytes; `readModel` reads a path relative to the manifest's directory.
    /// With `skippingInvalidModels`, a model that cannot be read, decoded, compiled or bound is left out and listed
    /// in `refused` (the manifest itself must still be valid); otherwise the first such model fails the snapshot.
    public init(
        manifestData: Data, manifestFile: String, generation: Int, schemaCheck: some ModelSchemaCheck,
        skippingInvalidModels: Bool = false, readModel: (String) throws -> Data
    ) throws(ModelRegistryError) {
        let manifest: ModelManifest
        do {
            manifest = try ModelManifest(jsonData: manifestData)
        } catch {
            throw ModelRegistryError(file: manifestFile, reason: "not a valid manifest (\(error))")
        }
        // Manifest errors, unlike a model that fails to load, are never skipped.
        if let refusal = manifest.refusalBeforeLoading {
            throw ModelRegistryError(file: manifestFile, reason: refusal)
        }
        for (index, entry) in manifest.models.enumerated() {
            if let problem = schemaCheck.problem(insightType: entry.insightType, category: entry.category) {
                throw ModelRegistryError(
                    file: manifestFile, reason: "\(ModelManifestProblem.name(of: entry, at: index)): \(problem)")
            }
        }
        var models: [Pair: [String: LoadedModel]] = [:]
        var currents: [Pair: String] = [:]
        var newest: [Pair: String] = [:]
        var hasServed = Set<Pair>()
        var refused: [ModelRegistryError] = []
        var refusedCurrent = Set<Pair>()
        for entry in manifest.models {
            let pair = Pair(insightType: entry.insightType, category: entry.category)
            let loaded: LoadedModel
            do {
                loaded = try Self.load(entry, schemaCheck: schemaCheck, readModel: readModel)
            } catch {
                guard skippingInvalidModels else { throw error }
                refused.append(error)
                if entry.status == .current { refusedCurrent.insert(pair) }
                continue
            }
            models[pair, default: [:]][entry.version] = loaded
            if entry.status != .candidate {
                hasServed.insert(pair)
                if let known = newest[pair], !ModelVersionOrder.isOlder(known, than: entry.version) {} else {
                    newest[pair] = entry.version
                }
            }
            if entry.status == .current {
                if let existing = currents[pair] {
                    throw ModelRegistryError(
                        file: manifestFile,
                        reason: "\(entry.insightType)/\(entry.category) has two current versions (\(existing), \(entry.version))")
                }
                currents[pair] = entry.version
            }
        }
        // A pair whose current model was refused serves its other versions; `current` resolves to nothing.
        for pair in hasServed where currents[pair] == nil && !refusedCurrent.contains(pair) {
            throw ModelRegistryError(
                file: manifestFile, reason: "\(pair.insightType)/\(pair.category) has no current version")
        }
        self.manifest = manifest
        self.generation = generation
        self.models = models
        self.currentVersions = currents
        self.newestVersions = newest
        self.refused = refused
    }

    /// Reads, decodes, validates, compiles and schema-checks one manifest entry's model.
    static func load(
        _ entry: ModelManifest.Entry, schemaCheck: some ModelSchemaCheck, readModel: (String) throws -> Data
    ) throws(ModelRegistryError) -> LoadedModel {
        let data: Data
        do {
            data = try readModel(entry.path)
        } catch {
            throw ModelRegistryError(file: entry.path, reason: "cannot read the model: \(FileErrorText.reason(error))")
        }
        let digest = ModelFileDigest.of(data)
        if let expected = entry.sha256, let mismatch = ModelFileDigest.mismatch(digest: digest, expected: expected) {
            throw ModelRegistryError(file: entry.path, reason: mismatch)
        }
        let document: ModelDocument
        do {
            document = try ModelDocument(jsonData: data)
        } catch {
            throw ModelRegistryError(file: entry.path, reason: "not a model document (\(error))")
        }
        let scorer: CompiledModel
        do {
            scorer = try CompiledModel(document: document)
        } catch {
            throw ModelRegistryError(file: entry.path, reason: error.description)
        }
        let metadata = document.metadata
        guard metadata.insightType == entry.insightType, metadata.category == entry.category,
            metadata.version == entry.version
        else {
            throw ModelRegistryError(
                file: entry.path,
                reason: "the model says \(metadata.insightType)/\(metadata.category) \(metadata.version), the manifest says \(entry.insightType)/\(entry.category) \(entry.version)")
        }
        let problems = schemaCheck.problems(with: document, insightType: entry.insightType, category: entry.category)
        guard problems.isEmpty else {
            throw ModelRegistryError(
                file: entry.path,
                reason: "does not fit the feature schema of \(entry.insightType)/\(entry.category): \(problems.joined(separator: "; "))")
        }
        return LoadedModel(entry: entry, scorer: scorer, fileDigest: digest)
    }

    public func model(for insightType: String, category: String, version: ModelVersionSelector) -> LoadedModel? {
        let pair = Pair(insightType: insightType, category: category)
        switch version {
        case .current:
            guard let current = currentVersions[pair] else { return nil }
            return models[pair]?[current]
        case .specific(let version):
            guard let versions = models[pair] else { return nil }
            if let model = versions[version] { return model }
            // The manifest's comparison: a part written with leading zeros is the same version (the manifest refuses
            // two such entries, so at most one matches). Text that is no version matches none.
            guard (try? ModelVersionSyntax.check(version)) != nil else { return nil }
            return versions.first { ModelVersionOrder.areSame($0.key, version) }?.value
        }
    }

    /// The version `current` resolves to, if any.
    public func currentVersion(insightType: String, category: String) -> String? {
        currentVersions[Pair(insightType: insightType, category: category)]
    }

    /// The highest current or prior version (candidates are not offered as newest).
    public func newestVersion(insightType: String, category: String) -> String? {
        newestVersions[Pair(insightType: insightType, category: category)]
    }

    /// Every loaded model, in manifest order.
    public var allModels: [LoadedModel] {
        manifest.models.compactMap { models[Pair(insightType: $0.insightType, category: $0.category)]?[$0.version] }
    }
}
