import Testing
@testable import InsightModel

/// Feature names and objective lines both importers must read the same strict way.
@Suite struct ImporterNamingTests {
    func lightGBMRefusal(_ text: String, featureNames: [String]? = nil) -> ModelImportError? {
        var options = ImporterRefusalTests.options
        options.featureNames = featureNames
        do {
            _ = try LightGBMImporter.importModel(text: text, options: options)
            return nil
        } catch {
            return error
        }
    }

    func xgboostRefusal(_ bytes: [UInt8], featureNames: [String]? = nil) -> ModelImportError? {
        var options = ImporterRefusalTests.options
        options.featureNames = featureNames
        do {
            _ = try XGBoostImporter.importModel(jsonBytes: bytes, options: options)
            return nil
        } catch {
            return error
        }
    }

    /// A short list would have named the columns `Column_0...` silently: refused as the XGBoost importer refuses it.
    @Test func lightGBMRefusesAFeatureNamesLineOfAnotherLength() {
        let short = ImporterRefusalTests.lightGBM().replacingOccurrences(of: "feature_names=a b", with: "feature_names=b")
        #expect(lightGBMRefusal(short) == .malformed("feature_names lists 1 names for 2 features"))
        #expect(lightGBMRefusal(short, featureNames: ["x", "y"]) == .malformed("feature_names lists 1 names for 2 features"))
        let long = ImporterRefusalTests.lightGBM().replacingOccurrences(of: "feature_names=a b", with: "feature_names=a b c")
        #expect(lightGBMRefusal(long) == .malformed("feature_names lists 3 names for 2 features"))
        let none = ImporterRefusalTests.lightGBM().replacingOccurrences(of: "feature_names=a b\n", with: "")
        #expect(lightGBMRefusal(none) == nil)
    }

    /// LightGBM's `BinaryLogloss` fails to load a model whose objective line has no `sigmoid:`.
    @Test func lightGBMRefusesABinaryObjectiveWithoutSigmoidAsLightGBMDoes() throws {
        let error = try #require(lightGBMRefusal(ImporterRefusalTests.lightGBM(objective: "binary")))
        #expect(error == .missingSigmoid("binary"))
        #expect(error.description.contains("LightGBM refuses to load"))
        #expect(lightGBMRefusal(ImporterRefusalTests.lightGBM(objective: "binary sigmoid:1.000")) == nil)
        #expect(lightGBMRefusal(ImporterRefusalTests.lightGBM(objective: "binary sigmoid:0")) != nil)
    }

    @Test func bothImportersRefuseAFeatureNamedLikeTheLabelColumn() throws {
        #expect(lightGBMRefusal(ImporterRefusalTests.lightGBM(), featureNames: ["label", "b"]) == .reservedFeatureName("label"))
        #expect(xgboostRefusal(ImporterRefusalTests.xgboost(), featureNames: ["a", "label"]) == .reservedFeatureName("label"))
        #expect(xgboostRefusal(ImporterRefusalTests.xgboost(featureNames: #""label","b""#)) == .reservedFeatureName("label"))
        #expect(ModelImportError.reservedFeatureName("label").description.contains("read that column as the label"))
    }
}
