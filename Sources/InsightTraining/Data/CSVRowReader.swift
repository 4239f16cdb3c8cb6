import InsightModel

/// Reads the data rows of a training CSV in place, the way `CSVRecords` and `FeatureTable` read them, without
/// making a `String` per field: an unquoted field is parsed where it lies by `CSVNumberField.scan`, which stops at
/// the first byte that cannot continue a number; only a quoted field is copied (its doubled quotes undone) first.
///
/// A field ends at a comma, a line feed or CRLF, nothing else: whitespace other than the spaces `CSVNumberField`
/// allows never joins a line to the next. The text must end in a line feed, so every scan stops before its end.
struct CSVRowReader {
    private let buffer: UnsafeBufferPointer<UInt8>
    private let featureNames: [String]
    private let path: String
    private var position: UnsafePointer<UInt8>
    private var line: Int
    /// The unescaped text of the current quoted field.
    private var quotedText: [UInt8] = []

    private static let comma = UInt8(ascii: ","), lineFeed = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
    private static let quote = UInt8(ascii: "\"")

    init(buffer: UnsafeBufferPointer<UInt8>, from index: Int, line: Int, featureNames: [String], path: String) {
        precondition(buffer.last == Self.lineFeed, "the text must end in a line feed")
        self.buffer = buffer
        self.featureNames = featureNames
        self.path = path
        self.position = buffer.baseAddress! + index
        self.line = line
    }

    private var end: UnsafePointer<UInt8> { buffer.baseAddress! + buffer.count }

    /// Every row's float32 values (row-major, NaN for missing) and label.
    mutating func readRows() throws(DatasetError) -> (values: [Float], labels: [UInt8]) {
        let width = featureNames.count
        var values: [Float] = []
        var labels: [UInt8] = []
        values.reserveCapacity((end - position) / (width * 4 + 1) * width)
        var row = [Float](repeating: .nan, count: width)
        while position < end {
            let rowStart = position
            let rowLine = line
            if isLineEnd(position) {
                throw .blankLine(path: path, line: rowLine, expected: width + 1)
            }
            var label: UInt8 = 0
            var field = 0
            while true {
                let fieldStart = position
                if field == 0 {
                    guard let value = try readLabel() else {
                        throw fieldError(.invalidLabel(path: path, line: rowLine), rowStart, rowLine, fieldStart)
                    }
                    label = value
                } else if field <= width {
                    let column = featureNames[field - 1]
                    switch try readValue() {
                    case .missing:
                        row[field - 1] = .nan
                    case .number(let number):
                        let value = Float(number)
                        guard value.isFinite else {
                            throw fieldError(
                                .outsideFloat32Range(path: path, line: rowLine, column: column), rowStart, rowLine, fieldStart)
                        }
                        row[field - 1] = value
                    case .infinity:
                        throw fieldError(
                            .nonFiniteValue(path: path, line: rowLine, column: column), rowStart, rowLine, fieldStart)
                    case .invalid:
                        throw fieldError(
                            .invalidNumber(path: path, line: rowLine, column: column), rowStart, rowLine, fieldStart)
                    }
                } else {
                    let found = DatasetError.wrongFieldCount(path: path, line: rowLine, expected: width + 1, found: field + 1)
                    throw fieldError(found, rowStart, rowLine, fieldStart)
                }
                field += 1
                if position.pointee == Self.comma {
                    position += 1
                    continue
                }
                if position.pointee == Self.carriageReturn { position += 1 }
                position += 1
                line += 1
                break
            }
            guard field == width + 1 else {
                throw .wrongFieldCount(path: path, line: rowLine, expected: width + 1, found: field)
            }
            labels.append(label)
            values.append(contentsOf: row)
        }
        return (values, labels)
    }

    /// Reads a label field and leaves `position` on its terminator; nil if it is not 0 or 1 as a decimal.
    private mutating func readLabel() throws(DatasetError) -> UInt8? {
        if position.pointee == Self.quote {
            guard try readQuotedField() != .invalid else { return nil }
            return quotedText.withUnsafeBufferPointer { CSVLabelField.binaryLabel($0) }
        }
        let start = position
        let (reading, stop) = CSVNumberField.scan(from: position, to: end)
        guard reading != .invalid, isFieldEnd(stop) else { return nil }
        position = stop
        return CSVLabelField.binaryLabel(UnsafeBufferPointer(start: start, count: stop - start))
    }

