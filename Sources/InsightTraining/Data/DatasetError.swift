/// Why a data set could not be read or used. Messages name files, lines and columns, never feature values.
public enum DatasetError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotRead(path: String, errno: Int32)
    case empty(path: String)
    case missingLabelColumn(path: String)
    case noFeatures
    case duplicateFeatureName
    case shapeMismatch
    case wrongFieldCount(path: String, line: Int, expected: Int, found: Int)
    case invalidNumber(path: String, line: Int, column: String)
    case nonFiniteValue(path: String, line: Int, column: String)
    case invalidLabel(path: String, line: Int)
    case noRows(path: String)
    case featuresDiffer

    public var description: String {
        switch self {
        case .cannotRead(let path, let errno): "cannot read \(path) (errno \(errno))"
        case .empty(let path): "\(path) is empty"
        case .missingLabelColumn(let path): "\(path): the first column of the header must be 'label'"
        case .noFeatures: "the data set has no feature columns"
        case .duplicateFeatureName: "the header names a feature twice"
        case .shapeMismatch: "values, labels and feature names do not agree in shape, or a value is infinite"
        case .wrongFieldCount(let path, let line, let expected, let found):
            "\(path):\(line): expected \(expected) fields, found \(found)"
        case .invalidNumber(let path, let line, let column): "\(path):\(line): column '\(column)' is not a number"
        case .nonFiniteValue(let path, let line, let column): "\(path):\(line): column '\(column)' is infinite"
        case .invalidLabel(let path, let line): "\(path):\(line): label must be 0 or 1"
        case .noRows(let path): "\(path) has a header but no rows"
        case .featuresDiffer: "the validation data's feature columns differ from the training data's"
        }
    }
}
