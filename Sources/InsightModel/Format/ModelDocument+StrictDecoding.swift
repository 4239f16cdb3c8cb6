// Every type of the model document decodes refusing members it does not declare (`StrictKeys`): a misspelt
// optional member would otherwise read as absent and change the scores. Encoding stays synthesized from the
// same keys.

extension ModelDocument {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case format, formatVersion, objective, featureNames, baseMargin, semantics, thresholds, metadata, trees, sumDivisor,
            sigmoidScale
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(besides: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            format: try container.decode(String.self, forKey: .format),
            formatVersion: try container.decode(Int.self, forKey: .formatVersion),
            objective: try container.decode(ModelObjective.self, forKey: .objective),
            featureNames: try container.decode([String].self, forKey: .featureNames),
            baseMargin: try container.decode(Double.self, forKey: .baseMargin),
            semantics: try container.decode(SplitSemantics.self, forKey: .semantics),
            thresholds: try container.decode(RiskThresholds.self, forKey: .thresholds),
            metadata: try container.decode(ModelMetadata.self, forKey: .metadata),
            trees: try container.decode([ModelTree].self, forKey: .trees),
            sumDivisor: try container.decodeIfPresent(Int.self, forKey: .sumDivisor),
            sigmoidScale: try container.decodeIfPresent(Double.self, forKey: .sigmoidScale))
    }
}

extension ModelTree {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case leftChildren, rightChildren, splitFeatures, thresholds, defaultLeft, missingTypes, leafValues, covers
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(besides: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            leftChildren: try container.decode([Int].self, forKey: .leftChildren),
            rightChildren: try container.decode([Int].self, forKey: .rightChildren),
            splitFeatures: try container.decode([Int].self, forKey: .splitFeatures),
            thresholds: try container.decode([Double].self, forKey: .thresholds),
            defaultLeft: try container.decode([Bool].self, forKey: .defaultLeft),
            missingTypes: try container.decodeIfPresent([MissingValueType].self, forKey: .missingTypes),
            leafValues: try container.decode([Double].self, forKey: .leafValues),
            covers: try container.decodeIfPresent([Double].self, forKey: .covers))
    }
}

extension SplitSemantics {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case precision, comparison
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(besides: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            precision: try container.decode(NumericPrecision.self, forKey: .precision),
            comparison: try container.decode(SplitComparison.self, forKey: .comparison))
    }
}

extension RiskThresholds {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case medium, high
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(besides: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            medium: try container.decode(Double.self, forKey: .medium), high: try container.decode(Double.self, forKey: .high))
    }
}

extension ModelMetadata {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case insightType, category, version, createdAt, training, heldOutMetrics
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(besides: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            insightType: try container.decode(String.self, forKey: .insightType),
            category: try container.decode(String.self, forKey: .category),
            version: try container.decode(String.self, forKey: .version),
            createdAt: try container.decode(String.self, forKey: .createdAt),
            training: try container.decode(TrainingProvenance.self, forKey: .training),
            heldOutMetrics: try container.decodeIfPresent(HeldOutMetrics.self, forKey: .heldOutMetrics))
    }
}

extension TrainingProvenance {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case source, tool, parameters, dataDescription
    }

    /// `parameters` is a free-form map: its keys are the tool's names, not ours.
    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(besides: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            source: try container.decode(String.self, forKey: .source),
            tool: try container.decode(String.self, forKey: .tool),
            parameters: try container.decode([String: String].self, forKey: .parameters),
            dataDescription: try container.decode(String.self, forKey: .dataDescription))
    }
}

extension HeldOutMetrics {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case rows, positives, auc, prAUC, logLoss, atMedium, atHigh
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(besides: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            rows: try container.decode(Int.self, forKey: .rows),
            positives: try container.decodeIfPresent(Int.self, forKey: .positives),
            auc: try container.decode(Double.self, forKey: .auc),
            prAUC: try container.decode(Double.self, forKey: .prAUC),
            logLoss: try container.decode(Double.self, forKey: .logLoss),
            atMedium: try container.decode(PrecisionRecall.self, forKey: .atMedium),
            atHigh: try container.decode(PrecisionRecall.self, forKey: .atHigh))
    }
}

extension PrecisionRecall {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case precision, recall
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(besides: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            precision: try container.decode(Double.self, forKey: .precision),
            recall: try container.decode(Double.self, forKey: .recall))
    }
}
