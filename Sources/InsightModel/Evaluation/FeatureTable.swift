/// A CSV of feature rows like the shared fixtures: a header of names, an optional `label` column (0/1), and a
/// missing value written as an empty field, `NA` (R) or `nan`. Read as RFC 4180 (`CSVRecords`), so quoted names and
/// values and Windows line endings read like plain ones. Values are parsed as float32 and widened (the fixtures are
/// float32 written `%.9g`), or as double when asked.
public struct FeatureTable: Sendable {
    public enum ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        case badField(line: Int, column: String)
        case wrongFieldCount(line: Int, expected: Int, found: Int)
        case missingColumns([String])
        /// A quoted field is not closed, or a quote sits inside an unquoted field, or text follows a closing quote.
        case badQuote(line: Int)

        public var description: String {
            switch self {
            case .empty: "the CSV has no header"
            case .badField(let line, let column): "line \(line): column '\(column)' is not a number"
            case .wrongFieldCount(let line, let expected, let found): "line \(line): \(found) fields, expected \(expected)"
            case .missingColumns(let names): "the CSV lacks the model's features: \(names.joined(separator: ", "))"
            case .badQuote(let line):
                "line \(line): a quoted field is not closed, or a quote is misplaced (RFC 4180: a field with quotes is quoted as a whole, and a quote inside it is doubled)"
            }
        }
    }

    public let columnNames: [String]
    /// Row-major, all columns except `label`.
    public let values: [Double]
    public let labels: [Int]?

    public var rowCount: Int { columnNames.isEmpty ? 0 : values.count / columnNames.count }

    public init(csv text: String, parseAsDouble: Bool = false) throws(ReadError) {
        var header: [String]?
        var labelIndex: Int?
        var values: [Double] = []
        var labels: [Int] = []
        try CSVRecords.forEach(in: text) { (line, fields) throws(ReadError) in
            guard let header else {
                header = fields
                labelIndex = fields.firstIndex(of: "label")
                return
            }
            guard fields.count == header.count else {
                throw .wrongFieldCount(line: line, expected: header.count, found: fields.count)
            }
            for (column, field) in fields.enumerated() {
                if column == labelIndex {
                    // `Int(exactly:)`: a label of `nan` or `1e300` is refused, not a trap.
                    guard let label = Int(field) ?? Double(field).flatMap({ Int(exactly: $0) }) else {
                        throw .badField(line: line, column: "label")
                    }
                    labels.append(label)
                } else if field.isEmpty || field == "NA" {
                    values.append(.nan)
                } else if parseAsDouble {
                    guard let value = Double(field) else { throw .badField(line: line, column: header[column]) }
                    values.append(value)
                } else {
                    guard let value = Float(field) else { throw .badField(line: line, column: header[column]) }
                    values.append(Double(value))
                }
            }
        }
        guard let header else { throw .empty }
        columnNames = header.enumerated().filter { $0.offset != labelIndex }.map(\.element)
        self.values = values
        self.labels = labelIndex == nil ? nil : labels
    }

    /// The rows with columns reordered to `featureNames`; other columns are ignored.
    public func matrix(for featureNames: [String]) throws(ReadError) -> FeatureMatrix {
        var positions: [Int] = []
        var missing: [String] = []
        for name in featureNames {
            if let position = columnNames.firstIndex(of: name) { positions.append(position) } else { missing.append(name) }
        }
        guard missing.isEmpty else { throw .missingColumns(missing) }
        let width = columnNames.count
        var result: [Double] = []
        result.reserveCapacity(rowCount * featureNames.count)
        for row in 0..<rowCount {
            for position in positions { result.append(values[row * width + position]) }
        }
        return FeatureMatrix(columnCount: featureNames.count, values: result)
    }
}
