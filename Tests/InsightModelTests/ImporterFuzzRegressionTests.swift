import FoundationEssentials
import Testing
@testable import InsightModel

/// Inputs the fuzz targets (Tests/Fuzz/xgboost-import, Tests/Fuzz/lightgbm-import) found crashing the importers: counts and
/// indices read from the file sized allocations or overflowed before anything checked them. Each must now be a
/// refusal with a message, as the CLI reports it.
@Suite struct ImporterFuzzRegressionTests: ImportRefusing {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func xgboost(numFeature: String) -> [UInt8] {
        let json = ImporterRefusalTests.xgboost()
        let text = String(decoding: json, as: UTF8.self)
            .replacing(#""num_class":"0","num_feature":"2""#, with: #""num_class":"0","num_feature":"\#(numFeature)""#)
        return Array(text.utf8)
    }

    static func lightGBM(maxFeatureIndex: String = "0", numLeaves: String = "2", leftChild: String = "-1") -> String {
        """
        tree
        version=v4
        num_class=1
        num_tree_per_iteration=1
        max_feature_idx=\(maxFeatureIndex)
        objective=binary sigmoid:1

        Tree=0
        num_leaves=\(numLeaves)
        num_cat=0
        split_feature=0
        threshold=1.5
        decision_type=10
        left_child=\(leftChild)
        right_child=-2
        leaf_value=-0.25 0.75

        end of trees
        """
    }

    @Test(arguments: ["-3", "0"])
    func xgboostRefusesAFeatureCountOutOfRange(numFeature: String) {
        #expect(xgboostRefusal(Self.xgboost(numFeature: numFeature)) == .malformed("num_feature must be 1 to 65536"))
    }

    /// A valid model over more features than the service scores is told so, not called malformed.
    @Test(arguments: [("100000000000", 100000000000), ("65537", 65537)])
    func xgboostRefusesMoreFeaturesThanTheServiceScores(numFeature: String, count: Int) {
        #expect(xgboostRefusal(Self.xgboost(numFeature: numFeature)) == .tooManyFeatures(count, limit: 65536))
        #expect(ModelImportError.tooManyFeatures(count, limit: 65536).description.contains("at most 65536"))
    }

    @Test func xgboostStillImportsTheLargestFeatureCount() throws {
        let document = try XGBoostImporter.importModel(jsonBytes: Self.xgboost(numFeature: "65536"), options: ImporterRefusalTests.options)
        #expect(document.featureNames.count == 65536)
    }

    @Test func lightGBMRefusesANegativeMaximumFeatureIndex() {
        #expect(lightGBMRefusal(Self.lightGBM(maxFeatureIndex: "-5")) == .malformed("max_feature_idx must be 0 to 65535"))
    }

    @Test(arguments: [("9223372036854775807", Int.max), ("65536", 65537)])
    func lightGBMRefusesMoreFeaturesThanTheServiceScores(index: String, count: Int) {
        #expect(lightGBMRefusal(Self.lightGBM(maxFeatureIndex: index)) == .tooManyFeatures(count, limit: 65536))
    }

    @Test func lightGBMRefusesALeafCountTheTextCannotHold() {
        #expect(lightGBMRefusal(Self.lightGBM(numLeaves: "1000000000000"))
            == .malformed("tree 0: leaf_value has 2 values, expected 1000000000000"))
    }

    @Test(arguments: ["-9223372036854775808", "-3"])
    func lightGBMRefusesAChildNamingNoLeaf(child: String) {
        #expect(lightGBMRefusal(Self.lightGBM(leftChild: child)) == .malformed("tree 0: child \(child) names no leaf"))
    }

    @Test func lightGBMStillImportsTheTwoLeafTree() throws {
        let document = try LightGBMImporter.importModel(text: Self.lightGBM(), options: ImporterRefusalTests.options)
        #expect(try CompiledModel(document: document).margin(for: [1.0]) == -0.25)
    }

    /// Saved crash inputs of our own format compile (or are refused) without trapping: one had a leaf whose unused
    /// split feature did not fit the contribution table's 32-bit field.
    @Test func compilesEverySavedCrashDocumentWithoutTrapping() throws {
        let folder = Self.packageRoot.appendingPathComponent("Tests/Fuzz/corpus/model-document")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("regression-") }
        #expect(!names.isEmpty)
        for name in names {
            guard let document = try? ModelDocument(jsonData: Data(contentsOf: folder.appendingPathComponent(name))) else { continue }
            if let model = try? CompiledModel(document: document) {
                _ = model.contributions(for: [Double](repeating: 0, count: model.featureCount))
            }
        }
    }

    /// Every saved crash input of the importer targets is refused, not a crash.
    @Test(arguments: ["xgboost-import", "lightgbm-import"])
    func refusesEverySavedCrashInput(target: String) throws {
        let folder = Self.packageRoot.appendingPathComponent("Tests/Fuzz/corpus/\(target)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("regression-") }
        #expect(!names.isEmpty)
        for name in names {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            let refusal = target == "xgboost-import" ? xgboostRefusal(bytes) : lightGBMRefusal(String(decoding: bytes, as: UTF8.self))
            #expect(refusal != nil, "\(name) was imported")
        }
    }
}
