import FoundationEssentials
import Testing
@testable import InsightModel

/// `RegistrySnapshot.changes(since:)`, what a reload's log line says changed.
@Suite struct RegistryChangesTests {
    typealias Listed = (version: String, status: ModelStatus, path: String, sha256: String?)

    func snapshot(_ entries: [Listed], files: [String: ModelDocument]) throws -> RegistrySnapshot {
        let manifest = ModelManifest(models: entries.map {
            ModelManifest.Entry(
                insightType: "isLikelyBeingCoached", category: "payment", version: $0.version, status: $0.status, path: $0.path,
                sha256: $0.sha256)
        })
        return try RegistrySnapshot(
            manifestData: try JSONEncoder().encode(manifest), manifestFile: "manifest.json", generation: 1,
            schemaCheck: PermissiveSchemaCheck(), readModel: { try files[$0]!.jsonData() })
    }

    func file(_ version: String, high: Double = 0.6) -> ModelDocument {
        var document = HandModels.document(version: version)
        document.thresholds = RiskThresholds(medium: 0.2, high: high)
        return document
    }

    @Test func saysWhatCameWentAndMoved() throws {
        let files = ["a.json": file("2026.11.1"), "a2.json": file("2026.11.1"), "b.json": file("2026.09.1"),
                     "c.json": file("2026.12.1"), "d.json": file("2026.13.1")]
        let before = try snapshot([("2026.11.1", .current, "a.json", nil), ("2026.09.1", .prior, "b.json", nil)], files: files)
        #expect(before.changes(since: before).isEmpty)
        let after = try snapshot(
            [("2026.12.1", .current, "c.json", nil), ("2026.11.1", .prior, "a2.json", nil), ("2026.13.1", .candidate, "d.json", nil)],
            files: files)
        #expect(after.changes(since: before) == [
            "payment isLikelyBeingCoached 2026.12.1: added as current",
            "payment isLikelyBeingCoached 2026.11.1: current -> prior",
            "payment isLikelyBeingCoached 2026.11.1: same file at another path (a2.json)",
            "payment isLikelyBeingCoached 2026.13.1: added as candidate",
            "payment isLikelyBeingCoached 2026.09.1: removed (was prior)",
        ])
    }

    /// By the bytes loaded: an unpinned file edited in place is a change (it logged `none`), a pin spelt in the
    /// other case is none (it logged `file changed`; regression probe, 7 December).
    @Test func aFileIsJudgedByItsBytesNotByItsPin() throws {
        let original = file("2026.11.1")
        let edited = file("2026.11.1", high: 0.5)
        let before = try snapshot([("2026.11.1", .current, "a.json", nil)], files: ["a.json": original])
        let after = try snapshot([("2026.11.1", .current, "a.json", nil)], files: ["a.json": edited])
        #expect(after.changes(since: before) == ["payment isLikelyBeingCoached 2026.11.1: file changed"])
        let digest = ModelFileDigest.of(try original.jsonData())
        let pinned = try snapshot([("2026.11.1", .current, "a.json", digest)], files: ["a.json": original])
        let upper = try snapshot([("2026.11.1", .current, "a.json", digest.uppercased())], files: ["a.json": original])
        #expect(upper.changes(since: pinned).isEmpty)
        #expect(pinned.changes(since: before).isEmpty)
        // Another spelling of the same path is no move.
        let spelt = try snapshot([("2026.11.1", .current, "./a.json", nil)], files: ["./a.json": original])
        #expect(spelt.changes(since: before).isEmpty)
        // Other bytes at another path name the new path: "file changed" alone pointed at the old file.
        let elsewhere = try snapshot([("2026.11.1", .current, "b.json", nil)], files: ["b.json": edited])
        #expect(elsewhere.changes(since: before) == ["payment isLikelyBeingCoached 2026.11.1: another file (b.json)"])
    }
}
