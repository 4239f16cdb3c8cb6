extension FeatureTable {
    /// Why a feature CSV cannot be scored. Messages name the line and the column, never a value; the command that
    /// read the file puts its path in front.
    public enum ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        /// The header names one column twice (`CSVHeaderNames`, the rule `train` refuses its headers by). Columns
        /// count from 1, as in the header.
        case repeatedColumnName(name: String, columns: [Int])
        case badField(line: Int, column: String)
        /// A tab, vertical tab or form feed in a field, as `train` names it: only spaces may surround a value.
        case disallowedWhitespace(line: Int, column: String)
        /// `inf` or `infinity` for a float32 (XGBoost) model: XGBoost refuses infinite input, and `train` refuses it,
        /// so no such model was fitted to one. (LightGBM takes infinities, and float64 models score them.)
        case infiniteValue(line: Int, column: String)
        /// A decimal beyond float32's range (`1e39`) for a float32 model: it would be scored as an infinity, which
        /// the caller never wrote.
        case outsideFloat32Range(line: Int, column: String)
        case badLabel(line: Int)
        case wrongFieldCount(line: Int, expected: Int, found: Int)
        /// A blank line in a table of several columns: not a row (which would need every field), and not to be
        /// dropped silently.
        case blankLine(line: Int, expected: Int)
        case missingColumns([String])
        /// A quoted field is not closed, or a quote sits inside an unquoted field, or text follows a closing quote.
        case badQuote(line: Int)
        case notUTF8(line: Int, field: Int)
        /// Lines that end in a carriage return alone (classic Mac OS), refused as `train` refuses them.
        case carriageReturnLineEnding(line: Int)

        public var description: String {
            switch self {
            case .empty: "the CSV has no header"
            case .repeatedColumnName(let name, let columns):
                "the header names the column \(FeatureNameText.quoted(name)) more than once (columns \(columns.map(String.init).joined(separator: ", ")))"
            case .badField(let line, let column): "line \(line): column \(FeatureNameText.quoted(column)) is not a number"
            case .disallowedWhitespace(let line, let column):
                "line \(line): column \(FeatureNameText.quoted(column)) holds a tab or other whitespace: only spaces may surround a value"
            case .infiniteValue(let line, let column): "line \(line): column \(FeatureNameText.quoted(column)) is infinite"
            case .outsideFloat32Range(let line, let column):
                "line \(line): column \(FeatureNameText.quoted(column)) is outside float32's range (magnitude at most 3.4028235e38)"
            case .badLabel(let line): "line \(line): label must be 0 or 1 (written 0, 1, 0.0 or 1.0)"
            case .wrongFieldCount(let line, let expected, let found): "line \(line): \(found) fields, expected \(expected)"
            case .blankLine(let line, let expected):
                "line \(line) is blank: a row needs \(expected) fields (write a missing value as an empty field or NA between the commas)"
            case .missingColumns(let names): "the CSV lacks the model's features: \(names.joined(separator: ", "))"
            case .badQuote(let line):
                "line \(line): a quoted field is not closed, or a quote is misplaced (RFC 4180: a field with quotes is quoted as a whole, and a quote inside it is doubled)"
            case .notUTF8(let line, let field): "line \(line): field \(field) is not UTF-8 (save the CSV as UTF-8)"
            case .carriageReturnLineEnding(let line):
                "line \(line): a carriage return without a line feed: CR-only line endings (classic Mac OS) are not supported; save the file with LF or CRLF line endings"
            }
        }
    }
}
