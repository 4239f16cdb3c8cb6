import Testing
@testable import InsightCore
@testable import InsightService

/// Half a UTF-16 surrogate pair, or nesting too deep, stops the reading of a label batch, which is then refused whole. The answer names
/// what the evaluation and consumption routes would name: the field holding the half pair, the item whose member
/// name holds it, or, for a member already found repeated, unknown or of the wrong type, that one violation.
/// Before, the last three named only `/items`.
@Suite struct LabelBatchHalfPairTests {
    private static let halfPair = halfPairDetail

    private func errors(_ body: String) -> [String] {
        problemErrors { () throws(ServiceProblem) in _ = try LabelBatchDecoder.decode(Array(body.utf8)) }
    }

    @Test func aFieldHoldingHalfAPairIsNamed() {
        #expect(errors(#"{"items": [{"insightID": "x"}, {"insightID": "canary-\ud800"}]}"#) == ["/items/1/insightID: \(Self.halfPair)"])
    }

    @Test func aMemberNameHoldingHalfAPairNamesItsItem() {
        #expect(errors(#"{"items": [{"insightID": "x", "\ud800": 1}]}"#) == ["/items/0: \(Self.halfPair)"])
        #expect(errors(#"{"items": [{"insightID": "x"}, {"label": "confirmedFraud", "a\udc00b": "y"}]}"#) == ["/items/1: \(Self.halfPair)"])
    }

    @Test func aMemberAlreadyFoundWrongKeepsItsOneViolation() {
        #expect(errors(#"{"items": [{"insightID": "x", "fraudType": "other", "fraudType": "\udc00"}]}"#)
            == ["/items/0/fraudType: appears more than once"])
        #expect(errors(#"{"items": [{"insightID": "x", "note": "canary-\ud800"}]}"#) == ["/items/0/note: is not a field of this request"])
        #expect(errors(#"{"items": [{"label": ["canary-\ud800"]}]}"#) == ["/items/0/label: expected a string, received an array"])
        // Only the member being read: the item's earlier violations stay with the item, which the batch never reaches.
        #expect(errors(#"{"items": [{"x": 1, "insightID": "\ud800"}]}"#) == ["/items/0/insightID: \(Self.halfPair)"])
    }

    /// Nesting too deep stops the batch too, and is answered the same way: before, it named only `/items` (JSON
    /// probe, 6 December).
    @Test func nestingTooDeepNamesTheMemberAsHalfAPairDoes() {
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        #expect(errors(#"{"items": [{"insightID": \#(deep)}]}"#) == ["/items/0/insightID: expected a string, received an array"])
        #expect(errors(#"{"items": [{"insightID": "x"}, {"x": \#(deep)}]}"#) == ["/items/1/x: is not a field of this request"])
        #expect(errors(#"{"items": [{"fraudType": "other", "fraudType": \#(deep)}]}"#) == ["/items/0/fraudType: appears more than once"])
        // Deeper than the body allows before any item is read: the batch's member is named.
        #expect(errors(#"{"items": \#(deep)}"#).map { $0.prefix(7) } == ["/items:"])
    }
}
