import FoundationEssentials
import Testing
@testable import InsightModel

/// What a manifest must hold before any of its models is read: known members, relative paths, and versions of
/// dot-separated numbers that no other entry of the pair equals under the numeric comparison.
@Suite struct ManifestRulesTests {
    func entry(_ version: String, _ status: ModelStatus = .candidate, path: String? = nil) -> String {
        #"{"insightType":"isLikelyBeingCoached","category":"payment","version":"\#(version)","status":"\#(status.rawValue)","path":"\#(path ?? "\(version).json")"}"#
    }

    /// The reason the manifest with `entries` is refused (nil if it loads); every path reads the stump.
    func refusal(_ entries: [String], extra: String = "") -> String? {
        let manifest = #"{"formatVersion":1,\#(extra)"models":[\#(entries.joined(separator: ","))]}"#
        do {
            _ = try RegistrySnapshot(
                manifestData: Data(manifest.utf8), manifestFile: "manifest.json", generation: 1,
                schemaCheck: PermissiveSchemaCheck(),
                readModel: { path in
                    let name = path.split(separator: "/").last.map(String.init) ?? path
                    return try HandModels.document(version: String(name.dropLast(".json".count))).jsonData()
                })
            return nil
        } catch {
            return error.description
        }
    }

    @Test func loadsAValidManifest() {
        #expect(refusal([entry("2026.09.1", .prior), entry("2026.11.1", .current), entry("2026.12.1")]) == nil)
    }

    /// `1.0` is the whole number 1 (Python's json.dump of a float writes it), as in every other settings file;
    /// `1.5` is no whole number (lifecycle probe, 6 December).
    @Test func readsAWholeFormatVersionWrittenAsADecimal() {
        let entries = [entry("2026.11.1", .current)]
        #expect(refusal(entries, extra: "") == nil)
        func withVersion(_ text: String) -> String? {
            let manifest = #"{"formatVersion":\#(text),"models":[\#(entries.joined(separator: ","))]}"#
            do {
                _ = try RegistrySnapshot(
                    manifestData: Data(manifest.utf8), manifestFile: "manifest.json", generation: 1,
                    schemaCheck: PermissiveSchemaCheck(),
                    readModel: { _ in try HandModels.document(version: "2026.11.1").jsonData() })
                return nil
            } catch {
                return error.description
            }
        }
        #expect(withVersion("1.0") == nil)
        #expect(withVersion("1e0") == nil)
        #expect(withVersion("1.5")?.contains("formatVersion") == true)
    }

    /// A manifest that lists nothing would have every insight answer insightUnavailable: refused at start, on
    /// reload and by `models verify` alike, since all three build their snapshot here.
    @Test func refusesAManifestThatListsNoModels() {
        #expect(refusal([]) == "manifest.json: lists no models: every insight would answer insightUnavailable")
    }

    @Test(arguments: ["", "../../etc", "1.2.x", "2026.12.1 ", "2026.1e3", " 2026.12.1", "2026..1", "2026.12.", "-1", "v1"])
    func refusesAVersionThatIsNotDotSeparatedNumbers(version: String) throws {
        let reason = try #require(refusal([entry("2026.11.1", .current), entry(version, path: "x.json")]))
        #expect(reason.hasPrefix("manifest.json: models[1] (isLikelyBeingCoached/payment \(version)): "), "\(reason)")
        #expect(reason.contains("model version"), "\(reason)")
    }

    @Test func refusesAVersionEqualToAnotherUnderTheNumericComparison() throws {
        let reason = try #require(refusal([entry("2026.12.1", .current), entry("2026.12.01")]))
        #expect(reason == "manifest.json: models[1] (isLikelyBeingCoached/payment 2026.12.01): the same version as models[0] (isLikelyBeingCoached/payment 2026.12.1) (versions compare by the numbers of their parts)")
        let twice = try #require(refusal([entry("2026.12.1", .current), entry("2026.12.1")]))
        #expect(twice.contains("models[1] (isLikelyBeingCoached/payment 2026.12.1): the version is listed twice (also as models[0]"))
    }

    @Test func refusesAnAbsoluteOrEmptyPath() throws {
        let absolute = try #require(refusal([entry("2026.12.1", .current, path: "/etc/model.json")]))
        #expect(absolute.contains("path '/etc/model.json' is absolute"))
        #expect(try #require(refusal([entry("2026.12.1", .current, path: "")])).contains("path is empty"))
        #expect(refusal([entry("2026.12.1", .current, path: "../elsewhere/2026.12.1.json")]) == nil)
    }

    /// An entry may pin its file's bytes: a file changed after registration is refused, named, with both digests.
    @Test func loadsAModelWhoseBytesMatchTheEntrysSHA256AndRefusesOneThatDoesNot() throws {
        #expect(ModelFileDigest.of(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let bytes = try HandModels.document(version: "2026.12.1").jsonData()
        let pinned = ModelFileDigest.of(bytes)
        func pinning(_ digest: String) -> String {
            entry("2026.12.1", .current).replacingOccurrences(of: #""path""#, with: #""sha256":"\#(digest)","path""#)
        }
        #expect(refusal([pinning(pinned)]) == nil)
        #expect(refusal([pinning(pinned.uppercased())]) == nil, "sha256sum's case or not, the digits are what count")

        let other = String(repeating: "0", count: 64)
        let changed = try #require(refusal([pinning(other)]))
        #expect(changed == "2026.12.1.json: its SHA-256 is \(pinned), the manifest pins \(other): the file changed after it was registered, or the pin was edited; restore the file or the pin, or register the new file")

        for malformed in ["", "abc", String(repeating: "g", count: 64), String(repeating: "0", count: 65)] {
            let reason = try #require(refusal([pinning(malformed)]), "\(malformed)")
            #expect(reason == "manifest.json: models[0] (isLikelyBeingCoached/payment 2026.12.1): sha256 is not 64 hexadecimal digits (the output of sha256sum)")
        }
    }

    @Test func refusesUnknownMembersNamingThem() throws {
        let misspelt = entry("2026.12.1", .current).replacingOccurrences(of: #""status""#, with: #""Status""#)
        let reason = try #require(refusal([misspelt]))
        #expect(reason.contains("models[0].Status: unknown key"), "\(reason)")
        let top = try #require(refusal([entry("2026.12.1", .current)], extra: #""model":[],"#))
        #expect(top.contains("not a valid manifest (model: unknown key"), "\(top)")
    }

    /// The statuses there are are named: Swift's decoder said only that it could not initialise the type.
    @Test func anUnknownStatusNamesTheStatusesThereAre() throws {
        let retired = entry("2026.12.1", .current).replacingOccurrences(of: #""current""#, with: #""retired""#)
        let reason = try #require(refusal([retired]))
        #expect(reason.contains("models[0].status: 'retired' is no status: one of current, prior, candidate"), "\(reason)")
    }

    @Test func comparesEveryPartNumericallyNotOnlyTheFirstThatIsWrittenDifferently() {
        #expect(ModelVersionOrder.isOlder("2026.1.3", than: "2026.01.5"))
        #expect(!ModelVersionOrder.isOlder("2026.01.5", than: "2026.1.3"))
        #expect(ModelVersionOrder.areSame("2026.12.01", "2026.12.1"))
        #expect(!ModelVersionOrder.areSame("2026.12.1", "2026.12.1.0"))
    }
}
