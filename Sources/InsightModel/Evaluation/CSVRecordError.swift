/// Why a CSV text is not RFC 4180.
public enum CSVRecordError: Error, Sendable, Equatable {
    /// A quoted field is not closed, or a quote sits inside an unquoted field, or text follows a closing quote.
    case badQuote(line: Int)
    /// A field's bytes are not UTF-8 (a Latin-1 export, say): read anyway, `é` would become U+FFFD and two
    /// different names one.
    case notUTF8(line: Int, field: Int)
    /// A carriage return outside quotes and not before a line feed: the lines end in CR alone (classic Mac OS), which
    /// read as RFC 4180 would make the whole file one record.
    case bareCarriageReturn(line: Int)
}
