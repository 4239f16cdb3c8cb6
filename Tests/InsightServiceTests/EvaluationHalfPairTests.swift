import Testing
@testable import InsightCore
@testable import InsightService

/// Half a UTF-16 surrogate pair in a member's name inside the body names the object that holds the member, at any
/// depth, and is named beside the violations found before it in the same object. Before, it named only the body's
/// top-level member (`/requestedInsights`), and was left out when that member already held another violation
/// (found by a black-box probe, 5 December).
@Suite struct EvaluationHalfPairTests {
    private static let halfPair = halfPairDetail

    private func errors(_ body: String) -> [String] {
        problemErrors { () throws(ServiceProblem) in _ = try EvaluationRequestDecoder.decode(Array(body.utf8)) }
    }

    private func body(insights: String = #"[{"insightType": "isLikelyBeingCoached", "schema": "version1"}]"#,
                      subject: String = #"{"accountRef": "a"}"#) -> String {
        #"{"operationCategory": "payment", "requestedInsights": \#(insights), "subject": \#(subject), "features": {}}"#
    }

    @Test func aNameInAnInsightNamesThatInsight() {
        #expect(errors(body(insights: #"[{"insightType": "isLikelyBeingCoached", "schema": "version1", "\udc00x": 1}]"#))
            == ["/requestedInsights/0: \(Self.halfPair)"])
        #expect(errors(body(insights: #"[{"insightType": "isLikelyBeingCoached", "schema": "version1"}, {"\ud800": 1}]"#))
            == ["/requestedInsights/1: \(Self.halfPair)"])
    }

    @Test func aNameInAModelVersionNamesTheModelVersion() {
        let insights = #"[{"insightType": "isLikelyBeingCoached", "schema": "version1", "modelVersion": {"specific": "1", "\ud800": 1}}]"#
        #expect(errors(body(insights: insights)) == ["/requestedInsights/0/modelVersion: \(Self.halfPair)"])
    }

    @Test func aNameInTheSubjectOrTheFeaturesNamesThatObject() {
        #expect(errors(body(subject: #"{"accountRef": "a", "\ud800": 1}"#)) == ["/subject: \(Self.halfPair)"])
        let features = #"{"operationCategory": "payment", "requestedInsights": [{"insightType": "isLikelyBeingCoached", "schema": "version1"}], "subject": {"accountRef": "a"}, "features": {"activeCall": 1, "\ud800": 1}}"#
        #expect(errors(features) == ["/features: \(Self.halfPair)"])
    }

    @Test func anEarlierViolationInTheSameObjectDoesNotHideIt() {
        #expect(errors(body(subject: #"{"zz": "x", "\ud800": 1}"#))
            == ["/subject/zz: is not a field of this request", "/subject: \(Self.halfPair)"])
        #expect(errors(body(subject: #"{"accountRef": "a", "accountRef": "x", "\ud800": 1}"#))
            == ["/subject/accountRef: appears more than once", "/subject: \(Self.halfPair)"])
        #expect(errors(body(insights: #"[{"schema": "version1", "schema": "version1", "\ud800": 1}]"#))
            == ["/requestedInsights/0/schema: appears more than once", "/requestedInsights/0: \(Self.halfPair)"])
    }

    /// The member that stops the reading keeps its one violation when it was already found wrong.
    @Test func aMemberAlreadyFoundWrongKeepsItsOneViolation() {
        #expect(errors(body(subject: #"{"zz": {"\ud800": 1}}"#)) == ["/subject/zz: is not a field of this request"])
        #expect(errors(body(insights: #"[{"insightType": "isLikelyBeingCoached", "schema": {"\ud800": 1}}]"#))
            == ["/requestedInsights/0/schema: expected a string, received an object"])
        #expect(errors(body(subject: #"{"accountRef": "a", "accountRef": {"\ud800": 1}}"#))
            == ["/subject/accountRef: appears more than once"])
    }
}
