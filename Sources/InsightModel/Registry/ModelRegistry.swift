import FoundationEssentials
import Synchronization

/// The models in service: one `RegistrySnapshot` behind a lock, replaced whole by `reload()`.
/// A reload builds and checks the new snapshot off to the side; only a fully valid one is swapped in.
public final class ModelRegistry: Sendable {
    public let manifestPath: String
    private let schemaCheck: any ModelSchemaCheck
    private let state: Mutex<RegistrySnapshot>
    /// Serialises reloads (two SIGHUPs in a row) without ever blocking readers of `state`.
    private let reloading = Mutex(())

    /// Loads the manifest at start-up; throws if it or any model is invalid. With `skippingInvalidModels` (what a
    /// service does, so that one bad file does not take every category down) only the manifest must be valid: the
    /// models that cannot be loaded are left out and listed in `snapshot.refused`. Reloads never skip.
    public init(
        manifestPath: String, schemaCheck: any ModelSchemaCheck = PermissiveSchemaCheck(), skippingInvalidModels: Bool = false
    ) throws(ModelRegistryError) {
        self.manifestPath = manifestPath
        self.schemaCheck = schemaCheck
        self.state = Mutex(try Self.build(
            manifestPath: manifestPath, generation: 1, schemaCheck: schemaCheck, skippingInvalidModels: skippingInvalidModels))
    }

    /// The snapshot a request should hold for its whole life.
    public var snapshot: RegistrySnapshot {
        state.withLock { $0 }
    }

    /// Re-reads the manifest and every model. On success the new snapshot replaces the old one atomically and is
    /// returned; on failure the old snapshot stays and the error says why (for the caller to log).
    @discardableResult
    public func reload() throws(ModelRegistryError) -> RegistrySnapshot {
        try reloading.withLock { _ throws(ModelRegistryError) in
            let generation = snapshot.generation + 1
            let fresh = try Self.build(manifestPath: manifestPath, generation: generation, schemaCheck: schemaCheck)
            state.withLock { $0 = fresh }
            return fresh
        }
    }

    public func model(for insightType: String, category: String, version: ModelVersionSelector) -> LoadedModel? {
        snapshot.model(for: insightType, category: category, version: version)
    }

    static func build(
        manifestPath: String, generation: Int, schemaCheck: any ModelSchemaCheck, skippingInvalidModels: Bool = false
    ) throws(ModelRegistryError) -> RegistrySnapshot {
        let manifestURL = URL(fileURLWithPath: AbsolutePath.of(manifestPath))
        let data: Data
        do {
            data = try ModelFile.read(manifestURL, maximumBytes: ModelFile.manifestMaximumBytes)
        } catch {
            throw ModelRegistryError(file: manifestPath, reason: "cannot read the manifest: \(FileErrorText.reason(error))")
        }
        let directory = manifestURL.deletingLastPathComponent()
        return try RegistrySnapshot(
            manifestData: data, manifestFile: manifestPath, generation: generation, schemaCheck: schemaCheck,
            skippingInvalidModels: skippingInvalidModels,
            readModel: { path in
                let url = directory.appendingPathComponent(path)
                do {
                    return try ModelFile.read(url)
                } catch {
                    // The entry is relative to the manifest's folder, which a link may make hard to guess: the
                    // refusal says where the file was looked for (paths probe, 6 December).
                    throw ModelFile.Unreadable(path: AbsolutePath.spelling(of: url.path), reason: FileErrorText.reason(error))
                }
            })
    }
}
