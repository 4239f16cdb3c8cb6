/// The records of a CSV text as RFC 4180 defines them: fields separated by commas, records by CRLF or LF, and a
/// field in double quotes may hold commas, line breaks and doubled quotes (`""` for `"`). Tools differ in what they
/// quote (R's `write.csv` quotes every name, Excel quotes names with commas), so a feature table must read them
/// all the same. A leading UTF-8 byte order mark (Excel's "CSV UTF-8") is skipped.
///
/// A blank line is a record too, passed with no fields: in a one-column table it is a row whose only value is
/// missing (what pandas writes for NaN), so skipping it would silently drop the row. The line break that ends the
/// last record is not a record of its own.
enum CSVRecords {
    /// Calls `body` with each record's fields (none for a blank line) and the line it starts on (1-based).
    static func forEach(
        in text: String, _ body: (_ line: Int, _ fields: [String]) throws(FeatureTable.ReadError) -> Void
    ) throws(FeatureTable.ReadError) {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), lineFeed = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
        let bytes = Array(text.utf8)
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var fields: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var inQuotes = false
        var line = 1
        var recordLine = 1

        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            quoted = false
        }
        func endRecord() throws(FeatureTable.ReadError) {
            let blank = fields.isEmpty && field.isEmpty && !quoted
            if !blank { endField() }
            try body(recordLine, fields)
            fields.removeAll(keepingCapacity: true)
            field.removeAll(keepingCapacity: true)
            quoted = false
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
            case lineFeed:
                try endRecord()
                line += 1
                recordLine = line
            default:
                guard !quoted else { throw .badQuote(line: line) }
                field.append(byte)
            }
        }
        guard !inQuotes else { throw .badQuote(line: recordLine) }
        // Only text after the last line break is a last record: the break itself ends the previous one.
        if !fields.isEmpty || !field.isEmpty || quoted { try endRecord() }
    }
}
