/// A CSV of feature rows like the shared fixtures: a header of names, an optional `label` column (0/1), and a
/// missing value written as an empty field, `NA` (R) or `nan`. Read as RFC 4180 (`CSVRecords`), so quoted names and
/// values and Windows line endings read like plain ones; each value is read by `CSVNumberField`, the rule `train`
/// reads its data with (decimals only, spaces around a value ignored).
///
/// Values are parsed the way the source libraries receive them: as a double (a caller's CSV or JSON parser makes
/// doubles), then, for float32 models, rounded to float32 as XGBoost rounds its input. Rounding the text straight to
/// float32 would differ for a decimal just past a float32 midpoint, whose double lands on the midpoint itself.
///
/// Columns the caller does not ask for (an ID column, say) may hold anything: a field that is not a number is only
/// an error once `matrix(for:)` asks for its column. The label column must always hold 0 or 1, as `train` requires:
/// another coding (1/2, -1/1) read as negatives would put wrong metrics into a model's metadata.
public struct FeatureTable: Sendable {
    public enum ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        case badField(line: Int, column: String)
        case badLabel(line: Int)
        case wrongFieldCount(line: Int, expected: Int, found: Int)
        /// A blank line in a table of several columns: not a row (which would need every field), and not to be
        /// dropped silently.
        case blankLine(line: Int, expected: Int)
        case missingColumns([String])
        /// A quoted field is not closed, or a quote sits inside an unquoted field, or text follows a closing quote.
        case badQuote(line: Int)
        case notUTF8(line: Int, field: Int)

        public var description: String {
            switch self {
            case .empty: "the CSV has no header"
            case .badField(let line, let column): "line \(line): column '\(column)' is not a number"
            case .badLabel(let line): "line \(line): label must be 0 or 1 (written 0, 1, 0.0 or 1.0)"
            case .wrongFieldCount(let line, let expected, let found): "line \(line): \(found) fields, expected \(expected)"
            case .blankLine(let line, let expected):
                "line \(line) is blank: a row needs \(expected) fields (write a missing value as an empty field or NA between the commas)"
            case .missingColumns(let names): "the CSV lacks the model's features: \(names.joined(separator: ", "))"
            case .badQuote(let line):
                "line \(line): a quoted field is not closed, or a quote is misplaced (RFC 4180: a field with quotes is quoted as a whole, and a quote inside it is doubled)"
            case .notUTF8(let line, let field): "line \(line): field \(field) is not UTF-8 (save the CSV as UTF-8)"
            }
        }
    }

    /// The column read as labels, not as a feature.
    public static let labelColumn = "label"

    public let columnNames: [String]
    /// Row-major, all columns except `label`; NaN where a value is missing or is not a number.
    public let values: [Double]
    public let labels: [Int]?
    /// The first line of each column (by index in `columnNames`) whose field is not a number.
    private let firstUnreadableLine: [Int: Int]

    public var rowCount: Int { columnNames.isEmpty ? 0 : values.count / columnNames.count }

    /// `parseAsDouble`: keep each value's double (float64 models); otherwise round it on to float32 (float32 models).
    public init(csv text: String, parseAsDouble: Bool = false) throws(ReadError) {
        var header: [String]?
        var labelIndex: Int?
        var values: [Double] = []
        var labels: [Int] = []
        var firstUnreadableLine: [Int: Int] = [:]
        try CSVRecords.forEach(in: text) { (line, fields) throws(ReadError) in
            guard let header else {
                guard !fields.isEmpty else { throw .empty }
                header = fields
                labelIndex = fields.firstIndex(of: Self.labelColumn)
                return
            }
            // A blank line holds one empty field: a row of one missing value, if the table has one column.
            let fields = fields.isEmpty && header.count == 1 ? [""] : fields
            guard !fields.isEmpty else { throw .blankLine(line: line, expected: header.count) }
            guard fields.count == header.count else {
                throw .wrongFieldCount(line: line, expected: header.count, found: fields.count)
            }
            for (column, field) in fields.enumerated() {
                let reading = CSVNumberField.read(field)
                if column == labelIndex {
                    // `Int(exactly:)`: a label of `nan` or `1e300` is refused, not a trap.
                    guard case .number(let number) = reading, let label = Int(exactly: number) else {
                        throw .badField(line: line, column: Self.labelColumn)
                    }
                    guard label == 0 || label == 1 else { throw .badLabel(line: line) }
                    labels.append(label)
                    continue
                }
                switch reading {
                case .missing:
                    values.append(.nan)
                case .number(let value):
                    values.append(parseAsDouble ? value : Double(Float(value)))
                case .infinity(let negative):
                    values.append(negative ? -.infinity : .infinity)
                case .invalid:
                    let valueColumn = labelIndex.map { column > $0 ? column - 1 : column } ?? column
                    if firstUnreadableLine[valueColumn] == nil { firstUnreadableLine[valueColumn] = line }
                    values.append(.nan)
                }
            }
        }
        guard let header else { throw .empty }
        columnNames = header.enumerated().filter { $0.offset != labelIndex }.map(\.element)
        self.values = values
        self.labels = labelIndex == nil ? nil : labels
        self.firstUnreadableLine = firstUnreadableLine
    }

    /// The rows with columns reordered to `featureNames`; other columns are ignored, whatever they hold.
    public func matrix(for featureNames: [String]) throws(ReadError) -> FeatureMatrix {
        var positions: [Int] = []
        var missing: [String] = []
        for name in featureNames {
            if let position = columnNames.firstIndex(of: name) { positions.append(position) } else { missing.append(name) }
        }
        guard missing.isEmpty else { throw .missingColumns(missing) }
        if let (position, line) = positions.compactMap({ position in firstUnreadableLine[position].map { (position, $0) } })
            .min(by: { $0.1 < $1.1 })
        {
            throw .badField(line: line, column: columnNames[position])
        }
        let width = columnNames.count
        var result: [Double] = []
        result.reserveCapacity(rowCount * featureNames.count)
        for row in 0..<rowCount {
            for position in positions { result.append(values[row * width + position]) }
        }
        return FeatureMatrix(columnCount: featureNames.count, values: result)
    }
}
