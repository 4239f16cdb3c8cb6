import FoundationEssentials
import Testing
import InsightModel
@testable import InsightCore

@Suite struct RegistryModelProviderTests {
    /// The shipped catalogue and a registry reading the shipped manifest.
    private func shippedRegistry() throws -> (catalogue: FeatureCatalogue, registry: ModelRegistry) {
        let catalogue = try CatalogueTestSupport.shippedCatalogue()
        let registry = try ModelRegistry(
            manifestPath: CatalogueTestSupport.packageRoot + "/models/manifest.json",
            schemaCheck: CatalogueSchemaCheck(catalogue: catalogue))
        return (catalogue, registry)
    }

    /// Two reloads at once: the registry serialises them, but each is bound to the catalogue after the registry's
    /// lock is released, so the one that read the manifest first can be the one that installs last.
    @Test func anOlderGenerationFinishingLastDoesNotReplaceANewerOne() throws {
        let (catalogue, registry) = try shippedRegistry()
        let provider = RegistryModelProvider(registry: registry, catalogue: catalogue)
        let older = try registry.reload()
        let newer = try registry.reload()
        provider.install(BoundSnapshot(newer, catalogue: catalogue))
        provider.install(BoundSnapshot(older, catalogue: catalogue))
        #expect(provider.generation == newer.generation)
        try provider.reload()
        #expect(provider.generation == newer.generation + 1)
    }

    /// A requested version is the loaded one that compares equal by the manifest's rule (leading zeros in a part do
    /// not count), answered as the manifest spells it; a version the manifest could not hold is not matched.
    @Test func aSpecificVersionWrittenWithOrWithoutLeadingZerosFindsTheLoadedModel() throws {
        let (catalogue, registry) = try shippedRegistry()
        let snapshot = RegistryModelProvider(registry: registry, catalogue: catalogue).currentSnapshot()
        func version(_ text: String) -> String? {
            guard case .found(let model, _) = snapshot.lookup(
                insightType: InsightType.isLikelyBeingCoached, category: .payment, version: .specific(text)) else { return nil }
            return model.version
        }
        #expect(version("2026.09.1") == "2026.09.1")
        #expect(version("2026.9.1") == "2026.09.1")
        #expect(version("2026.09.01") == "2026.09.1")
        #expect(version("2026.11.1") == "2026.11.1")
        for unmatched in ["2026..9.1", "2026.9.1.", "+2026.9.1", "2026.9", "2026.9.1.0", " 2026.9.1"] {
            #expect(version(unmatched) == nil, "\(unmatched)")
        }
        #expect(registry.snapshot.model(for: InsightType.isLikelyBeingCoached, category: "payment", version: .specific("2026.9.1"))?.version == "2026.09.1")
    }

    /// `current` is resolved once, when the snapshot is bound: each shipped pair answers the manifest's current
    /// version with its model, the same as the registry's own lookup; a version not loaded names the current one; an
    /// insight type without models is unavailable.
    @Test func currentResolvesToTheManifestsCurrentModelForEveryPair() throws {
        let (catalogue, registry) = try shippedRegistry()
        let snapshot = RegistryModelProvider(registry: registry, catalogue: catalogue).currentSnapshot()
        var resolved = 0
        for category in OperationCategory.allCases {
            for insightType in [InsightType.isLikelyBeingCoached, "noSuchInsight"] {
                let registered = registry.snapshot.currentVersion(insightType: insightType, category: category.rawValue)
                let lookup = snapshot.lookup(insightType: insightType, category: category, version: .current)
                let registryModel = registry.snapshot.model(
                    for: insightType, category: category.rawValue, version: .current)
                switch lookup {
                case .found(let model, let currentVersion):
                    resolved += 1
                    #expect(currentVersion == registered)
                    #expect(model.version == registered)
                    #expect(registryModel?.version == registered)
                    guard case .versionUnavailable(let named) = snapshot.lookup(
                        insightType: insightType, category: category, version: .specific("1999.1.1")) else {
                        Issue.record("a version not loaded was found for \(insightType) \(category)")
                        continue
                    }
                    #expect(named == registered)
                case .insightUnavailable:
                    #expect(registryModel == nil, "\(insightType) \(category)")
                case .versionUnavailable(let named), .versionIncompatible(let named):
                    #expect(named == registered)
                }
            }
        }
        #expect(resolved >= 2)
    }

    /// A mistyped category or insight type on a manifest entry is a manifest error naming the entry and the word,
    /// with the catalogue or without it (the lists are fixed), at start (skipping invalid models) as on reload. It
    /// was a model left out, and then "isLikelyBeingCoached/payment has no current version" (pipeline probe,
    /// 6 December).
    @Test func aManifestEntryOfAnUnknownCategoryOrInsightTypeIsNamed() throws {
        let root = CatalogueTestSupport.packageRoot + "/models"
        let shipped = String(decoding: try Data(contentsOf: URL(fileURLWithPath: root + "/manifest.json")), as: UTF8.self)
        let checks: [any ModelSchemaCheck] = [
            CatalogueSchemaCheck(catalogue: try CatalogueTestSupport.shippedCatalogue()), KnownPairsSchemaCheck(),
        ]
        let cases = [
            (#""category": "payment""#, #""category": "crypto""#,
             "models[0] (isLikelyBeingCoached/crypto 2026.11.1): unknown operation category 'crypto' (payment, account, resourceUse, communication or other)"),
            (#""insightType": "isLikelyBeingCoached""#, #""insightType": "isFoo""#,
             "models[0] (isFoo/payment 2026.11.1): unknown insight type 'isFoo' (the service answers isLikelyBeingCoached)"),
        ]
        for (original, mistyped, expected) in cases {
            let first = try #require(shipped.range(of: original))
            let manifest = shipped.replacingCharacters(in: first, with: mistyped)
            for check in checks {
                for skipping in [true, false] {
                    do {
                        _ = try RegistrySnapshot(
                            manifestData: Data(manifest.utf8), manifestFile: "manifest.json", generation: 1,
                            schemaCheck: check, skippingInvalidModels: skipping
                        ) { path in try Data(contentsOf: URL(fileURLWithPath: root + "/" + path)) }
                        Issue.record("\(mistyped) was taken")
                    } catch {
                        #expect(error.reason == expected, "\(error.reason)")
                    }
                }
            }
        }
    }
}
