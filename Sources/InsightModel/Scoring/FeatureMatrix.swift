/// Rows of feature values, row-major, in a model's feature order; NaN marks a missing value.
/// Holds feature values, so it prints only its shape.
public struct FeatureMatrix: Sendable, CustomStringConvertible {
    public let columnCount: Int
    public private(set) var values: [Double]

    public init(columnCount: Int, values: [Double] = []) {
        precondition(columnCount > 0 && values.count % columnCount == 0, "values must hold whole rows")
        self.columnCount = columnCount
        self.values = values
    }

    public var rowCount: Int { values.count / columnCount }

    public mutating func append(row: [Double]) {
        precondition(row.count == columnCount, "row width must match the matrix")
        values.append(contentsOf: row)
    }

    public func row(_ index: Int) -> ArraySlice<Double> {
        values[index * columnCount..<(index + 1) * columnCount]
    }

    public var description: String { "FeatureMatrix(\(rowCount) rows x \(columnCount) columns)" }
}
