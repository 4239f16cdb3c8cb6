/// The records of a CSV text as RFC 4180 defines them: fields separated by commas, records by CRLF or LF, and a
/// field in double quotes may hold commas, line breaks and doubled quotes (`""` for `"`). Tools differ in what they
/// quote (R's `write.csv` quotes every name, Excel quotes names with commas), so a feature table must read them
/// all the same. A leading UTF-8 byte order mark (Excel's "CSV UTF-8") is skipped.
///
/// A blank line is a record too, passed with no fields: in a one-column table it is a row whose only value is
/// missing (what pandas writes for NaN), so skipping it would silently drop the row. The line break that ends the
/// last record is not a record of its own.
///
/// `models score` reads whole tables with `forEach`; `train`, which reads its rows with a faster reader of its own,
/// reads its header with `record(in:from:line:)` so that both agree on names.
public enum CSVRecords {
    /// Where the text starts: after a UTF-8 byte order mark, if there is one.
    public static func contentStart(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    }

    /// Reads the record that starts at `index` (which must be before the end) and leaves `index` after the line
    /// break that ends it. `line` is the record's first line on entry and the next record's on return. A blank line
    /// is a record of no fields.
    public static func record(
        in bytes: UnsafeBufferPointer<UInt8>, from index: inout Int, line: inout Int
    ) throws(CSVRecordError) -> [String] {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), lineFeed = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
        let recordLine = line
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var inQuotes = false
        /// The first field (1-based) whose bytes are not UTF-8.
        var notUTF8: Int?

        func endField() {
            if let text = String(validating: field, as: UTF8.self) {
                fields.append(text)
            } else {
                notUTF8 = notUTF8 ?? fields.count + 1
                fields.append("")
            }
            field.removeAll(keepingCapacity: true)
            quoted = false
        }
        func endRecord() throws(CSVRecordError) -> [String] {
            let blank = fields.isEmpty && field.isEmpty && !quoted
            if !blank { endField() }
            if let notUTF8 { throw .notUTF8(line: recordLine, field: notUTF8) }
            return fields
        }

        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inQuotes {
                if byte == quote {
                    if index < bytes.count && bytes[index] == quote {
                        field.append(quote)
                        index += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    if byte == lineFeed { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case quote:
                guard field.isEmpty && !quoted else { throw .badQuote(line: line) }
                inQuotes = true
                quoted = true
            case comma:
                endField()
            case carriageReturn where index < bytes.count && bytes[index] == lineFeed:
                continue
            case carriageReturn:
                throw .bareCarriageReturn(line: line)
            case lineFeed:
                line += 1
                return try endRecord()
            default:
                guard !quoted else { throw .badQuote(line: line) }
                field.append(byte)
            }
        }
        guard !inQuotes else { throw .badQuote(line: recordLine) }
        return try endRecord()
    }

    /// Calls `body` with each record's fields (none for a blank line) and the line it starts on (1-based).
    /// Reads bytes, not a `String`: a file decoded to a `String` first would have its invalid UTF-8 replaced by
    /// U+FFFD before `notUTF8` could name it.
    static func forEach(
        in bytes: UnsafeBufferPointer<UInt8>, _ body: (_ line: Int, _ fields: [String]) throws(FeatureTable.ReadError) -> Void
    ) throws(FeatureTable.ReadError) {
        var index = contentStart(of: bytes)
        var line = 1
        // Only text after the last line break is a last record: the break itself ends the previous one.
        while index < bytes.count {
            let recordLine = line
            let fields: [String]
            do throws(CSVRecordError) {
                fields = try record(in: bytes, from: &index, line: &line)
            } catch {
                switch error {
                case .badQuote(let line): throw .badQuote(line: line)
                case .notUTF8(let line, let field): throw .notUTF8(line: line, field: field)
                case .bareCarriageReturn(let line): throw .carriageReturnLineEnding(line: line)
                }
            }
            try body(recordLine, fields)
        }
    }
}

