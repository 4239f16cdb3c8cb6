/// One gradient-boosted tree model in the project's own versioned JSON format (docs/MODEL-FORMAT.md).
///
/// The document is plain data: it decodes and encodes with `JSONDecoder`/`JSONEncoder` and is checked by
/// `ModelValidator` before anything scores with it. Scores are computed by `CompiledModel`, never from here.
public struct ModelDocument: Codable, Sendable, Hashable {
    /// The value of `format` in every document of this kind.
    public static let formatName = "trust-insights.gbdt"
    /// The newest `formatVersion` this build reads and writes.
    public static let currentFormatVersion = 1

    public var format: String
    public var formatVersion: Int
    public var objective: ModelObjective
    /// The features the model consumes, in the order `splitFeatures` indexes them.
    public var featureNames: [String]
    /// The margin every prediction starts from (logit of the source's base score, the base score itself for XGBoost's
    /// `binary:logitraw`, or the folded bias).
    /// For `float32` models it is a float32 value held exactly in a double.
    public var baseMargin: Double
    /// How splits compare, how missing values route, and in which precision leaf values are summed.
    public var semantics: SplitSemantics
    /// The probabilities at which the outcome becomes `medium` and `high`.
    public var thresholds: RiskThresholds
    public var metadata: ModelMetadata
    /// Summed in this order: the order is part of the exactness guarantee for float32 models.
    public var trees: [ModelTree]
    /// When present, the margin is the sum (`baseMargin`, then each tree's leaf) divided by this, once, in the
    /// model's precision: LightGBM's random forests (`average_output`) average their trees that way. Absent means
    /// the margin is the sum itself.
    public var sumDivisor: Int?
    /// When present, the probability is the logistic function of this times the margin: LightGBM's binary objective
    /// with `sigmoid:` other than 1 (its probability is 1 / (1 + exp(-sigmoid * raw score))). Absent means 1, so the
    /// margin is itself the log-odds. The margin stays the library's raw score; only the link scales it.
    public var sigmoidScale: Double?

    public init(
        format: String = ModelDocument.formatName,
        formatVersion: Int = ModelDocument.currentFormatVersion,
        objective: ModelObjective = .binaryLogistic,
        featureNames: [String],
        baseMargin: Double,
        semantics: SplitSemantics,
        thresholds: RiskThresholds,
        metadata: ModelMetadata,
        trees: [ModelTree],
        sumDivisor: Int? = nil,
        sigmoidScale: Double? = nil
    ) {
        self.format = format
        self.formatVersion = formatVersion
        self.objective = objective
        self.featureNames = featureNames
        self.baseMargin = baseMargin
        self.semantics = semantics
        self.thresholds = thresholds
        self.metadata = metadata
        self.trees = trees
        self.sumDivisor = sumDivisor
        self.sigmoidScale = sigmoidScale
    }
}
