/// One regression tree in a columnar layout: node `i` is described by element `i` of every array; node 0 is the
/// root. A node is a leaf iff `leftChildren[i] == -1` (then `rightChildren[i]` is -1 too).
public struct ModelTree: Codable, Sendable, Hashable {
    /// Index of the left child, or -1 at a leaf.
    public var leftChildren: [Int]
    /// Index of the right child, or -1 at a leaf.
    public var rightChildren: [Int]
    /// Index into `ModelDocument.featureNames`; ignored (conventionally 0) at a leaf.
    public var splitFeatures: [Int]
    /// Split threshold; ignored (0) at a leaf. Exactly a float32 value in float32 models.
    public var thresholds: [Double]
    /// Where a missing value goes (see `missingTypes`).
    public var defaultLeft: [Bool]
    /// Per node; absent means every node is `nan` (XGBoost).
    public var missingTypes: [MissingValueType]?
    /// The value added to the margin at a leaf; ignored (0) at a split. Exactly a float32 value in float32 models.
    public var leafValues: [Double]
    /// Optional weight reaching each node (sum of hessians, or row counts): weights the node means used for
    /// path contributions. Absent means leaves count equally.
    public var covers: [Double]?

    public init(
        leftChildren: [Int],
        rightChildren: [Int],
        splitFeatures: [Int],
        thresholds: [Double],
        defaultLeft: [Bool],
        missingTypes: [MissingValueType]? = nil,
        leafValues: [Double],
        covers: [Double]? = nil
    ) {
        self.leftChildren = leftChildren
        self.rightChildren = rightChildren
        self.splitFeatures = splitFeatures
        self.thresholds = thresholds
        self.defaultLeft = defaultLeft
        self.missingTypes = missingTypes
        self.leafValues = leafValues
        self.covers = covers
    }

    public var nodeCount: Int { leftChildren.count }

    public func isLeaf(_ node: Int) -> Bool { leftChildren[node] < 0 }
}
