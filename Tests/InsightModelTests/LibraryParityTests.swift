import Foundation
import Testing
@testable import InsightModel

/// Models of 42 shapes trained by the real XGBoost and LightGBM (`scripts/library_parity.py`: tree methods, growth
/// policies, dart, forests, early stopping, missing-value handling, 1 to 200 features, single leaves, UBJSON...),
/// imported and scored here and compared with the libraries' own predictions; the shapes the import refuses must be
/// refused with a message that names why. The shared fixtures pin one model of each library; this follows whatever
/// versions CI installs, so a new release that writes its files differently is caught.
@Suite struct LibraryParityTests {
    static let librariesInstalled: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import numpy, xgboost, lightgbm"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    struct Cases: Decodable {
        var xgboost: String
        var lightgbm: String
        var cases: [Case]
        /// Shapes the installed libraries could not train, listed only when the script runs with
        /// PARITY_SKIP_UNSUPPORTED=1 (checking an older release by hand); empty otherwise.
        var skipped: [Skipped]?
    }

    struct Skipped: Decodable {
        var name: String
        var reason: String
    }

    struct Case: Decodable {
        var name: String
        var library: String
        var model: String
        var features: [String]
        var rows: String?
        var predictions: String?
        var bestIteration: Bool?
        var refused: String?
    }

    @Test(.enabled(if: librariesInstalled,
                   "SKIPPED: python3 with numpy, xgboost and lightgbm not found (pip install numpy xgboost-cpu lightgbm)"))
    func everyShapeScoresAsItsLibraryPredictsOrIsRefusedSayingWhy() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("library-parity-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/library_parity.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, directory.path]
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // Read to the end before waiting, so a chatty library cannot fill the pipe and stall the script.
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "scripts/library_parity.py failed: \(said.suffix(2000))")
        let listing = try JSONDecoder().decode(
            Cases.self, from: Data(contentsOf: directory.appendingPathComponent("cases.json")))
        let skipped = listing.skipped ?? []
        #expect(listing.cases.count + skipped.count == 42)
        print("LibraryParityTests: \(listing.cases.count) shapes from xgboost \(listing.xgboost), lightgbm \(listing.lightgbm)")
        for shape in skipped { print("LibraryParityTests: skipped \(shape.name): \(shape.reason)") }

        for shape in listing.cases {
            var options = ModelImportOptions(
                insightType: "isLikelyBeingCoached", category: "payment", version: "1.0.0",
                createdAt: "2026-12-04T00:00:00Z", featureNames: shape.features)
            options.keepsBestIterationOnly = shape.bestIteration ?? false
            let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(shape.model)))
            let imported: Result<ModelDocument, ModelImportError> = if shape.library == "xgboost" {
                Result { () throws(ModelImportError) in try XGBoostImporter.importModel(jsonBytes: bytes, options: options) }
            } else {
                Result { () throws(ModelImportError) in
                    try LightGBMImporter.importModel(text: String(decoding: bytes, as: UTF8.self), options: options)
                }
            }
            if let reason = shape.refused {
                switch imported {
                case .success: Issue.record("\(shape.name): imported, but the import should refuse it (\(reason))")
                case .failure(let error):
                    #expect(error.description.contains(reason), "\(shape.name): \(error.description)")
                }
                continue
            }
            let document: ModelDocument
            switch imported {
            case .success(let value): document = value
            case .failure(let error):
                Issue.record("\(shape.name): refused: \(error.description)")
                continue
            }
            try compare(shape, document: document, in: directory)
        }
    }

    private func compare(_ shape: Case, document: ModelDocument, in directory: URL) throws {
        try ModelValidator.validate(document)
        let model = try CompiledModel(document: document)
        let float32 = document.semantics.precision == .float32
        let rowsText = try String(contentsOf: directory.appendingPathComponent(try #require(shape.rows)), encoding: .utf8)
        let rows = try FeatureTable(csv: rowsText, parseAsDouble: !float32).matrix(for: document.featureNames)
        let expected = try String(
            contentsOf: directory.appendingPathComponent(try #require(shape.predictions)), encoding: .utf8
        ).split(separator: "\n").map { $0.split(separator: ",") }
        let margins = model.margins(for: rows)
        try #require(margins.count == expected.count, "\(shape.name): \(margins.count) rows scored, \(expected.count) predicted")

        // XGBoost sums in float32 and takes a float32 sigmoid, which differs from ours (in double) in its last bits;
        // its margin must match to the bit. LightGBM works in double throughout.
        let tolerance = float32 ? 1e-6 : 1e-12
        var worst = 0.0, marginMismatches = 0
        for (margin, line) in zip(margins, expected) {
            let probability = document.probability(margin: margin)
            worst = max(worst, abs(probability - Double(line[0])!))
            if line.count > 1, Float(margin) != Float(line[1])! { marginMismatches += 1 }
        }
        #expect(worst <= tolerance, "\(shape.name): probabilities differ by up to \(worst)")
        #expect(marginMismatches == 0, "\(shape.name): \(marginMismatches) of \(margins.count) margins differ")
    }
}