    /// Reads a value field; `.invalid` if it is not a number or does not end where a field ends. On success
    /// `position` is on the field's terminator.
    private mutating func readValue() throws(DatasetError) -> CSVNumberField.Reading {
        if position.pointee == Self.quote { return try readQuotedField() }
        let (reading, stop) = CSVNumberField.scan(from: position, to: end)
        guard isFieldEnd(stop) else { return .invalid }
        position = stop
        return reading
    }

    /// Reads a quoted field into `quotedText` and leaves `position` on the terminator after its closing quote.
    private mutating func readQuotedField() throws(DatasetError) -> CSVNumberField.Reading {
        let recordLine = line
        var cursor = position + 1
        quotedText.removeAll(keepingCapacity: true)
        while true {
            guard cursor < end else { throw .badQuote(path: path, line: recordLine) }
            let byte = cursor.pointee
            cursor += 1
            if byte == Self.quote {
                guard cursor < end, cursor.pointee == Self.quote else { break }
                cursor += 1
            } else if byte == Self.lineFeed {
                line += 1
            }
            quotedText.append(byte)
        }
        // Text after the closing quote (`"1"2`) is not RFC 4180.
        guard isFieldEnd(cursor) else { throw .badQuote(path: path, line: line) }
        position = cursor
        return quotedText.withUnsafeBufferPointer { CSVNumberField.read($0) }
    }

    private func isLineEnd(_ at: UnsafePointer<UInt8>) -> Bool {
        at.pointee == Self.lineFeed || (at.pointee == Self.carriageReturn && at[1] == Self.lineFeed)
    }

    private func isFieldEnd(_ at: UnsafePointer<UInt8>) -> Bool {
        at.pointee == Self.comma || isLineEnd(at)
    }

    /// The error to report for a field that cannot be read: a stray carriage return if the row holds one, a wrong
    /// field count if the row has one (a field that is really the next column's is no bad number), else what is
    /// wrong with the field itself.
    private func fieldError(
        _ error: DatasetError, _ rowStart: UnsafePointer<UInt8>, _ rowLine: Int, _ fieldStart: UnsafePointer<UInt8>
    ) -> DatasetError {
        // Only a carriage return outside quotes ends a line; one inside a quoted field is text (RFC 4180), which the
        // field's own error then names (`"x\ry"` is not a number). Before, a quoted one read as CR-only line endings.
        var cursor = rowStart
        let end = buffer.baseAddress! + buffer.count
        var inQuotes = false
        while cursor < end && (inQuotes || cursor.pointee != Self.lineFeed) {
            if cursor.pointee == Self.quote {
                inQuotes.toggle()
            } else if !inQuotes && cursor.pointee == Self.carriageReturn && (cursor + 1 == end || cursor[1] != Self.lineFeed) {
                return .carriageReturnLineEnding(path: path, line: rowLine)
            }
            cursor += 1
        }
        var index = rowStart - buffer.baseAddress!
        var recordLine = rowLine
        let fields: [String]
        do throws(CSVRecordError) {
            fields = try CSVRecords.record(in: buffer, from: &index, line: &recordLine)
        } catch {
            return DatasetError(error, path: path)
        }
        if fields.count != featureNames.count + 1 {
            return .wrongFieldCount(path: path, line: rowLine, expected: featureNames.count + 1, found: fields.count)
        }
        let column: String
        switch error {
        case .invalidNumber(_, _, let name): column = name
        case .invalidLabel: column = FeatureTable.labelColumn
        default: return error
        }
        // The field's own bytes: a tab there is the likeliest reason it is no number.
        cursor = fieldStart
        while cursor.pointee != Self.comma && cursor.pointee != Self.lineFeed {
            if cursor.pointee == UInt8(ascii: "\t") || cursor.pointee == 0x0B || cursor.pointee == 0x0C {
                return .disallowedWhitespace(path: path, line: rowLine, column: column)
            }
            cursor += 1
        }
        return error
    }
}
