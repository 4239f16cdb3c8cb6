import Glibc

/// Reads XGBoost's `save_model` JSON or UBJSON (binary:logistic or reg:logistic, gbtree or dart, numerical splits)
/// into a float32 model document.
/// Numbers are read once from their text into float32, as XGBoost itself holds them.
public enum XGBoostImporter {
    public static func importModel(jsonBytes: [UInt8], options: ModelImportOptions) throws(ModelImportError) -> ModelDocument {
        // RFC 8259 lets a parser ignore a leading byte order mark; editors on some systems add one.
        let jsonBytes = jsonBytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(jsonBytes.dropFirst(3)) : jsonBytes
        if looksLikeLegacyBinary(jsonBytes) { throw .legacyBinaryFormat }
        if let kind = ModelFileKind.of(jsonBytes), kind != .xgboostModel { throw .otherFormat(kind, source: "xgboost") }
        let isUBJSON = looksLikeUBJSON(jsonBytes)
        let root: JSONValue
        do {
            root = isUBJSON ? try UBJSONParser.parse(jsonBytes) : try JSONParser.parse(jsonBytes, infinityWords: .xgboost)
        } catch {
            let syntaxError = ModelImportError.malformed("\(isUBJSON ? "UBJSON" : "JSON") syntax error at byte \(error.offset): \(error.message)")
            guard error.isNonFiniteNumber else { throw syntaxError }
            throw unsupportedShape(ofFileHoldingNaN: jsonBytes, isUBJSON: isUBJSON, options: options) ?? syntaxError
        }
        return try importModel(root: root, options: options)
    }

    /// What makes a file holding NaN unsupported beyond the NaN itself, if anything: XGBoost before 3.0 writes NaN
    /// where a categorical split or a vector leaf has no number, so those models reach the importer as "NaN is not a
    /// number" unless the file is read once more, with NaN allowed, to find the reason that matters to the operator.
    /// Only a refusal other than a malformed file is returned; no model is ever made from such a reading.
    static func unsupportedShape(ofFileHoldingNaN bytes: [UInt8], isUBJSON: Bool, options: ModelImportOptions) -> ModelImportError? {
        guard let root = try? (isUBJSON ? UBJSONParser.parse(bytes, acceptingNaN: true) : JSONParser.parse(bytes, infinityWords: .xgboostAndNaN))
        else { return nil }
        do {
            _ = try importModel(root: root, options: options)
            return nil
        } catch {
            if case .malformed = error { return nil }
            return error
        }
    }

