/// Why a source model cannot be imported. Unsupported features are refused rather than mis-scored.
public enum ModelImportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is XGBoost's binary format from before JSON (`binf`); only `save_model` JSON is read.
    case legacyBinaryFormat
    /// Not parseable as the source format; `detail` says where.
    case malformed(String)
    case unsupportedObjective(String)
    case multiClassNotSupported(String)
    case categoricalSplitsNotSupported(tree: Int)
    /// XGBoost's `feature_types` declares a feature categorical (`c`): its values would be category codes, whether or
    /// not a tree splits on it.
    case categoricalFeatureNotSupported(feature: Int)
    /// LightGBM's `feature_infos` lists a feature's categories (`categorical_feature`), whether or not a tree splits
    /// on it, as XGBoost's `feature_types` does.
    case categoricalFeatureDeclared(feature: Int, name: String?)
    case linearTreesNotSupported(tree: Int)
    case unsupportedBooster(String)
    case vectorLeavesNotSupported(tree: Int)
    case badBaseScore(String)
    /// `base_score` of a `binary:logitraw` model, which is a margin: not a finite float32.
    case badBaseMargin(String)
    case featureNamesMismatch(expected: Int, given: Int)
    /// `--features` gives one of the file's feature names to another column (positions counted from 0).
    case featureNameMoved(name: String, givenPosition: Int, sourcePosition: Int)
    /// A feature named like a column the feature CSVs reserve (`label`), by the file or by the caller's list.
    case reservedFeatureName(String, inGivenNames: Bool)
    /// A name holding a control character (the model validator's rule), said here so that one given in `--features`
    /// is not blamed on the file, with the advice to use the option that gave it.
    case controlCharacterInFeatureName(feature: Int, inGivenNames: Bool)
    /// LightGBM's binary objective without `sigmoid:`, which LightGBM itself refuses to load.
    case missingSigmoid(String)
    /// LightGBM's binary objective whose last `sigmoid:` is not a finite decimal number above zero.
    case badSigmoid(String)
    /// LightGBM's model text without an `objective` line: a custom objective function, whose predictions are raw scores.
    case noObjective
    /// XGBoost's `Booster.save_config()` output: the training configuration, with no trees.
    case configurationNotModel
    /// A valid model over more features than the service scores.
    case tooManyFeatures(Int, limit: Int)
    /// A model of the other library, or a dump that is no model, given to `source`'s importer.
    case otherFormat(ModelFileKind, source: String)

    public var description: String {
        switch self {
        case .legacyBinaryFormat:
            "legacy binary model format: re-save it as JSON with save_model('model.json') (load it with the XGBoost version that wrote it) and import that"
        case .malformed(let detail): "malformed model: \(detail)"
        case .otherFormat(let kind, let source): "not a model --from \(source) reads: \(kind.advice(importing: source))"
        case .unsupportedObjective(let name):
            "objective '\(name)' is not supported: only the logistic link (xgboost binary:logistic, reg:logistic or binary:logitraw, lightgbm binary with a sigmoid, or cross_entropy)"
                // XGBoost saves a model trained with a custom objective function (obj=) under its default objective,
                // so a custom logistic loss reads as squared error: say so, or its author cannot tell why.
                + (name == "reg:squarederror"
                    ? "; XGBoost also writes reg:squarederror for a model trained with a custom objective function (obj=), whose predictions are raw margins: retrain with objective binary:logistic"
                    : "")
        case .multiClassNotSupported(let detail): "models of more than one output (multi-class or multi-target) are not supported (\(detail)): the service scores one probability per insight"
        case .categoricalSplitsNotSupported(let tree):
            "tree \(tree) has categorical splits, which are not supported: encode categories as numbers and retrain"
        case .categoricalFeatureNotSupported(let feature):
            "feature \(feature) is declared categorical (feature_types 'c'), which is not supported: encode categories as numbers and retrain"
        case .categoricalFeatureDeclared(let feature, let name):
            "feature \(feature)\(name.map { " ('\($0)')" } ?? "") is declared categorical (feature_infos lists its categories: categorical_feature), which is not supported: encode categories as numbers and retrain"
        case .linearTreesNotSupported(let tree): "tree \(tree) is a linear tree, which is not supported"
        case .unsupportedBooster(let name): "booster '\(name)' is not supported: only gbtree and dart"
        case .vectorLeavesNotSupported(let tree): "tree \(tree) has vector leaves (multi-target), which are not supported"
        case .badBaseScore(let text): "base_score '\(text)' is not a probability from 0 to 1"
        case .badBaseMargin(let text): "base_score '\(text)' is not a finite number (binary:logitraw adds it to the margin as it stands)"
        case .featureNamesMismatch(let expected, let given):
            "the model uses \(expected) features but \(given) feature names were given"
        case .featureNameMoved(let name, let givenPosition, let sourcePosition):
            "the given feature names put '\(FeatureNameText.printable(name))' at column \(givenPosition), but the file names column \(sourcePosition) '\(FeatureNameText.printable(name))': the model would read it from the wrong column; give the names in the file's column order (or leave them out to keep the file's own)"
        case .reservedFeatureName(let name, let inGivenNames):
            "a feature may not be named '\(name)': feature CSVs (models score, --evaluate) read that column as the label; \(inGivenNames ? "give that column another name in --features" : "rename it with --features")"
        case .controlCharacterInFeatureName(let feature, let inGivenNames):
            "the name of feature \(feature) holds a line break, another control character or a direction control: a name is one line of text; \(inGivenNames ? "the name comes from --features: give that column one without" : "rename it with --features")"
        case .missingSigmoid(let objective):
            "objective '\(objective)' has no sigmoid parameter: LightGBM refuses to load such a file (binary needs a sigmoid, such as sigmoid:1)"
        case .noObjective:
            "the file has no objective line: LightGBM writes none for a model trained with a custom objective function, and predicts raw scores for it, not probabilities; train with objective=binary (or cross_entropy) to import it"
        case .configurationNotModel:
            "this is a configuration (Booster.save_config()), which holds no trees: save the model itself with save_model('model.json') and import that"
        case .tooManyFeatures(let count, let limit):
            "the model reads \(count) features; the service scores models of at most \(limit)"
        case .badSigmoid(let objective):
            "objective '\(objective)': the sigmoid must be a finite decimal number greater than zero, as LightGBM requires"
        }
    }
}
