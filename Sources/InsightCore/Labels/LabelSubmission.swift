/// The answer to a batch: freshly processed, or the stored answer to an earlier request with the same key and body.
public enum LabelSubmission: Sendable, Equatable {
    case processed(results: [LabelItemResult], response: [UInt8])
    case replayed(response: [UInt8])

    public var response: [UInt8] {
        switch self {
        case .processed(_, let response), .replayed(let response): response
        }
    }
}
