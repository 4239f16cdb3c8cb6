/// Why a CSV text is not RFC 4180.
public enum CSVRecordError: Error, Sendable, Equatable {
    /// A quoted field is not closed, or a quote sits inside an unquoted field, or text follows a closing quote.
    case badQuote(line: Int)
}