    static func importModel(root: JSONValue, options: ModelImportOptions) throws(ModelImportError) -> ModelDocument {
        guard let learner = root["learner"] else { throw .malformed("no 'learner' object") }
        guard let objective = learner["objective"]?["name"]?.stringValue else {
            throw .malformed("no objective: learner.objective.name must name it (binary:logistic, reg:logistic or binary:logitraw)")
        }
        // reg:logistic predicts exactly as binary:logistic does (the same sigmoid, and the same logit of base_score);
        // it differs only in what it accepts as labels when training. binary:logitraw trains the same logistic loss
        // but predicts the margin itself, and (since XGBoost 1.4) adds base_score to it as it stands, with no logit.
        let marginIsRaw = objective == "binary:logitraw"
        guard objective == "binary:logistic" || objective == "reg:logistic" || marginIsRaw else {
            throw .unsupportedObjective(objective)
        }
        let parameters = learner["learner_model_param"]
        // 0 or 1 classes for a binary model, 1 target (XGBoost refuses a model of no targets; so does the import,
        // rather than take it for one); a value that is no count (`true`, `null`, text) is damage, not a model of many
        // outputs, and not a default either (regression probe, 7 December).
        for (key, least) in [("num_class", 0), ("num_target", 1)] {
            guard let value = parameters?[key] else { continue }
            guard let text = value.numberText, let count = Int(text), count >= least else {
                let stated = value.numberText.map { "'\($0)' is not a count" } ?? "is not a count (it holds no number)"
                throw .malformed("\(key) \(stated): a whole number from \(least) to \(Int.max)")
            }
            if count > 1 { throw .multiClassNotSupported("\(key) \(count)") }
        }
        guard let baseScoreText = parameters?["base_score"]?.numberText else { throw .malformed("no base_score") }
        let baseScore = try parseBaseScore(baseScoreText, isProbability: !marginIsRaw)
        let boundedScore = bounded(baseScore)
        let gradientBooster = learner["gradient_booster"]
        let boosterName = gradientBooster?["name"]?.stringValue ?? "?"
        // DART keeps a gbtree inside it, and a weight per tree that its prediction multiplies the tree's output by.
        let booster: JSONValue?
        switch boosterName {
        case "gbtree": booster = gradientBooster
        case "dart": booster = gradientBooster?["gbtree"]
        default: throw .unsupportedBooster(boosterName)
        }
        guard let treesInFileOrder = booster?["model"]?["trees"]?.arrayValue else {
            // `Booster.save_config()` writes a `learner` too, with its training parameters and no model.
            if booster?["model"] == nil, learner["learner_train_param"] != nil || learner["generic_param"] != nil {
                throw .configurationNotModel
            }
            throw .malformed("no trees")
        }
        let treesJSON = try inIdentifierOrder(treesInFileOrder)
        try checkTreeCounts(model: booster?["model"], treeCount: treesJSON.count)
        let dropWeights = boosterName == "dart" ? try dartWeights(gradientBooster?["weight_drop"], treeCount: treesJSON.count) : nil
        if let treeInfo = booster?["model"]?["tree_info"]?.arrayValue,
            treeInfo.contains(where: { $0.numberText != "0" })
        {
            throw .multiClassNotSupported("trees for more than one output group")
        }
        let featureCount = parameters?["num_feature"]?.numberText.flatMap { Int($0) } ?? 0
        guard featureCount >= 1 else { throw .malformed("num_feature must be 1 to \(ModelImportOptions.maximumFeatures)") }
        guard featureCount <= ModelImportOptions.maximumFeatures else {
            throw .tooManyFeatures(featureCount, limit: ModelImportOptions.maximumFeatures)
        }
        let sourceNames = (learner["feature_names"]?.arrayValue ?? []).compactMap(\.stringValue)
        if let types = learner["feature_types"]?.arrayValue, let feature = types.firstIndex(where: { $0.stringValue == "c" }) {
            throw .categoricalFeatureNotSupported(feature: feature)
        }
        let bestIteration = learner["attributes"]?["best_iteration"]?.stringValue.flatMap { Int($0) }
        let treesToKeep = try keptTreeCount(
            bestIteration: options.keepsBestIterationOnly ? bestIteration : nil, model: booster?["model"],
            bestTreeLimit: learner["attributes"]?["best_ntree_limit"]?.stringValue.flatMap { Int($0) },
            treeCount: treesJSON.count)
        var trees: [ModelTree] = []
        trees.reserveCapacity(treesToKeep)
        for (index, treeJSON) in treesJSON.prefix(treesToKeep).enumerated() {
            let imported = try tree(from: treeJSON, index: index)
            trees.append(dropWeights.map { imported.scalingLeaves(by: $0[index]) } ?? imported)
        }
        let names = try ImportedFeatureNames.resolve(
            given: options.featureNames, source: sourceNames, featureCount: featureCount, sourceKey: "feature_names",
            fallbackPrefix: "f")
        let version = (root["version"]?.arrayValue ?? []).compactMap(\.numberText).joined(separator: ".")
        var recorded = ["objective": objective, "base_score": baseScoreText, "num_trees": String(trees.count)]
        if dropWeights != nil { recorded["booster"] = "dart" }
        if let bestIteration { recorded["best_iteration"] = String(bestIteration) }
        recorded.merge(ImportedFeatureNames.renamedSource(given: options.featureNames, source: sourceNames)) { first, _ in first }
        // XGBoost up to 3.1 took the logit of the value as it stands; 3.2 bounds it first. The model scores as 3.2
        // predicts, and says so, since older versions give these files other margins.
        if !marginIsRaw, boundedScore != baseScore { recorded["base_score_bounded_to"] = String(boundedScore) }
        return ModelDocument(
            featureNames: names,
            baseMargin: marginIsRaw ? Double(baseScore) : Double(logit(boundedScore)),
            semantics: .xgboost,
            thresholds: options.thresholds,
            metadata: ModelMetadata(
                insightType: options.insightType, category: options.category, version: options.version,
                createdAt: options.createdAt,
                training: TrainingProvenance(
                    source: "imported:xgboost", tool: version.isEmpty ? "xgboost" : "xgboost \(version)",
                    parameters: recorded,
                    dataDescription: "")),
            trees: trees)
    }

