import FoundationEssentials
import Dispatch
import Glibc
import Synchronization
import Testing
@testable import InsightModel

/// `registerCandidate` against other writers of the same manifest and against folders reached through links.
@Suite struct RegistrationTests {
    final class Cleanup: @unchecked Sendable {
        var directories: [URL] = []
        deinit { for directory in directories { try? FileManager.default.removeItem(at: directory) } }
    }
    let cleanup = Cleanup()

    /// A fresh folder holding model 2026.09.1 and a manifest that lists it as current.
    func folder() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("registration-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        cleanup.directories.append(directory)
        try HandModels.document(version: "2026.09.1").jsonData().write(to: directory.appendingPathComponent("2026.09.1.json"))
        let entry = ModelManifest.Entry(
            insightType: "isLikelyBeingCoached", category: "payment", version: "2026.09.1", status: .current, path: "2026.09.1.json")
        try JSONEncoder().encode(ModelManifest(models: [entry])).write(to: directory.appendingPathComponent("manifest.json"))
        return directory
    }

    func register(_ version: String, at modelPath: String, manifest: String, check: any ModelSchemaCheck = PermissiveSchemaCheck()) throws {
        let candidate = HandModels.document(version: version)
        try ModelManifest.registerCandidate(
            modelPath: modelPath, modelData: try candidate.jsonData(), document: candidate, manifestPath: manifest, schemaCheck: check)
    }

    func listedVersions(_ manifestPath: String) throws -> [String] {
        try ModelManifest(jsonData: Data(contentsOf: URL(fileURLWithPath: manifestPath))).models.map(\.version).sorted()
    }

    @Test func registrationsRunningTogetherAreAllKept() throws {
        let directory = try folder()
        let manifest = directory.appendingPathComponent("manifest.json").path
        let versions = (1...8).map { "2026.12.\($0)" }
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: versions.count) { index in
            do {
                try register(versions[index], at: directory.appendingPathComponent("\(versions[index]).json").path, manifest: manifest)
            } catch {
                failures.withLock { $0.append("\(versions[index]): \(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(try listedVersions(manifest) == (["2026.09.1"] + versions).sorted())
        let registry = try ModelRegistry(manifestPath: manifest)
        for version in versions {
            #expect(registry.model(for: "isLikelyBeingCoached", category: "payment", version: .specific(version)) != nil)
        }
    }

    /// A check that edits the manifest the first time it is asked, as an operator's editor would mid-registration.
    final class EditingCheck: ModelSchemaCheck, @unchecked Sendable {
        let manifest: URL
        var edited = false
        init(manifest: URL) { self.manifest = manifest }
        func problems(with model: ModelDocument, insightType: String, category: String) -> [String] {
            if !edited {
                edited = true
                var text = (try? String(contentsOf: manifest, encoding: .utf8)) ?? ""
                text += "\n"
                try? text.write(to: manifest, atomically: true, encoding: .utf8)
            }
            return []
        }
    }

    @Test func aManifestEditedDuringTheCheckIsKeptAndTheRegistrationRefused() throws {
        let directory = try folder()
        let manifestURL = directory.appendingPathComponent("manifest.json")
        let modelPath = directory.appendingPathComponent("2026.12.1.json").path
        let check = EditingCheck(manifest: manifestURL)
        #expect {
            try register("2026.12.1", at: modelPath, manifest: manifestURL.path, check: check)
        } throws: { error in
            "\(error)".contains("the manifest changed while the model was being checked; nothing was registered")
        }
        #expect(check.edited)
        #expect(try String(contentsOf: manifestURL, encoding: .utf8).hasSuffix("\n"))
        #expect(try listedVersions(manifestURL.path) == ["2026.09.1"])
        #expect(!FileManager.default.fileExists(atPath: modelPath))
        // Run again, it registers.
        try register("2026.12.1", at: modelPath, manifest: manifestURL.path)
        #expect(try listedVersions(manifestURL.path) == ["2026.09.1", "2026.12.1"])
    }

    @Test func aManifestFolderReachedThroughALinkGetsAPathThatWorksFromTheRealFolder() throws {
        let real = try folder()
        let link = real.deletingLastPathComponent().appendingPathComponent("registration-link-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: real.path)
        cleanup.directories.append(link)
        // The manifest is named through the link, the model by its real path: the entry is still just the file name.
        try register("2026.12.1", at: real.appendingPathComponent("2026.12.1.json").path, manifest: link.appendingPathComponent("manifest.json").path)
        let manifest = try ModelManifest(jsonData: Data(contentsOf: real.appendingPathComponent("manifest.json")))
        #expect(manifest.models.map(\.path).sorted() == ["2026.09.1.json", "2026.12.1.json"])
        for path in [real, link].map({ $0.appendingPathComponent("manifest.json").path }) {
            let registry = try ModelRegistry(manifestPath: path)
            #expect(registry.model(for: "isLikelyBeingCoached", category: "payment", version: .specific("2026.12.1")) != nil)
        }
        // And the listed model, named through the link, is still recognised as listed.
        #expect {
            try register("2026.12.2", at: link.appendingPathComponent("2026.09.1.json").path, manifest: real.appendingPathComponent("manifest.json").path)
        } throws: { error in
            "\(error)".contains("the manifest already lists this file")
        }
    }

    @Test func theManifestNamedThroughALinkIsNotAModelFile() throws {
        let real = try folder()
        let link = real.deletingLastPathComponent().appendingPathComponent("registration-link-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: real.path)
        cleanup.directories.append(link)
        let before = try Data(contentsOf: real.appendingPathComponent("manifest.json"))
        #expect {
            try register("2026.12.1", at: link.appendingPathComponent("manifest.json").path, manifest: real.appendingPathComponent("manifest.json").path)
        } throws: { error in
            "\(error)".contains("the model's file is the manifest itself")
        }
        #expect(try Data(contentsOf: real.appendingPathComponent("manifest.json")) == before)
    }
}
