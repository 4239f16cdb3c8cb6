/// A CSV of feature rows like the shared fixtures: a header of names, an optional `label` column (0/1),
/// empty field = missing. Values are parsed as float32 and widened (the fixtures are float32 written `%.9g`),
/// or as double when asked.
public struct FeatureTable: Sendable {
    public enum ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        case badField(line: Int, column: String)
        case wrongFieldCount(line: Int, expected: Int, found: Int)
        case missingColumns([String])

        public var description: String {
            switch self {
            case .empty: "the CSV has no header"
            case .badField(let line, let column): "line \(line): column '\(column)' is not a number"
            case .wrongFieldCount(let line, let expected, let found): "line \(line): \(found) fields, expected \(expected)"
            case .missingColumns(let names): "the CSV lacks the model's features: \(names.joined(separator: ", "))"
            }
        }
    }

    public let columnNames: [String]
    /// Row-major, all columns except `label`.
    public let values: [Double]
    public let labels: [Int]?

    public var rowCount: Int { columnNames.isEmpty ? 0 : values.count / columnNames.count }

    public init(csv text: String, parseAsDouble: Bool = false) throws(ReadError) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).makeIterator()
        guard let headerLine = lines.next() else { throw .empty }
        let header = headerLine.split(separator: ",", omittingEmptySubsequences: false).map {
            String($0.hasSuffix("\r") ? $0.dropLast() : $0)
        }
        let labelIndex = header.firstIndex(of: "label")
        columnNames = header.enumerated().filter { $0.offset != labelIndex }.map(\.element)
        var values: [Double] = []
        var labels: [Int] = []
        var lineNumber = 1
        for line in IteratorSequence(lines) {
            lineNumber += 1
            let body = line.hasSuffix("\r") ? line.dropLast() : line
            var column = 0
            for field in body.split(separator: ",", omittingEmptySubsequences: false) {
                defer { column += 1 }
                guard column < header.count else { break }
                if column == labelIndex {
                    guard let label = Int(field) ?? Double(field).map({ Int($0) }) else {
                        throw .badField(line: lineNumber, column: "label")
                    }
                    labels.append(label)
                } else if field.isEmpty {
                    values.append(.nan)
                } else if parseAsDouble {
                    guard let value = Double(field) else { throw .badField(line: lineNumber, column: header[column]) }
                    values.append(value)
                } else {
                    guard let value = Float(field) else { throw .badField(line: lineNumber, column: header[column]) }
                    values.append(Double(value))
                }
            }
            guard column == header.count else {
                throw .wrongFieldCount(line: lineNumber, expected: header.count, found: column)
            }
        }
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
