import FoundationEssentials
import Glibc
import Testing
@testable import InsightModel

@Suite struct RegistryTests {
    /// Temporary directories made by this suite's tests (each test gets its own suite instance).
    final class Cleanup: @unchecked Sendable {
        var directories: [URL] = []
        deinit { for directory in directories { try? FileManager.default.removeItem(at: directory) } }
    }
    let cleanup = Cleanup()

    /// A fresh directory with the given models written as `<version>.json` and a manifest listing `entries`.
    func directory(models: [ModelDocument], entries: [ModelManifest.Entry]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("registry-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        cleanup.directories.append(directory)
        for model in models {
            try model.jsonData().write(to: directory.appendingPathComponent("\(model.metadata.version).json"))
        }
        try writeManifest(entries, in: directory)
        return directory
    }

    func writeManifest(_ entries: [ModelManifest.Entry], in directory: URL) throws {
        try JSONEncoder().encode(ModelManifest(models: entries)).write(to: directory.appendingPathComponent("manifest.json"))
    }

    func entry(_ version: String, _ status: ModelStatus, category: String = "payment") -> ModelManifest.Entry {
        ModelManifest.Entry(
            insightType: "isLikelyBeingCoached", category: category, version: version, status: status, path: "\(version).json")
    }

    struct RejectingCheck: ModelSchemaCheck {
        func problems(with model: ModelDocument, insightType: String, category: String) -> [String] {
            model.featureNames.contains("b") ? ["feature 'b' is not in the catalogue of \(category)"] : []
        }
    }

    @Test func looksUpCurrentAndSpecificVersionsAndReportsNewest() throws {
        let directory = try directory(
            models: [HandModels.document(version: "2026.09.1"), HandModels.document(version: "2026.10.1"),
                     HandModels.document(version: "2026.11.1")],
            entries: [entry("2026.09.1", .prior), entry("2026.10.1", .current), entry("2026.11.1", .candidate)])
        let registry = try ModelRegistry(manifestPath: directory.appendingPathComponent("manifest.json").path)
        let snapshot = registry.snapshot
        #expect(snapshot.model(for: "isLikelyBeingCoached", category: "payment", version: .current)?.version == "2026.10.1")
        #expect(snapshot.model(for: "isLikelyBeingCoached", category: "payment", version: .specific("2026.09.1"))?.status == .prior)
        #expect(snapshot.model(for: "isLikelyBeingCoached", category: "payment", version: .specific("2026.11.1"))?.status == .candidate)
        #expect(snapshot.model(for: "isLikelyBeingCoached", category: "payment", version: .specific("1999.1")) == nil)
        #expect(snapshot.model(for: "isLikelyBeingCoached", category: "transfer", version: .current) == nil)
        #expect(snapshot.currentVersion(insightType: "isLikelyBeingCoached", category: "payment") == "2026.10.1")
        #expect(snapshot.newestVersion(insightType: "isLikelyBeingCoached", category: "payment") == "2026.10.1")
    }

    @Test func reloadSwapsAtomicallyAndInFlightSnapshotsKeepTheirModel() throws {
        let directory = try directory(
            models: [HandModels.document(version: "2026.09.1"), HandModels.document(version: "2026.10.1")],
            entries: [entry("2026.09.1", .current)])
        let registry = try ModelRegistry(manifestPath: directory.appendingPathComponent("manifest.json").path)
        let inFlight = registry.snapshot
        try writeManifest([entry("2026.09.1", .prior), entry("2026.10.1", .current)], in: directory)
        let fresh = try registry.reload()
        #expect(fresh.generation == inFlight.generation + 1)
        #expect(registry.model(for: "isLikelyBeingCoached", category: "payment", version: .current)?.version == "2026.10.1")
        #expect(inFlight.model(for: "isLikelyBeingCoached", category: "payment", version: .current)?.version == "2026.09.1")
    }

    @Test func badManifestIsRefusedAndTheOldSnapshotStays() throws {
        let directory = try directory(
            models: [HandModels.document(version: "2026.09.1"), HandModels.document(version: "2026.10.1")],
            entries: [entry("2026.09.1", .current)])
        let manifestPath = directory.appendingPathComponent("manifest.json").path
        let registry = try ModelRegistry(manifestPath: manifestPath)
        let before = registry.snapshot

        try writeManifest([entry("2026.09.1", .current), entry("2026.10.1", .current)], in: directory)
        #expect(throws: ModelRegistryError.self) { try registry.reload() }
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: manifestPath))
        #expect(throws: ModelRegistryError.self) { try registry.reload() }
        try writeManifest([entry("2026.09.1", .prior)], in: directory)
        #expect(throws: ModelRegistryError.self) { try registry.reload() }
        try writeManifest([], in: directory)
        #expect(throws: ModelRegistryError(file: manifestPath, reason: "lists no models: every insight would answer insightUnavailable")) {
            try registry.reload()
        }
        #expect(registry.snapshot === before)
    }

    /// A manifest past 16 MiB is refused by its size, before it is read (configuration probe, 7 December: 100 MiB of
    /// padding was read at every start and reload).
    @Test func aManifestPastItsLimitIsRefusedUnread() throws {
        let directory = try directory(models: [HandModels.document(version: "2026.09.1")], entries: [entry("2026.09.1", .current)])
        let manifestPath = directory.appendingPathComponent("manifest.json").path
        let registry = try ModelRegistry(manifestPath: manifestPath)
        #expect(truncate(manifestPath, off_t(ModelFile.manifestMaximumBytes + 1)) == 0)
        let error = #expect(throws: ModelRegistryError.self) { try registry.reload() }
        #expect(error.map { "\($0)" }?.contains("larger than 16 MiB") == true, "\(String(describing: error))")
    }

    @Test func invalidModelFileIsNamedInTheError() throws {
        var broken = HandModels.document(version: "2026.10.1")
        broken.trees[0].splitFeatures[0] = 7
        let directory = try directory(
            models: [HandModels.document(version: "2026.09.1"), broken],
            entries: [entry("2026.09.1", .current), entry("2026.10.1", .candidate)])
        do {
            _ = try ModelRegistry(manifestPath: directory.appendingPathComponent("manifest.json").path)
            Issue.record("expected the broken model to be refused")
        } catch {
            #expect(error.file == "2026.10.1.json")
            #expect(error.reason.contains("tree 0"))
        }
    }

    @Test func schemaCheckRejectsModelsOutsideTheCatalogue() throws {
        let directory = try directory(
            models: [HandModels.document(version: "2026.09.1")], entries: [entry("2026.09.1", .current)])
        let path = directory.appendingPathComponent("manifest.json").path
        #expect(throws: ModelRegistryError.self) { try ModelRegistry(manifestPath: path, schemaCheck: RejectingCheck()) }
    }

    @Test func metadataMustMatchTheManifestEntry() throws {
        let directory = try directory(
            models: [HandModels.document(version: "2026.09.1", category: "transfer")],
            entries: [entry("2026.09.1", .current)])
        #expect(throws: ModelRegistryError.self) {
            try ModelRegistry(manifestPath: directory.appendingPathComponent("manifest.json").path)
        }
    }

    @Test func registeringACandidateWritesItAndAddsItWithARelativePath() throws {
        let directory = try directory(
            models: [HandModels.document(version: "2026.09.1")], entries: [entry("2026.09.1", .current)])
        let candidate = HandModels.document(version: "2026.12.1")
        let modelPath = directory.appendingPathComponent("new/2026.12.1.json")
        let manifestPath = directory.appendingPathComponent("manifest.json").path
        try ModelManifest.registerCandidate(
            modelPath: modelPath.path, modelData: try candidate.jsonData(), document: candidate, manifestPath: manifestPath,
            schemaCheck: PermissiveSchemaCheck())
        #expect(try Data(contentsOf: modelPath) == candidate.jsonData())
        let registry = try ModelRegistry(manifestPath: manifestPath)
        let loaded = try #require(registry.model(for: "isLikelyBeingCoached", category: "payment", version: .specific("2026.12.1")))
        #expect(loaded.status == .candidate)
        #expect(loaded.entry.path == "new/2026.12.1.json")
    }

    @Test func aRefusedCandidateLeavesNeitherAModelFileNorAManifestChange() throws {
        let directory = try directory(
            models: [HandModels.document(version: "2026.09.1")], entries: [entry("2026.09.1", .current)])
        let manifestPath = directory.appendingPathComponent("manifest.json").path
        let manifestBefore = try Data(contentsOf: URL(fileURLWithPath: manifestPath))
        let candidate = HandModels.document(version: "2026.12.1")
        let modelPath = directory.appendingPathComponent("new/2026.12.1.json")
        #expect(throws: ModelRegistryError.self) {
            try ModelManifest.registerCandidate(
                modelPath: modelPath.path, modelData: try candidate.jsonData(), document: candidate,
                manifestPath: manifestPath, schemaCheck: RejectingCheck())
        }
        #expect(!FileManager.default.fileExists(atPath: modelPath.path))
        #expect(!FileManager.default.fileExists(atPath: modelPath.deletingLastPathComponent().path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: manifestPath)) == manifestBefore)
        // A manifest in folders that do not exist yet: they are made to take the lock, and removed on refusal.
        let nested = directory.appendingPathComponent("a/b/manifest.json").path
        #expect(throws: ModelRegistryError.self) {
            try ModelManifest.registerCandidate(
                modelPath: directory.appendingPathComponent("a/b/m.json").path, modelData: try candidate.jsonData(),
                document: candidate, manifestPath: nested, schemaCheck: RejectingCheck())
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("a").path))
    }

    @Test func versionsOrderNumerically() {
        #expect(ModelVersionOrder.isOlder("2026.9.1", than: "2026.10.1"))
        #expect(!ModelVersionOrder.isOlder("2026.10.1", than: "2026.9.1"))
        #expect(ModelVersionOrder.isOlder("2026.10", than: "2026.10.1"))
    }
}
