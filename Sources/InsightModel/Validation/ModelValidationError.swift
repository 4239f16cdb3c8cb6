/// Why a model document cannot be scored. Messages name the file (when known) and the tree, never feature values.
public struct ModelValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Problem: Error, Sendable, Equatable {
        case unsupportedFormat(String, version: Int)
        case noFeatures
        case duplicateFeatureName(String)
        /// Two names of different bytes that Swift (and so every lookup by name) takes for one: canonically
        /// equivalent Unicode, such as a precomposed and a decomposed accent. The source library may keep them apart.
        case equivalentFeatureNames(String, String)
        case emptyFeatureName
        /// A C0 or C1 control character, or U+2028/U+2029, in the name of the feature at this index: `train` refuses
        /// such a header, and a name holding a line break split every message that quoted it into forged lines.
        case controlCharacterInFeatureName(feature: Int)
        case noTrees
        case badBaseMargin
        case badThresholds(medium: Double, high: Double)
        case badSumDivisor(Int, limit: Int)
        case badSigmoidScale(Double)
        case arrayLengthMismatch(tree: Int)
        case emptyTree(tree: Int)
        case childOutOfRange(tree: Int, node: Int)
        case halfLeaf(tree: Int, node: Int)
        case cycle(tree: Int, node: Int)
        case unreachableNode(tree: Int, node: Int)
        case featureOutOfRange(tree: Int, node: Int, feature: Int)
        case badThreshold(tree: Int, node: Int)
        case badLeafValue(tree: Int, node: Int)
        case notFloat32(tree: Int, node: Int)
        case badCover(tree: Int, node: Int)
        case leafValueAtSplit(tree: Int, node: Int)
        case thresholdAtLeaf(tree: Int, node: Int)
        case badCreatedAt(String)
        case tooDeep(tree: Int, depth: Int, limit: Int)
        case tooManyNodes(tree: Int, count: Int, limit: Int)
    }

    public var file: String?
    public var problem: Problem

    public init(file: String? = nil, _ problem: Problem) {
        self.file = file
        self.problem = problem
    }

    public var description: String {
        let prefix = file.map { "\($0): " } ?? ""
        return prefix + problemText
    }

    private var problemText: String {
        switch problem {
        case .unsupportedFormat(let name, let version):
            return "unsupported model format '\(name)' version \(version) (expected '\(ModelDocument.formatName)' version \(ModelDocument.currentFormatVersion))"
        case .noFeatures: return "the model declares no features"
        case .duplicateFeatureName(let name): return "feature name '\(name)' appears more than once"
        case .equivalentFeatureNames(let first, let second):
            let scalars = { (name: String) in name.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ") }
            return "feature names '\(first)' (\(scalars(first))) and '\(second)' (\(scalars(second))) are one name here: they are canonically equivalent Unicode, which requests and the catalogue cannot tell apart; rename one (models import --features)"
        case .emptyFeatureName: return "a feature name is empty"
        case .controlCharacterInFeatureName(let feature):
            return "the name of feature \(feature) holds a line break, another control character or a direction control: a name is one line of text (rename it with models import --features)"
        case .noTrees: return "the model has no trees"
        case .badBaseMargin: return "baseMargin must be finite (and a float32 value in a float32 model)"
        case .badThresholds(let medium, let high):
            return "thresholds must satisfy 0 < medium <= high < 1 (medium \(medium), high \(high))"
        case .badSumDivisor(let divisor, let limit):
            return "sumDivisor must be a whole number from 1 to \(limit) (it is \(divisor))"
        case .badSigmoidScale(let scale): return "sigmoidScale must be a finite number greater than zero (it is \(scale))"
        case .arrayLengthMismatch(let tree): return "tree \(tree): node arrays have different lengths"
        case .emptyTree(let tree): return "tree \(tree): no nodes"
        case .childOutOfRange(let tree, let node): return "tree \(tree): node \(node) has a dangling child index"
        case .halfLeaf(let tree, let node): return "tree \(tree): node \(node) has exactly one child"
        case .cycle(let tree, let node): return "tree \(tree): node \(node) is reached twice (cycle or shared child)"
        case .unreachableNode(let tree, let node): return "tree \(tree): node \(node) is unreachable from the root"
        case .featureOutOfRange(let tree, let node, let feature):
            return "tree \(tree): node \(node) splits on feature index \(feature), out of range"
        case .badThreshold(let tree, let node):
            return "tree \(tree): node \(node) has a threshold that is NaN (a split needs a number, or ±inf)"
        case .badLeafValue(let tree, let node): return "tree \(tree): node \(node) has a non-finite leaf value"
        case .notFloat32(let tree, let node):
            return "tree \(tree): node \(node) holds a value that is not exactly a float32 in a float32 model"
        case .badCover(let tree, let node): return "tree \(tree): node \(node) has a negative or non-finite cover"
        case .leafValueAtSplit(let tree, let node):
            return "tree \(tree): node \(node) is a split but has a non-zero leaf value (leafValues are 0 at splits)"
        case .thresholdAtLeaf(let tree, let node):
            return "tree \(tree): node \(node) is a leaf but has a non-zero threshold (thresholds are 0 at leaves)"
        case .badCreatedAt(let text):
            return "metadata.createdAt '\(text)' is not an RFC 3339 UTC time such as 2026-09-14T10:00:00Z"
        case .tooDeep(let tree, let depth, let limit):
            return "tree \(tree): deeper than the limit of \(limit) (a path of \(depth) or more splits from the root): retrain with a depth limit of at most \(limit) (XGBoost max_depth <= \(limit), also with grow_policy=lossguide; LightGBM max_depth <= \(limit), which leaf-wise growth does not set by default)"
        case .tooManyNodes(let tree, let count, let limit): return "tree \(tree): \(count) nodes is beyond the limit of \(limit)"
        }
    }
}
