import InsightModel
import Synchronization

/// Serves the model registry's snapshots to the evaluator, bound to the catalogue. A reload builds a whole new
/// bound snapshot and swaps it in; requests keep the one they started with.
public final class RegistryModelProvider: ModelProvider {
    public let registry: ModelRegistry
    private let catalogue: FeatureCatalogue
    private let current: Mutex<BoundSnapshot>

    public init(registry: ModelRegistry, catalogue: FeatureCatalogue) {
        self.registry = registry
        self.catalogue = catalogue
        self.current = Mutex(BoundSnapshot(registry.snapshot, catalogue: catalogue))
    }

    public func currentSnapshot() -> any ModelSnapshot { current.withLock { $0 } }

    /// Re-reads the manifest and models; on failure the old snapshot stays in service and the error says why.
    /// Two reloads at once are serialised by the registry but bound here outside its lock, so the slower one
    /// could finish last: an older generation never replaces a newer one.
    public func reload() throws(ModelRegistryError) {
        install(BoundSnapshot(try registry.reload(), catalogue: catalogue))
    }

    func install(_ bound: BoundSnapshot) {
        current.withLock { installed in
            if bound.snapshot.generation > installed.snapshot.generation { installed = bound }
        }
    }

    public var generation: Int { current.withLock { $0.snapshot.generation } }
}

final class BoundSnapshot: ModelSnapshot {
    struct Key: Hashable {
        var insightType: String
        var category: OperationCategory
    }

    /// One insight type's models for one category, with `current` resolved when the snapshot is bound rather than
    /// on every request.
    private struct Entry {
        var versions: [String: CatalogueBoundModel] = [:]
        var currentVersion: String?
        var currentModel: CatalogueBoundModel?
    }

    let snapshot: RegistrySnapshot
    private let models: [Key: Entry]
    let listing: [ModelListing]

    init(_ snapshot: RegistrySnapshot, catalogue: FeatureCatalogue) {
        self.snapshot = snapshot
        var models: [Key: Entry] = [:]
        var listing: [ModelListing] = []
        for loaded in snapshot.allModels {
            guard let category = OperationCategory(rawValue: loaded.entry.category),
                  let bound = CatalogueBoundModel(loaded: loaded, catalogue: catalogue.catalogue(for: category))
            else { continue }
            let key = Key(insightType: loaded.entry.insightType, category: category)
            models[key, default: Entry()].versions[loaded.version] = bound
            listing.append(ModelListing(
                insightType: loaded.entry.insightType, category: category, version: loaded.version,
                status: loaded.status.rawValue, features: loaded.scorer.featureNames))
        }
        for (key, entry) in models {
            let current = snapshot.currentVersion(insightType: key.insightType, category: key.category.rawValue)
            models[key]?.currentVersion = current
            models[key]?.currentModel = current.flatMap { entry.versions[$0] }
        }
        self.models = models
        self.listing = listing
    }

    func lookup(insightType: String, category: OperationCategory, version: ModelVersionRequest) -> ModelLookup {
        guard let entry = models[Key(insightType: insightType, category: category)], !entry.versions.isEmpty else {
            return .insightUnavailable
        }
        let currentVersion = entry.currentVersion
        let found: CatalogueBoundModel?
        switch version {
        case .current: found = entry.currentModel
        case .specific(let text):
            // The manifest's own spelling keys `versions`; any other spelling of a version is found as the manifest
            // compares them (`2026.9.1` is `2026.09.1`), and the registry answers with the manifest's spelling.
            found = entry.versions[text]
                ?? snapshot.model(for: insightType, category: category.rawValue, version: .specific(text))
                    .flatMap { entry.versions[$0.version] }
        }
        guard let found else { return .versionUnavailable(currentVersion: currentVersion) }
        return .found(found, currentVersion: currentVersion)
    }
}
