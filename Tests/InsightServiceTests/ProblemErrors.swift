@testable import InsightService

/// "pointer: detail" of each entry of the problem's `errors` that `decode` throws, or ["accepted"] when it throws
/// nothing: what a client is told, in order.
func problemErrors(_ decode: () throws(ServiceProblem) -> Void) -> [String] {
    do {
        try decode()
        return ["accepted"]
    } catch {
        return (error.problem.errors ?? []).map { "\($0.pointer): \($0.detail)" }
    }
}

/// The detail every route gives a field holding half a UTF-16 surrogate pair (the half-pair suites pin it).
let halfPairDetail = "holds a \\u escape of half a UTF-16 surrogate pair, which JSON's grammar allows but is not Unicode text"
