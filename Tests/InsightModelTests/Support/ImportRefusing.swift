@testable import InsightModel

/// What an importer refused a file with, or nil when it took it: the one way the import suites ask, so that a
/// change to the importers' entry points is made here once.
protocol ImportRefusing {}

extension ImportRefusing {
    func xgboostRefusal(_ bytes: [UInt8], featureNames: [String]? = nil) -> ModelImportError? {
        refusal(featureNames) { options throws(ModelImportError) in _ = try XGBoostImporter.importModel(jsonBytes: bytes, options: options) }
    }

    func xgboostRefusal(_ text: String) -> ModelImportError? {
        xgboostRefusal(Array(text.utf8))
    }

    func lightGBMRefusal(_ text: String, featureNames: [String]? = nil) -> ModelImportError? {
        refusal(featureNames) { options throws(ModelImportError) in _ = try LightGBMImporter.importModel(text: text, options: options) }
    }

    private func refusal(
        _ featureNames: [String]?, _ importing: (ModelImportOptions) throws(ModelImportError) -> Void
    ) -> ModelImportError? {
        var options = ImporterRefusalTests.options
        options.featureNames = featureNames
        do {
            try importing(options)
            return nil
        } catch {
            return error
        }
    }
}
