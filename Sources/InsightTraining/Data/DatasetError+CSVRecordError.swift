import InsightModel

extension DatasetError {
    /// A record the RFC 4180 reader could not read, in the file it came from.
    init(_ error: CSVRecordError, path: String) {
        switch error {
        case .badQuote(let line): self = .badQuote(path: path, line: line)
        case .notUTF8(let line, let field): self = .notUTF8(path: path, line: line, column: field)
        case .bareCarriageReturn(let line): self = .carriageReturnLineEnding(path: path, line: line)
        }
    }
}
