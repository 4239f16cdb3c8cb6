import Foundation
@testable import InsightCore

/// Shared helpers for the catalogue tests: the package's own config and small in-memory catalogues.
enum CatalogueTestSupport {
    /// Package root: three levels up from Tests/InsightCoreTests/<file>.swift.
    static var packageRoot: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }

    static var featuresDirectory: String { packageRoot + "/config/features" }

    static func shippedCatalogue() throws -> FeatureCatalogue {
        try FeatureCatalogue.load(from: featuresDirectory)
    }

    /// A small catalogue with one feature of every type, a computed one, and a name that needs pointer escaping.
    static func sample() throws -> CategoryCatalogue {
        try CategoryCatalogue(
            category: .payment,
            version: "test",
            requiredSubjectRefs: [.accountRef],
            features: [
                .flag("activeCall", required: true, description: "call"),
                FeatureDefinition(
                    name: "hesitationMillis", type: .number, unit: "milliseconds", minimum: 0, maximum: 600_000,
                    isRequired: false, description: "pause"),
                FeatureDefinition(
                    name: "pasteEventsInFlow", type: .count, unit: "count", minimum: 0, maximum: 200, isRequired: false,
                    description: "pastes"),
                .band(
                    "timeOfDayBand",
                    bands: [FeatureBand(code: 0, meaning: "night"), FeatureBand(code: 1, meaning: "morning"), FeatureBand(code: 3, meaning: "evening")],
                    required: true, description: "band"),
                FeatureDefinition(
                    name: "evaluationsPerAccount10m", type: .count, unit: "count", minimum: 0, maximum: 1_000_000,
                    isRequired: true, source: .computed, description: "velocity"),
            ])
    }

    /// Writes `documents` (category -> JSON text) into a fresh temporary directory, filling the other categories
    /// from the shipped config, and returns the directory.
    static func directory(replacing documents: [OperationCategory: String]) throws -> String {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("catalogue-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for category in OperationCategory.allCases {
            let target = directory + "/\(category.rawValue).json"
            if let text = documents[category] {
                try Data(text.utf8).write(to: URL(fileURLWithPath: target))
            } else {
                try FileManager.default.copyItem(atPath: featuresDirectory + "/\(category.rawValue).json", toPath: target)
            }
        }
        return directory
    }

    /// A minimal valid payment document whose first feature entry is replaced by `feature`.
    static func paymentDocument(feature: String, extraTopLevel: String = "") -> String {
        """
        {"schemaVersion": 1, "category": "payment", "version": "t",\(extraTopLevel)
         "subject": {"required": ["accountRef"]},
         "features": [
           {"name": "activeCall", "type": "flag", "unit": "boolean", "required": true, "description": "d"},
           \(feature)
         ]}
        """
    }
}
