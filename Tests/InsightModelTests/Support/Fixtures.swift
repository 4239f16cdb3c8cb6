import Foundation
import Testing
@testable import InsightModel

/// The shared GBDT fixtures (reference XGBoost and LightGBM models, data and exact predictions): beside the package
/// in `../shared/fixtures/gbdt`, found from this file's path, or where `TRUST_INSIGHTS_GBDT_FIXTURES` says. They are
/// not part of the repository, so a copy without them skips the tests that need them, saying why, rather than
/// failing on a missing file (command-line probe, 6 December).
enum Fixtures {
    static let directory: URL = {
        if let given = ProcessInfo.processInfo.environment["TRUST_INSIGHTS_GBDT_FIXTURES"], !given.isEmpty {
            return URL(fileURLWithPath: given)
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/fixtures/gbdt")
    }()

    static var available: Bool {
        ["xgb_200x6.json", "lgb_200x63.txt", "heldout_20k.csv", "xgb_200x6_preds_20k.csv", "lgb_200x63_preds_20k.csv"]
            .allSatisfy { FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path) }
    }

    /// For the tests that read the fixtures.
    static let needed = Testing.ConditionTrait.enabled(
        if: available, "the shared GBDT fixtures are not in ../shared/fixtures/gbdt (set TRUST_INSIGHTS_GBDT_FIXTURES to their folder)")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func text(_ name: String) throws -> String {
        String(decoding: try bytes(name), as: UTF8.self)
    }

    static let options = ModelImportOptions(
        insightType: "isLikelyBeingCoached", category: "payment", version: "2026.09.1",
        createdAt: "2026-09-14T10:00:00Z", featureNames: (0..<32).map { "f\($0)" })

    static func xgboostModel() throws -> ModelDocument {
        try XGBoostImporter.importModel(jsonBytes: bytes("xgb_200x6.json"), options: options)
    }

    static func lightGBMModel() throws -> ModelDocument {
        try LightGBMImporter.importModel(text: text("lgb_200x63.txt"), options: options)
    }

    static func heldOut() throws -> FeatureTable {
        try FeatureTable(csv: text("heldout_20k.csv"))
    }

    /// The two columns of a predictions file, as text (so each test parses them at the precision it needs).
    static func predictions(_ name: String) throws -> [(Substring, Substring)] {
        try text(name).split(separator: "\n").dropFirst().map { line in
            let parts = line.split(separator: ",")
            return (parts[0], parts[1])
        }
    }
}