    /// The trees in the order XGBoost predicts with: it places each at the position its `id` names
    /// (`GBTreeModel::LoadModel`), whatever the order of the file, and refuses an `id` past the trees (a repeated one
    /// leaves a place empty, which it does not survive). Files with no `id` at all keep their order. The order
    /// matters to DART, whose weights go by position, and to the float32 sum's rounding.
    static func inIdentifierOrder(_ trees: [JSONValue]) throws(ModelImportError) -> [JSONValue] {
        guard trees.contains(where: { $0["id"] != nil }) else { return trees }
        var placed = [JSONValue?](repeating: nil, count: trees.count)
        for (position, tree) in trees.enumerated() {
            guard let text = tree["id"]?.numberTokenText, let id = Int(text), placed.indices.contains(id) else {
                let written = tree["id"]?.numberTokenText ?? "missing"
                throw .malformed("tree \(position): id \(written) is not a whole number from 0 to \(trees.count - 1), one per tree")
            }
            guard placed[id] == nil else { throw .malformed("tree \(position): id \(id) is given to another tree too") }
            placed[id] = tree
        }
        return placed.map { $0! }
    }

    /// The counts the model states beside its trees must be the trees' own, as XGBoost checks when it loads them: a
    /// file where they differ has been cut or edited, and which part is right cannot be told.
    static func checkTreeCounts(model: JSONValue?, treeCount: Int) throws(ModelImportError) {
        if let stated = model?["gbtree_model_param"]?["num_trees"]?.numberText, Int(stated) != treeCount {
            throw .malformed("gbtree_model_param.num_trees is \(stated), but the model holds \(treeCount) trees")
        }
        if let info = model?["tree_info"]?.arrayValue, info.count != treeCount {
            throw .malformed("tree_info lists \(info.count) trees, but the model holds \(treeCount)")
        }
        if let bounds = model?["iteration_indptr"]?.arrayValue {
            let values = bounds.map { $0.numberText.flatMap { Int($0) } }
            let ascending = zip(values, values.dropFirst()).allSatisfy { pair in
                guard let low = pair.0, let high = pair.1 else { return false }
                return low <= high
            }
            guard values.first == 0, values.last == treeCount, ascending, !values.contains(nil) else {
                throw .malformed("iteration_indptr must rise from 0 to the model's \(treeCount) trees")
            }
        }
    }

    /// DART's `weight_drop`: one finite float32 weight per tree. Prediction multiplies each tree's output by its
    /// weight (`Dart::PredictBatchImpl`, in float32), which the import does to the leaves once.
    static func dartWeights(_ json: JSONValue?, treeCount: Int) throws(ModelImportError) -> [Float] {
        guard let items = json?.arrayValue else { throw .malformed("dart booster without 'weight_drop'") }
        guard items.count == treeCount else {
            throw .malformed("weight_drop lists \(items.count) weights for \(treeCount) trees")
        }
        var weights: [Float] = []
        weights.reserveCapacity(items.count)
        for item in items {
            guard let text = item.numberTokenText, let weight = Float(text), weight.isFinite else {
                throw .malformed("weight_drop holds a value that is not a finite number")
            }
            weights.append(weight)
        }
        return weights
    }

    /// How many trees make up iterations 0 through `bestIteration` (all of them when nil): from
    /// `iteration_indptr` where XGBoost writes it (2.0 and later), else `num_parallel_tree` per iteration, else
    /// (XGBoost before 1.6, which wrote neither) the `best_ntree_limit` early stopping recorded beside it.
    static func keptTreeCount(
        bestIteration: Int?, model: JSONValue?, bestTreeLimit: Int? = nil, treeCount: Int
    ) throws(ModelImportError) -> Int {
        guard let bestIteration else { return treeCount }
        guard bestIteration >= 0 else { throw .malformed("best_iteration \(bestIteration) is negative") }
        let kept: Int?
        if let bounds = model?["iteration_indptr"]?.arrayValue {
            kept = bounds.count > bestIteration + 1 ? bounds[bestIteration + 1].numberText.flatMap { Int($0) } : nil
        } else if model?["gbtree_model_param"]?["num_parallel_tree"] == nil, let bestTreeLimit {
            kept = bestTreeLimit
        } else {
            let perIteration = model?["gbtree_model_param"]?["num_parallel_tree"]?.numberText.flatMap { Int($0) } ?? 1
            let (product, overflow) = (bestIteration + 1).multipliedReportingOverflow(by: max(perIteration, 1))
            kept = overflow ? nil : product
        }
        guard let kept, (1...treeCount).contains(kept) else {
            throw .malformed("best_iteration \(bestIteration) does not fit the model's \(treeCount) trees")
        }
        return kept
    }

