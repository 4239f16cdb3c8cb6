import Testing
@testable import InsightCore
@testable import InsightService

/// More than eight insight requests: the list is refused, and every item is still checked so that the answer names
/// all problems at once, as for every other member (the ninth item's unknown field went unnamed; evaluation probe,
/// 6 December).
@Suite struct RequestedInsightsCountTests {
    private static func body(insights: [String]) -> [UInt8] {
        Array(#"{"operationCategory": "payment", "requestedInsights": [\#(insights.joined(separator: ","))], "subject": {"accountRef": "a", "deviceRef": "d", "counterpartyRef": "c"}, "features": {}}"#.utf8)
    }

    private static let valid = #"{"insightType": "isLikelyBeingCoached", "schema": "version1"}"#

    @Test func itemsPastTheEighthAreCheckedAndNamed() {
        let insights = Array(repeating: Self.valid, count: 8) + [#"{"insightType": "isLikelyBeingCoached", "schema": "version1", "email": "x"}"#, "3"]
        #expect(problemErrors { () throws(ServiceProblem) in
            _ = try EvaluationRequestDecoder.decode(Self.body(insights: insights))
        } == [
            "/requestedInsights: must hold 1 to 8 insight requests",
            "/requestedInsights/8/email: is not a field of this request",
            "/requestedInsights/9: expected an object, received a number",
        ])
    }

    /// More problems before the list than an answer names (32) must not push the count problem out of it.
    @Test func theCountProblemIsListedFirstWhateverComesBefore() throws {
        let unknown = (0..<40).map { #""bad\#($0)": 1"# }.joined(separator: ", ")
        let insights = Array(repeating: Self.valid, count: 9).joined(separator: ",")
        let body = Array(#"{"operationCategory": "payment", "subject": {"accountRef": "a", "deviceRef": "d", "counterpartyRef": "c", \#(unknown)}, "features": {}, "requestedInsights": [\#(insights)]}"#.utf8)
        let errors = problemErrors { () throws(ServiceProblem) in _ = try EvaluationRequestDecoder.decode(body) }
        #expect(errors.first == "/requestedInsights: must hold 1 to 8 insight requests", "\(errors.prefix(2))")
        #expect(errors.count == 32)
    }

    @Test func eightAreAccepted() throws {
        let request = try EvaluationRequestDecoder.decode(Self.body(insights: Array(repeating: Self.valid, count: 8)))
        #expect(request.insights.count == 8)
    }
}
