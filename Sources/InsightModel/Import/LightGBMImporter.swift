/// Reads LightGBM's model text format (`save_model`): objective `binary sigmoid:1` or `cross_entropy`, numerical
/// splits with `decision_type` bits, the bias folded into tree 0. Values are parsed as doubles, as LightGBM holds them.
public enum LightGBMImporter {
    public static func importModel(text: String, options: ModelImportOptions) throws(ModelImportError) -> ModelDocument {
        // The file's opening is enough to tell another kind of file.
        if let kind = ModelFileKind.of(text.utf8), kind != .lightGBMText { throw .otherFormat(kind, source: "lightgbm") }
        var header: [Substring: Substring] = [:]
        var treeBlocks: [[Substring: Substring]] = []
        var current: [Substring: Substring]?
        var averagesOutput = false
        var endOfTrees = false
        let body = text.hasPrefix("\u{FEFF}") ? Substring(text.unicodeScalars.dropFirst()) : Substring(text)
        // In a Swift string "\r\n" is one Character, not "\r" then "\n": a file saved with Windows line endings is
        // split on both, so the trees read the same as from LightGBM's own "\n".
        for line in body.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = line.hasSuffix("\r") ? line.dropLast() : line
            if line == "end of trees" {
                endOfTrees = true
                break
            }
            // A bare flag in the header: the model is a random forest (`boosting=rf`), whose output is the mean
            // of its trees, not their sum.
            if line == "average_output" && current == nil { averagesOutput = true }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals]
            let value = line[line.index(after: equals)...]
            if key == "Tree" {
                guard Int(value) == treeBlocks.count + (current == nil ? 0 : 1) else {
                    throw .malformed("'Tree=\(value)' is out of sequence")
                }
                if let current { treeBlocks.append(current) }
                current = [:]
            } else if current != nil {
                // LightGBM writes each line once; of a repeated one its loader keeps one copy or another depending
                // on the line (the last `feature_names`, the first `objective`), so an edited file is refused.
                guard current!.updateValue(value, forKey: key) == nil else {
                    throw .malformed("tree \(treeBlocks.count): \(FeatureNameText.quoted(key + "=")) appears more than once")
                }
            } else {
                guard header.updateValue(value, forKey: key) == nil else {
                    throw .malformed("\(FeatureNameText.quoted(key + "=")) appears more than once in the header")
                }
            }
        }
        if let current { treeBlocks.append(current) }
        guard header["version"] != nil || !treeBlocks.isEmpty else {
            let first = ModelFileKind.opening(of: text.utf8).first
            let json = first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
            throw .malformed(json
                ? "not a LightGBM model text file: the file is JSON (an XGBoost model? import it with --from xgboost)"
                : "not a LightGBM model text file")
        }
        // LightGBM writes this line after the last tree: without it the file was cut short, and a tree cut inside
        // a number line would still parse, to different scores.
        guard endOfTrees else { throw .malformed("no 'end of trees' line: the file is truncated") }
        if let sizes = header["tree_sizes"] {
            let declared = sizes.split(separator: " ").count
            guard declared == treeBlocks.count else {
                throw .malformed("tree_sizes lists \(declared) trees but the file holds \(treeBlocks.count)")
            }
        }

        // LightGBM writes no objective line for a model trained with a custom objective function, and predicts raw
        // scores for it: no probability this service could give.
        guard let objectiveLine = header["objective"] else { throw .noObjective }
        let objectiveParts = objectiveLine.split(separator: " ")
        let objectiveName = objectiveParts.first.map(String.init) ?? "?"
        if objectiveName == "multiclass" || objectiveName == "multiclassova" {
            throw .multiClassNotSupported("objective \(objectiveName)")
        }
        var sigmoidScale: Double? = nil
        switch objectiveName {
        case "binary":
            // LightGBM reads the binary objective's sigmoid from this line and refuses a file without one (its
            // `BinaryLogloss` starts from -1, takes the last `sigmoid:` given, and fails unless it is above zero).
            guard let sigmoid = objectiveParts.dropFirst().last(where: { $0.hasPrefix("sigmoid:") }) else {
                throw .missingSigmoid(String(objectiveLine))
            }
            let text = sigmoid.dropFirst("sigmoid:".count)
            // Decimal text only: Swift would also read `inf`, `nan` and hexadecimal, which LightGBM never writes.
            guard !text.isEmpty, text.allSatisfy({ "0123456789.eE+-".contains($0) }), let value = Double(text),
                value.isFinite, value > 0
            else { throw .badSigmoid(String(objectiveLine)) }
            // Absent for 1, so a model of the plain logistic link is the same document as before.
            sigmoidScale = value == 1 ? nil : value
        case "cross_entropy":
            // `CrossEntropy::ConvertOutput` is the plain logistic function, with no sigmoid parameter. Files hold
            // the canonical name (LightGBM loads no alias such as `xentropy` from a model file), and
            // `cross_entropy_lambda` converts with log(1 + exp(x)), not a probability of this kind: both refused.
            guard objectiveParts.count == 1 else { throw .unsupportedObjective(String(objectiveLine)) }
        default:
            throw .unsupportedObjective(String(objectiveLine))
        }
        // A value that is no count is a damaged file, not a model of many outputs (models probe, 7 December).
        for key: Substring in ["num_class", "num_tree_per_iteration"] {
            guard let text = header[key] else { continue }
            guard let count = Int(text), count >= 1 else { throw .malformed("\(key) '\(text)' is not a count: a whole number from 1 to \(Int.max)") }
            // LightGBM reads `+1` and `01` as 1, as this does.
            if count > 1 { throw .multiClassNotSupported("\(key) \(count)") }
        }
        guard let maxFeatureText = header["max_feature_idx"] else { throw .malformed("no max_feature_idx") }
        guard let maxFeature = Int(maxFeatureText) else {
            throw .malformed("max_feature_idx '\(maxFeatureText)' is not a whole number from 0 to \(ModelImportOptions.maximumFeatures - 1)")
        }
        guard maxFeature >= 0 else { throw .malformed("max_feature_idx must be 0 to \(ModelImportOptions.maximumFeatures - 1)") }
        guard maxFeature < ModelImportOptions.maximumFeatures else {
            throw .tooManyFeatures(maxFeature == Int.max ? Int.max : maxFeature + 1, limit: ModelImportOptions.maximumFeatures)
        }
        let featureCount = maxFeature + 1
        let sourceNames = (header["feature_names"] ?? "").split(separator: " ").map(String.init)
        // `[min:max]` for a numerical feature, `none` for one LightGBM could not use, and the categories
        // (`0:1:2`) for a categorical one, used by a split or not: the clients would send category codes for it, so it
        // is refused as XGBoost's `feature_types` 'c' is (models probe, 7 December). Entries counted as LightGBM
        // splits the line, runs of spaces as one, so an edited line names the feature it means.
        if let infos = header["feature_infos"],
           let feature = infos.split(separator: " ").firstIndex(where: { $0 != "none" && !$0.hasPrefix("[") }) {
            let name = feature < sourceNames.count && sourceNames.count == featureCount ? sourceNames[feature] : nil
            throw .categoricalFeatureDeclared(feature: feature, name: name.map(FeatureNameText.printable))
        }

        var trees: [ModelTree] = []
        trees.reserveCapacity(treeBlocks.count)
        for (index, block) in treeBlocks.enumerated() {
            trees.append(try tree(from: block, index: index))
        }
        guard !trees.isEmpty else { throw .malformed("no trees") }
        let names = try ImportedFeatureNames.resolve(
            given: options.featureNames, source: sourceNames, featureCount: featureCount, sourceKey: "feature_names",
            fallbackPrefix: "Column_")
        return ModelDocument(
            featureNames: names,
            baseMargin: 0,
            semantics: .lightGBM,
            thresholds: options.thresholds,
            metadata: ModelMetadata(
                insightType: options.insightType, category: options.category, version: options.version,
                createdAt: options.createdAt,
                training: TrainingProvenance(
                    source: "imported:lightgbm", tool: "lightgbm \(header["version"] ?? "?")",
                    parameters: ["objective": String(objectiveLine), "num_trees": String(trees.count)]
                        .merging(averagesOutput ? ["average_output": "true"] : [:]) { first, _ in first }
                        .merging(ImportedFeatureNames.renamedSource(given: options.featureNames, source: sourceNames)) { first, _ in first },
                    dataDescription: "")),
            trees: trees,
            // LightGBM's probability is sigmoid(sum / iterations), the sum taken first and divided once (its own raw
            // score is the undivided sum). Dividing each leaf instead would round differently.
            sumDivisor: averagesOutput ? trees.count : nil,
            sigmoidScale: sigmoidScale)
    }

    /// A number as LightGBM reads it, or nil. Swift's `Double` also reads hexadecimal (`0x1p-2` as 0.25), which
    /// LightGBM never writes and its own parser reads as 0: a file holding it has been edited, and is refused rather
    /// than scored otherwise than LightGBM scores it.
    static func decimal(_ text: Substring) -> Double? {
        guard !text.utf8.contains(where: { $0 == UInt8(ascii: "x") || $0 == UInt8(ascii: "X") }) else { return nil }
        return Double(text)
    }

    static func tree(from block: [Substring: Substring], index: Int) throws(ModelImportError) -> ModelTree {
        if let linear = block["is_linear"], linear != "0" { throw .linearTreesNotSupported(tree: index) }
        if let categorical = block["num_cat"], categorical != "0" { throw .categoricalSplitsNotSupported(tree: index) }
        guard let leavesText = block["num_leaves"] else { throw .malformed("tree \(index): no num_leaves") }
        guard let leafCount = Int(leavesText), leafCount >= 1 else {
            throw .malformed("tree \(index): num_leaves '\(leavesText)' is not a whole number of at least 1")
        }
        func numbers<T>(_ key: String, _ count: Int, _ parse: (Substring) -> T?) throws(ModelImportError) -> [T] {
            guard let text = block[Substring(key)] else { throw .malformed("tree \(index): no \(key)") }
            var result: [T] = []
            // `count` comes from the file: reserve no more than the text can hold (a value and a space each).
            result.reserveCapacity(min(count, text.utf8.count / 2 + 1))
            for field in text.split(separator: " ") {
                guard let value = parse(field) else { throw .malformed("tree \(index): \(key) holds '\(field)'") }
                result.append(value)
            }
            guard result.count == count else { throw .malformed("tree \(index): \(key) has \(result.count) values, expected \(count)") }
            return result
        }
        let leafValues = try numbers("leaf_value", leafCount, decimal)
        if leafCount == 1 {
            return ModelTree(
                leftChildren: [-1], rightChildren: [-1], splitFeatures: [0], thresholds: [0], defaultLeft: [false],
                missingTypes: [.none], leafValues: [leafValues[0]], covers: nil)
        }
        let splitCount = leafCount - 1
        let features = try numbers("split_feature", splitCount) { Int($0) }
        let thresholds = try numbers("threshold", splitCount, decimal)
        let decisionTypes = try numbers("decision_type", splitCount) { Int($0) }
        let leftChildren = try numbers("left_child", splitCount) { Int($0) }
        let rightChildren = try numbers("right_child", splitCount) { Int($0) }
        let leafWeights = block["leaf_weight"] == nil ? nil : try numbers("leaf_weight", leafCount, decimal)
        let internalWeights = block["internal_weight"] == nil ? nil : try numbers("internal_weight", splitCount, decimal)

        let nodeCount = splitCount + leafCount
        // Internal node i stays i; leaf j (written ~j, i.e. -(j+1)) becomes splitCount + j. The validator checks
        // internal indices; a leaf index is checked here, where `splitCount + j` could otherwise overflow.
        func node(_ child: Int) throws(ModelImportError) -> Int {
            if child >= 0 { return child }
            guard ~child < leafCount else { throw .malformed("tree \(index): child \(child) names no leaf") }
            return splitCount + ~child
        }
        var left = [Int](repeating: -1, count: nodeCount)
        var right = [Int](repeating: -1, count: nodeCount)
        var splitFeatures = [Int](repeating: 0, count: nodeCount)
        var nodeThresholds = [Double](repeating: 0, count: nodeCount)
        var defaultLeft = [Bool](repeating: false, count: nodeCount)
        var missingTypes = [MissingValueType](repeating: .none, count: nodeCount)
        var values = [Double](repeating: 0, count: nodeCount)
        for split in 0..<splitCount {
            let decision = decisionTypes[split]
            if decision & 1 != 0 { throw .categoricalSplitsNotSupported(tree: index) }
            left[split] = try node(leftChildren[split])
            right[split] = try node(rightChildren[split])
            splitFeatures[split] = features[split]
            nodeThresholds[split] = thresholds[split]
            defaultLeft[split] = decision & 2 != 0
            switch (decision >> 2) & 3 {
            case 0: missingTypes[split] = .none
            case 1: missingTypes[split] = .zero
            case 2: missingTypes[split] = .nan
            default: throw .malformed("tree \(index): decision_type \(decision) has an unknown missing type")
            }
        }
        for leaf in 0..<leafCount { values[splitCount + leaf] = leafValues[leaf] }
        var covers: [Double]?
        if let leafWeights, let internalWeights { covers = internalWeights + leafWeights }
        return ModelTree(
            leftChildren: left, rightChildren: right, splitFeatures: splitFeatures, thresholds: nodeThresholds,
            defaultLeft: defaultLeft, missingTypes: missingTypes, leafValues: values, covers: covers)
    }
}
