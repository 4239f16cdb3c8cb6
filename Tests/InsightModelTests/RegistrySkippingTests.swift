import FoundationEssentials
import Testing
@testable import InsightModel

/// A service starts with the models that load (`skippingInvalidModels`); tools and reloads stay all or nothing.
@Suite struct RegistrySkippingTests {
    let registryTests = RegistryTests()

    func manifest() throws -> String {
        let directory = try registryTests.directory(
            models: [HandModels.document(version: "2026.09.1"), HandModels.document(version: "2026.10.1")],
            entries: [registryTests.entry("2026.09.1", .prior), registryTests.entry("2026.10.1", .current)])
        try Data("{\"trees\": [".utf8).write(to: directory.appendingPathComponent("2026.10.1.json"))
        return directory.appendingPathComponent("manifest.json").path
    }

    @Test func strictLoadingRefusesTheWholeManifest() throws {
        let path = try manifest()
        #expect(throws: ModelRegistryError.self) { try ModelRegistry(manifestPath: path) }
    }

    @Test func skippingLeavesOutTheBrokenModelAndKeepsTheOthers() throws {
        let registry = try ModelRegistry(manifestPath: try manifest(), skippingInvalidModels: true)
        let snapshot = registry.snapshot
        #expect(snapshot.refused.map(\.file) == ["2026.10.1.json"])
        #expect(snapshot.model(for: "isLikelyBeingCoached", category: "payment", version: .current) == nil)
        #expect(snapshot.model(for: "isLikelyBeingCoached", category: "payment", version: .specific("2026.09.1")) != nil)
        // A reload is strict: the same broken file is refused and the started snapshot stays.
        #expect(throws: ModelRegistryError.self) { try registry.reload() }
        #expect(registry.snapshot.generation == 1)
    }
}
