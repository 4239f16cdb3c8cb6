import FoundationEssentials
import Testing
@testable import InsightModel

/// `RegistrySnapshot.changes(since:)`, what a reload's log line says changed.
@Suite struct RegistryChangesTests {
    func snapshot(_ entries: [(version: String, status: ModelStatus, path: String)], generation: Int) throws -> RegistrySnapshot {
        let manifest = ModelManifest(models: entries.map {
            ModelManifest.Entry(insightType: "isLikelyBeingCoached", category: "payment", version: $0.version, status: $0.status, path: $0.path)
        })
        let documents = Dictionary(uniqueKeysWithValues: entries.map { ($0.path, HandModels.document(version: $0.version)) })
        return try RegistrySnapshot(
            manifestData: try JSONEncoder().encode(manifest), manifestFile: "manifest.json", generation: generation,
            schemaCheck: PermissiveSchemaCheck(), readModel: { try documents[$0]!.jsonData() })
    }

    @Test func saysWhatCameWentAndMoved() throws {
        let before = try snapshot([("2026.11.1", .current, "a.json"), ("2026.09.1", .prior, "b.json")], generation: 1)
        #expect(before.changes(since: before).isEmpty)
        let after = try snapshot(
            [("2026.12.1", .current, "c.json"), ("2026.11.1", .prior, "a2.json"), ("2026.13.1", .candidate, "d.json")], generation: 2)
        #expect(after.changes(since: before) == [
            "payment isLikelyBeingCoached 2026.12.1: added as current",
            "payment isLikelyBeingCoached 2026.11.1: current -> prior",
            "payment isLikelyBeingCoached 2026.11.1: file changed",
            "payment isLikelyBeingCoached 2026.13.1: added as candidate",
            "payment isLikelyBeingCoached 2026.09.1: removed (was prior)",
        ])
    }
}
