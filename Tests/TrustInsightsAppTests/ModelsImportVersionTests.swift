import FoundationEssentials
import Testing

@testable import TrustInsightsApp

/// `models import --version` takes only what the manifest accepts, and `--register` refuses a version the
/// manifest already holds under the numeric comparison.
@Suite struct ModelsImportVersionTests {
    @Test(arguments: ["", "../../etc", "1.2.x", "2026.12.1 ", "2026.1e3"])
    func refusesAVersionThatIsNotDotSeparatedNumbersBeforeWritingAnything(version: String) throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.lightGBMStump(), to: "model.txt")
        let result = harness.importModel(
            "model.txt", from: "lightgbm", to: "models/v.json", version: version,
            ["--register", "--manifest", harness.path("models/manifest.json")])
        #expect(result.status == 64, "a usage error")
        #expect(result.errors.contains("'--version' is invalid:"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: harness.path("models/v.json")))
        #expect(!FileManager.default.fileExists(atPath: harness.path("models/manifest.json")))
    }

    /// Thresholds the model format refuses are a usage error, named before anything is read.
    @Test func refusesThresholdsOutOfOrderAsAUsageError() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.lightGBMStump(), to: "model.txt")
        let result = harness.importModel("model.txt", from: "lightgbm", to: "models/v.json", version: "2026.12.1", ["--medium", "0.9", "--high", "0.1"])
        #expect(result.status == 64)
        #expect(result.errors.contains("'--medium' and '--high'"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: harness.path("models/v.json")))
    }

    private static let catalogue = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("config/features").path

    @Test func refusesToRegisterAVersionTheManifestHoldsWrittenAnotherWay() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.lightGBMStump(featureNames: "activeCall callDurationSeconds"), to: "model.txt")
        let manifest = ["--register", "--manifest", harness.path("models/manifest.json"), "--catalogue", Self.catalogue]
        let first = harness.importModel("model.txt", from: "lightgbm", to: "models/a.json", version: "2026.12.1", manifest)
        #expect(first.status == 0, "\(first.errors)")
        let before = try harness.read("models/manifest.json")
        let second = harness.importModel("model.txt", from: "lightgbm", to: "models/b.json", version: "2026.12.01", manifest)
        #expect(second.status != 0)
        #expect(second.errors.contains("the same version as models[0]"), "\(second.errors)")
        #expect(try harness.read("models/manifest.json") == before)
        #expect(!FileManager.default.fileExists(atPath: harness.path("models/b.json")))
    }
}
