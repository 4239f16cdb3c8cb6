import Testing
import InsightModel
@testable import InsightCore

@Suite struct RegistryModelProviderTests {
    /// Two reloads at once: the registry serialises them, but each is bound to the catalogue after the registry's
    /// lock is released, so the one that read the manifest first can be the one that installs last.
    @Test func anOlderGenerationFinishingLastDoesNotReplaceANewerOne() throws {
        let catalogue = try CatalogueTestSupport.shippedCatalogue()
        let registry = try ModelRegistry(
            manifestPath: CatalogueTestSupport.packageRoot + "/models/manifest.json",
            schemaCheck: CatalogueSchemaCheck(catalogue: catalogue))
        let provider = RegistryModelProvider(registry: registry, catalogue: catalogue)
        let older = try registry.reload()
        let newer = try registry.reload()
        provider.install(BoundSnapshot(newer, catalogue: catalogue))
        provider.install(BoundSnapshot(older, catalogue: catalogue))
        #expect(provider.generation == newer.generation)
        try provider.reload()
        #expect(provider.generation == newer.generation + 1)
    }
}