    /// XGBoost's `kRtEps`: since 3.2 the logistic objective bounds `base_score` to [kRtEps, 1 - kRtEps] before its
    /// logit (`ProbToMargin`), so that a model whose labels were all one class (base_score 0 or 1) has a finite margin.
    static let baseScoreBound: Float = 1e-6

    /// `probability` bounded as XGBoost 3.2 bounds it, in float32 (so `1 - 1e-6` is the float32 XGBoost computes).
    static func bounded(_ probability: Float) -> Float {
        min(max(probability, baseScoreBound), 1 - baseScoreBound)
    }

    /// XGBoost's own logit (`common::Logit`), in float32: `-logf(1/p - 1)`, which differs in the last bit from
    /// `logf(p / (1 - p))` for about two thirds of probabilities.
    static func logit(_ probability: Float) -> Float {
        -logf(1 / probability - 1)
    }

    /// Accepts every form XGBoost writes: `0.5`, `5E-1`, and the bracketed vector `[2.03E-2]` (one element), from
    /// 0 to 1 inclusive (XGBoost writes 0 or 1 when every training label was one class); any finite value where it
    /// is not a probability but a margin (`binary:logitraw`).
    /// Whitespace around the number, and around the brackets, is not part of it: XGBoost reads a bracketed value as
    /// JSON (`"[ 5E-1]"`, `" [5E-1]"` load) and a bare one skipping whitespace before it. It refuses whitespace after
    /// a bare number, and `.5` or `+5E-1`; those are read here all the same, being one value either way.
    static func parseBaseScore(_ text: String, isProbability: Bool = true) throws(ModelImportError) -> Float {
        var body = Self.trimmingWhitespace(Substring(text))
        if body.hasPrefix("[") && body.hasSuffix("]") {
            body = body.dropFirst().dropLast()
        }
        let parts = body.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 1 else {
            if parts.count > 1 { throw .multiClassNotSupported("base_score has \(parts.count) values") }
            throw .badBaseScore(text)
        }
        let number = String(Self.trimmingWhitespace(parts[0]))
        // Decimal only, by the CSV reader's rule: `Float` also reads hexadecimal (`0x1p-1`), which XGBoost's own
        // reader takes as 0. The value itself is read straight into float32, as XGBoost reads it.
        guard case .number = CSVNumberField.read(number), let value = Float(number), value.isFinite,
            !isProbability || (value >= 0 && value <= 1)
        else { throw isProbability ? .badBaseScore(text) : .badBaseMargin(text) }
        return value
    }

    private static func trimmingWhitespace(_ text: Substring) -> Substring {
        let start = text.firstIndex { !$0.isWhitespace } ?? text.endIndex
        let end = text.lastIndex { !$0.isWhitespace }.map { text.index(after: $0) } ?? start
        return text[start..<max(start, end)]
    }

