import FoundationEssentials
@testable import InsightModel

/// The shared GBDT fixtures, found from this file's path (package root is 3 levels up).
enum Fixtures {
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("shared/fixtures/gbdt")

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
