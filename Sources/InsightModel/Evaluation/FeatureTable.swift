/// A CSV of feature rows like the shared fixtures: a header of names, an optional `label` column (0/1), and a
/// missing value written as an empty field, `NA` (R) or `nan`. Read as RFC 4180 (`CSVRecords`), so quoted names and
/// values and Windows line endings read like plain ones; each value is read by `CSVNumberField`, the rule `train`
/// reads its data with (decimals only, spaces around a value ignored).
///
/// Values are parsed the way the source libraries receive them: as a double (a caller's CSV or JSON parser makes
/// doubles), then, for float32 models, rounded to float32 as XGBoost rounds its input. Rounding the text straight to
/// float32 would differ for a decimal just past a float32 midpoint, whose double lands on the midpoint itself.
///
/// Infinities follow the source library. LightGBM (float64 models) takes them: `inf` and a decimal beyond a
/// double's range (`1e400`, which any CSV or JSON parser reads as an infinity) are scored as ±inf, as LightGBM
/// predicts them. XGBoost refuses infinite input, and `train` refuses it, so for float32 models such a value, or one
/// beyond float32's range (`1e39`), is refused rather than scored as the infinity it would become.
///
/// Columns the caller does not ask for (an ID column, say) may hold anything: a field that is not a number, or one
/// refused as above, is only an error once `matrix(for:)` asks for its column. The
/// label column must always hold 0 or 1, as `train` requires: another coding (1/2, -1/1) read as negatives would put
/// wrong metrics into a model's metadata. The header may not name a column twice (`CSVHeaderNames`).
public struct FeatureTable: Sendable {
    /// The column read as labels, not as a feature.
    public static let labelColumn = "label"

    public let columnNames: [String]
    /// Row-major, all columns except `label`; NaN where a value is missing or cannot be scored.
    public let values: [Double]
    public let labels: [Int]?
    /// The first field of each column (by index in `columnNames`) that cannot be scored, and why.
    private let firstUnscorableField: [Int: (line: Int, error: ReadError)]

    public var rowCount: Int { columnNames.isEmpty ? 0 : values.count / columnNames.count }

    /// `parseAsDouble`: keep each value's double (float64 models); otherwise round it on to float32 (float32 models).
    public init(csv text: String, parseAsDouble: Bool = false) throws(ReadError) {
        try self.init(csv: Array(text.utf8), parseAsDouble: parseAsDouble)
    }

    /// The table of a file's bytes, read as they are: a field that is not UTF-8 is refused (`notUTF8`), where
    /// decoding the file to a `String` first would have turned it into U+FFFD.
    public init(csv bytes: [UInt8], parseAsDouble: Bool = false) throws(ReadError) {
        var header: [String]?
        var labelIndex: Int?
        var values: [Double] = []
        var labels: [Int] = []
        var firstUnscorableField: [Int: (line: Int, error: ReadError)] = [:]
        var failure: ReadError?
        bytes.withUnsafeBufferPointer { buffer in
            do throws(ReadError) {
                try CSVRecords.forEach(in: buffer) { (line, fields) throws(ReadError) in
                    guard let header else {
                        guard !fields.isEmpty else { throw .empty }
                        if let repetition = CSVHeaderNames.firstRepetition(in: fields) {
                            throw .repeatedColumnName(name: repetition.name, columns: repetition.columns)
                        }
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
                            labels.append(try Self.label(field, reading, line: line))
                            continue
                        }
                        let name = header[column]
                        let unscorable: ReadError
                        switch reading {
                        case .missing:
                            values.append(.nan)
                            continue
                        case .number(let value):
                            let rounded = parseAsDouble ? value : Double(Float(value))
                            if rounded.isFinite || parseAsDouble {
                                values.append(rounded)
                                continue
                            }
                            // A decimal is finite as written: it became infinite by overflowing float32.
                            unscorable = .outsideFloat32Range(line: line, column: name)
                        case .infinity(let negative):
                            if parseAsDouble {
                                values.append(negative ? -.infinity : .infinity)
                                continue
                            }
                            unscorable = .infiniteValue(line: line, column: name)
                        case .invalid:
                            // The same words as `train` for the likeliest reason a field is no number.
                            unscorable = field.utf8.contains { $0 == 0x09 || $0 == 0x0B || $0 == 0x0C }
                                ? .disallowedWhitespace(line: line, column: name) : .badField(line: line, column: name)
                        }
                        let valueColumn = labelIndex.map { column > $0 ? column - 1 : column } ?? column
                        if firstUnscorableField[valueColumn] == nil { firstUnscorableField[valueColumn] = (line, unscorable) }
                        values.append(.nan)
                    }
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        guard let header else { throw .empty }
        columnNames = header.enumerated().filter { $0.offset != labelIndex }.map(\.element)
        self.values = values
        self.labels = labelIndex == nil ? nil : labels
        self.firstUnscorableField = firstUnscorableField
    }

    /// A label field as a class, by the rule `train` reads labels with (`CSVLabelField`). Text that is no number
    /// (`yes`, `0x1`) is a bad field; any number written otherwise (`0.5`, `2`, `1e0`, `-0`), an infinity or a missing
    /// label is a wrong label, as `train` says of it.
    private static func label(_ field: String, _ reading: CSVNumberField.Reading, line: Int) throws(ReadError) -> Int {
        if case .invalid = reading { throw .badField(line: line, column: labelColumn) }
        guard let label = CSVLabelField.binaryLabel(field) else { throw .badLabel(line: line) }
        return Int(label)
    }

    /// The rows with columns reordered to `featureNames`; other columns are ignored, whatever UTF-8 text they hold.
    public func matrix(for featureNames: [String]) throws(ReadError) -> FeatureMatrix {
        var positions: [Int] = []
        var missing: [String] = []
        for name in featureNames {
            if let position = columnNames.firstIndex(of: name) { positions.append(position) } else { missing.append(name) }
        }
        guard missing.isEmpty else { throw .missingColumns(missing) }
        if let first = positions.compactMap({ firstUnscorableField[$0] }).min(by: { $0.line < $1.line }) {
            throw first.error
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