    /// XGBoost's binary format before JSON (`save_model("model.bin")` up to 2.0, `.deprecated` up to 2.1) opens
    /// with `binf`, or `bs64` when R wrote it base64-encoded.
    static func looksLikeLegacyBinary(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: Array("binf".utf8)) || bytes.starts(with: Array("bs64".utf8))
    }

    static func looksLikeUBJSON(_ bytes: [UInt8]) -> Bool {
        // A UBJSON object opens with '{' and then a key length's type marker (i, U, I, l, L) or a container
        // optimisation ($, #); JSON has '"' or '}' there. Anything else is left to the JSON parser to name.
        guard let first = bytes.first, first == UInt8(ascii: "{"), bytes.count > 1 else { return false }
        return Array("iUIlL$#".utf8).contains(bytes[1])
    }

    static func tree(from json: JSONValue, index: Int) throws(ModelImportError) -> ModelTree {
        if let splitTypes = json["split_type"]?.arrayValue {
            guard splitTypes.allSatisfy({ $0.numberTokenText != nil }) else {
                throw .malformed("tree \(index): 'split_type' holds a non-integer")
            }
            if splitTypes.contains(where: { $0.numberTokenText != "0" }) { throw .categoricalSplitsNotSupported(tree: index) }
        }
        if let categories = json["categories"]?.arrayValue, !categories.isEmpty {
            throw .categoricalSplitsNotSupported(tree: index)
        }
        if let size = json["tree_param"]?["size_leaf_vector"]?.numberText, let count = Int(size), count > 1 {
            throw .vectorLeavesNotSupported(tree: index)
        }
        func ints(_ key: String, allowingBooleans: Bool = false) throws(ModelImportError) -> [Int] {
            guard let items = json[key]?.arrayValue else { throw .malformed("tree \(index): no '\(key)'") }
            var result: [Int] = []
            result.reserveCapacity(items.count)
            for item in items {
                if allowingBooleans, case .bool(let flag) = item {
                    result.append(flag ? 1 : 0)
                    continue
                }
                guard let text = item.numberTokenText, let value = Int(text) else {
                    throw .malformed("tree \(index): '\(key)' holds a non-integer")
                }
                result.append(value)
            }
            return result
        }
        func floats(_ key: String) throws(ModelImportError) -> [Float] {
            guard let items = json[key]?.arrayValue else { throw .malformed("tree \(index): no '\(key)'") }
            var result: [Float] = []
            result.reserveCapacity(items.count)
            for item in items {
                guard let text = item.numberTokenText, let value = Float(text) else {
                    throw .malformed("tree \(index): '\(key)' holds a non-number")
                }
                result.append(value)
            }
            return result
        }
        let left = try ints("left_children")
        let right = try ints("right_children")
        let features = try ints("split_indices")
        let conditions = try floats("split_conditions")
        // XGBoost before 1.6 wrote `default_left` as JSON booleans, later ones as 0 and 1.
        let defaults = try ints("default_left", allowingBooleans: true)
        let hessians = json["sum_hessian"] == nil ? nil : try floats("sum_hessian")
        let count = left.count
        // XGBoost reads any value but 1 as "right"; a 2 here is a damaged file, not a direction.
        guard defaults.allSatisfy({ $0 == 0 || $0 == 1 }) else {
            throw .malformed("tree \(index): 'default_left' holds a value other than 0 or 1")
        }
        if let declared = json["tree_param"]?["num_nodes"]?.numberText, Int(declared) != count {
            throw .malformed("tree \(index): tree_param.num_nodes is \(declared) but the node arrays hold \(count) nodes")
        }
        guard right.count == count, features.count == count, conditions.count == count, defaults.count == count,
            hessians.map({ $0.count == count }) ?? true
        else { throw .malformed("tree \(index): node arrays have different lengths") }
        var thresholds = [Double](repeating: 0, count: count)
        var leafValues = [Double](repeating: 0, count: count)
        var splitFeatures = [Int](repeating: 0, count: count)
        for node in 0..<count {
            if left[node] == -1 {
                leafValues[node] = Double(conditions[node])
            } else {
                thresholds[node] = Double(conditions[node])
                splitFeatures[node] = features[node]
            }
        }
        let tree = ModelTree(
            leftChildren: left, rightChildren: right, splitFeatures: splitFeatures, thresholds: thresholds,
            defaultLeft: defaults.map { $0 != 0 }, missingTypes: nil, leafValues: leafValues,
            covers: hessians?.map { Double($0) })
        let deleted = json["tree_param"]?["num_deleted"]?.numberText.flatMap { Int($0) } ?? 0
        guard deleted > 0, let (pruned, removed) = tree.removingUnreachableNodes() else { return tree }
        // Every node the prune updater deleted is unreachable; any other unreachable node means a damaged file.
        guard removed == deleted else {
            throw .malformed("tree \(index): num_deleted is \(deleted) but \(removed) nodes are unreachable from the root")
        }
        return pruned
    }
}

private extension Substring {
    func trimmingCharacters(in character: Character) -> Substring {
        var result = self
        while result.first == character { result = result.dropFirst() }
        while result.last == character { result = result.dropLast() }
        return result
    }
}
