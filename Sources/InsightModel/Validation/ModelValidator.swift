/// Checks a document before it is compiled: structure of every tree, ranges, and exactness preconditions.
/// A document that passes can be compiled and scored without further checks.
public enum ModelValidator {
    /// Deepest supported tree (root at depth 0, so a tree of depth 32 has paths of 32 splits).
    public static let maximumDepth = 32
    /// Most nodes per tree.
    public static let maximumNodesPerTree = 1 << 20
    /// Largest `sumDivisor`: every whole number up to it is exactly a float32, so float32 models divide exactly by it.
    public static let maximumSumDivisor = 1 << 24

    public static func validate(_ document: ModelDocument, file: String? = nil) throws(ModelValidationError) {
        func fail(_ problem: ModelValidationError.Problem) -> ModelValidationError {
            ModelValidationError(file: file, problem)
        }
        guard document.format == ModelDocument.formatName, document.formatVersion == ModelDocument.currentFormatVersion
        else { throw fail(.unsupportedFormat(document.format, version: document.formatVersion)) }
        guard !document.featureNames.isEmpty else { throw fail(.noFeatures) }
        var seen = Set<String>()
        for (index, name) in document.featureNames.enumerated() {
            guard !name.isEmpty else { throw fail(.emptyFeatureName) }
            guard !FeatureNameText.holdsControlCharacter(name) else { throw fail(.controlCharacterInFeatureName(feature: index)) }
            let (inserted, existing) = seen.insert(name)
            guard inserted else {
                if existing.unicodeScalars.elementsEqual(name.unicodeScalars) { throw fail(.duplicateFeatureName(name)) }
                throw fail(.equivalentFeatureNames(existing, name))
            }
        }
        guard !document.trees.isEmpty else { throw fail(.noTrees) }
        guard RFC3339UTC.isValid(document.metadata.createdAt) else { throw fail(.badCreatedAt(document.metadata.createdAt)) }
        let float32 = document.semantics.precision == .float32
        guard document.baseMargin.isFinite, !float32 || isFloat32(document.baseMargin) else { throw fail(.badBaseMargin) }
        if let divisor = document.sumDivisor, !(1...maximumSumDivisor).contains(divisor) {
            throw fail(.badSumDivisor(divisor, limit: maximumSumDivisor))
        }
        if let scale = document.sigmoidScale, !(scale.isFinite && scale > 0) { throw fail(.badSigmoidScale(scale)) }
        let thresholds = document.thresholds
        guard thresholds.medium > 0, thresholds.medium <= thresholds.high, thresholds.high < 1 else {
            throw fail(.badThresholds(medium: thresholds.medium, high: thresholds.high))
        }
        for (index, tree) in document.trees.enumerated() {
            do throws(ModelValidationError.Problem) {
                try validate(tree, index: index, featureCount: document.featureNames.count, semantics: document.semantics)
            } catch {
                throw fail(error)
            }
        }
    }

    static func validate(
        _ tree: ModelTree, index: Int, featureCount: Int, semantics: SplitSemantics
    ) throws(ModelValidationError.Problem) {
        let count = tree.leftChildren.count
        guard count > 0 else { throw .emptyTree(tree: index) }
        guard count <= maximumNodesPerTree else {
            throw .tooManyNodes(tree: index, count: count, limit: maximumNodesPerTree)
        }
        guard tree.rightChildren.count == count, tree.splitFeatures.count == count, tree.thresholds.count == count,
            tree.defaultLeft.count == count, tree.leafValues.count == count,
            tree.missingTypes.map({ $0.count == count }) ?? true, tree.covers.map({ $0.count == count }) ?? true
        else { throw .arrayLengthMismatch(tree: index) }
        let float32 = semantics.precision == .float32
        // Depth-first from the root: each node must be reached exactly once.
        var depth = [Int](repeating: -1, count: count)
        var stack = [0]
        depth[0] = 0
        while let node = stack.popLast() {
            if let covers = tree.covers, !(covers[node].isFinite && covers[node] >= 0) {
                throw .badCover(tree: index, node: node)
            }
            let left = tree.leftChildren[node]
            let right = tree.rightChildren[node]
            if left == -1 && right == -1 {
                let value = tree.leafValues[node]
                guard value.isFinite else { throw .badLeafValue(tree: index, node: node) }
                // A value the scorer ignores is still refused: a document that carries one was not written by an
                // importer or the trainer, and may not mean what it seems to.
                guard tree.thresholds[node] == 0 else { throw .thresholdAtLeaf(tree: index, node: node) }
                guard !float32 || isFloat32(value) else { throw .notFloat32(tree: index, node: node) }
                continue
            }
            guard left != -1, right != -1 else { throw .halfLeaf(tree: index, node: node) }
            guard left >= 0, left < count, right >= 0, right < count else {
                throw .childOutOfRange(tree: index, node: node)
            }
            let feature = tree.splitFeatures[node]
            guard feature >= 0, feature < featureCount else {
                throw .featureOutOfRange(tree: index, node: node, feature: feature)
            }
            guard tree.leafValues[node] == 0 else { throw .leafValueAtSplit(tree: index, node: node) }
            let threshold = tree.thresholds[node]
            // An infinite threshold is a real split: XGBoost writes ±inf where a feature's values reach float32's
            // limit, and LightGBM +inf for its last bin. Only missing values can then go the other way.
            guard !threshold.isNaN else { throw .badThreshold(tree: index, node: node) }
            guard !float32 || isFloat32(threshold) else { throw .notFloat32(tree: index, node: node) }
            for child in [left, right] {
                guard depth[child] == -1, child != 0 else { throw .cycle(tree: index, node: child) }
                depth[child] = depth[node] + 1
                guard depth[child] <= maximumDepth else {
                    throw .tooDeep(tree: index, depth: depth[child], limit: maximumDepth)
                }
                stack.append(child)
            }
        }
        if let unreachable = depth.firstIndex(of: -1) { throw .unreachableNode(tree: index, node: unreachable) }
    }

    static func isFloat32(_ value: Double) -> Bool {
        Double(Float(value)) == value || value.isNaN
    }
}
