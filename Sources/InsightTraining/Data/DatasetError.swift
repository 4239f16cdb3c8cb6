#if canImport(Glibc)
import Glibc
#endif
import InsightModel

/// Why a data set could not be read or used. Messages name files, lines and columns, never feature values.
/// Header positions are columns counted from 1, the label being column 1, as a spreadsheet or `cut -f` counts them.
public enum DatasetError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotRead(path: String, errno: Int32)
    /// A socket, which cannot be opened at all: named for what it is, as the service's loaders name it, rather than
    /// by the open's "No such device or address".
    case socket(path: String)
    /// Larger than `CSVDatasetLoader.maximumBytes`: read whole into memory, such a file (or a device that never
    /// ends, such as /dev/zero) would exhaust it and crash the process rather than say why.
    case tooLarge(path: String, limit: Int)
    case empty(path: String)
    case missingLabelColumn(path: String)
    case noFeatures(path: String)
    case emptyFeatureName(path: String, column: Int)
    /// `models score` reads a column named `label` as the label: a feature so named could never be scored.
    case reservedFeatureName(path: String, column: Int)
    case duplicateFeatureName(path: String, name: String, columns: [Int])
    case shapeMismatch
    case badQuote(path: String, line: Int)
    case notUTF8(path: String, line: Int, column: Int)
    /// A header name holding a line break or another control character: no request carries such a name, and it
    /// would break every one-line message that quotes it.
    case controlCharacterInFeatureName(path: String, column: Int)
    /// A carriage return no line feed follows: classic Mac OS line endings, or a stray one.
    case carriageReturnLineEnding(path: String, line: Int)
    case blankLine(path: String, line: Int, expected: Int)
    case wrongFieldCount(path: String, line: Int, expected: Int, found: Int)
    case invalidNumber(path: String, line: Int, column: String)
    /// A tab, vertical tab or form feed in a value: only spaces may surround one.
    case disallowedWhitespace(path: String, line: Int, column: String)
    case nonFiniteValue(path: String, line: Int, column: String)
    case outsideFloat32Range(path: String, line: Int, column: String)
    case invalidLabel(path: String, line: Int)
    case noRows(path: String)
    case featuresDiffer(path: String, missing: [String], extra: [String])


    /// The system's reason as the `models` commands say it: a folder named as one ("Is a directory" read as a fault
    /// of the file), a missing file as "no such file", the rest lower-cased to follow "cannot read <path>:".
    static func reason(_ code: Int32) -> String {
        if code == EISDIR { return "it is a folder, not a file" }
        if code == ENOENT { return "no such file" }
        return FileErrorText.reason(code: code)
    }

    /// Names as a message lists them: the first 20, then how many more.
    static func listed(_ names: [String]) -> String {
        let shown = names.prefix(20).map(FeatureNameText.quoted).joined(separator: ", ")
        return names.count > 20 ? shown + " and \(names.count - 20) more" : shown
    }

    public var description: String {
        switch self {
        case .cannotRead(let path, let errno): "cannot read \(path): \(Self.reason(errno))"
        case .socket(let path): "cannot read \(path): not a regular file (a socket)"
        case .tooLarge(let path, let limit):
            "cannot read \(path): larger than \(limit >> 30) GiB, the most a data file may hold: it is read whole into memory (sample or split the data)"
        case .empty(let path): "\(path) is empty"
        case .missingLabelColumn(let path): "\(path): the first column of the header must be 'label'"
        case .noFeatures(let path): "\(path): the header has no feature columns after 'label'"
        case .emptyFeatureName(let path, let column):
            "\(path): column \(column) of the header has no name (a trailing comma?)"
        case .reservedFeatureName(let path, let column):
            "\(path): column \(column) of the header is named 'label': a feature may not be named 'label' (column 1 is the label)"
        case .duplicateFeatureName(let path, let name, let columns):
            "\(path): the header names the feature \(FeatureNameText.quoted(name)) more than once (columns \(columns.map(String.init).joined(separator: ", ")))"
        case .shapeMismatch: "values, labels and feature names do not agree in shape, or a value is infinite"
        case .notUTF8(let path, let line, let column):
            "\(path):\(line): column \(column) is not UTF-8 text (save the CSV as UTF-8; Excel calls it \"CSV UTF-8\")"
        case .controlCharacterInFeatureName(let path, let column):
            "\(path): column \(column) of the header holds a line break, another control character or a direction control in its name"
        case .badQuote(let path, let line):
            "\(path):\(line): a quoted field is not closed, or a quote is misplaced (RFC 4180: a field with quotes is quoted as a whole, and a quote inside it is doubled)"
        case .carriageReturnLineEnding(let path, let line):
            "\(path):\(line): a carriage return without a line feed: CR-only line endings (classic Mac OS) are not supported; save the file with LF or CRLF line endings"
        case .blankLine(let path, let line, let expected):
            "\(path):\(line): the line is blank: a row needs \(expected) fields (write a missing value as an empty field or NA between the commas)"
        case .wrongFieldCount(let path, let line, let expected, let found):
            "\(path):\(line): expected \(expected) fields, found \(found)"
        case .invalidNumber(let path, let line, let column): "\(path):\(line): column \(FeatureNameText.quoted(column)) is not a number"
        case .disallowedWhitespace(let path, let line, let column):
            "\(path):\(line): column \(FeatureNameText.quoted(column)) holds a tab or other whitespace: only spaces may surround a value"
        case .nonFiniteValue(let path, let line, let column): "\(path):\(line): column \(FeatureNameText.quoted(column)) is infinite"
        case .outsideFloat32Range(let path, let line, let column):
            "\(path):\(line): column \(FeatureNameText.quoted(column)) is outside float32's range (magnitude at most 3.4028235e38)"
        case .invalidLabel(let path, let line): "\(path):\(line): label must be 0 or 1 (written 0, 1, 0.0 or 1.0)"
        case .noRows(let path): "\(path) has a header but no rows"
        case .featuresDiffer(let path, let missing, let extra):
            // Quoted as the other messages quote a column: a name may hold spaces, or be the word "extra".
            "\(path): its feature columns differ from the training data's: "
                + [
                    missing.isEmpty ? nil : "missing " + Self.listed(missing),
                    extra.isEmpty ? nil : "extra " + Self.listed(extra),
                ].compactMap { $0 }.joined(separator: "; ")
        }
    }
}
