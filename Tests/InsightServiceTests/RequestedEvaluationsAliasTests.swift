import Testing
@testable import InsightCore
@testable import InsightService

/// `requestedEvaluations`, the public Swift API's name (`InsightContext(operationCategory:requestedEvaluations:)`), in
/// place of the wire's `requestedInsights`: a client written from the reference sent it and got 400 on every
/// evaluation (names probe, 6 December).
@Suite struct RequestedEvaluationsAliasTests {
    private static func body(_ members: String) -> [UInt8] {
        Array(#"{"operationCategory": "payment", \#(members), "subject": {"accountRef": "a", "deviceRef": "d", "counterpartyRef": "c"}, "features": {}}"#.utf8)
    }

    private static let insight = #"[{"insightType": "isLikelyBeingCoached", "schema": "version1"}]"#

    @Test func eitherNameIsTheListOfInsights() throws {
        for name in ["requestedInsights", "requestedEvaluations"] {
            let request = try EvaluationRequestDecoder.decode(Self.body(#""\#(name)": \#(Self.insight)"#))
            #expect(request.insights.count == 1, "\(name)")
            #expect(request.insights.first?.insightType == "isLikelyBeingCoached")
        }
    }

    @Test func errorsInsideAreNamedUnderTheMemberSent() {
        #expect(problemErrors { () throws(ServiceProblem) in
            _ = try EvaluationRequestDecoder.decode(Self.body(#""requestedEvaluations": [{"insightType": "isLikelyBeingCoached"}]"#))
        } == ["/requestedEvaluations/0/schema: is required"])
        #expect(problemErrors { () throws(ServiceProblem) in
            _ = try EvaluationRequestDecoder.decode(Self.body(#""requestedEvaluations": []"#))
        } == ["/requestedEvaluations: must hold 1 to 8 insight requests"])
    }

    @Test func bothNamesOrNeitherAreRefused() {
        #expect(problemErrors { () throws(ServiceProblem) in
            _ = try EvaluationRequestDecoder.decode(Self.body(#""requestedInsights": \#(Self.insight), "requestedEvaluations": \#(Self.insight)"#))
        } == ["/requestedEvaluations: send requestedInsights or requestedEvaluations, not both"])
        #expect(problemErrors { () throws(ServiceProblem) in
            _ = try EvaluationRequestDecoder.decode(Self.body(#""requestedEvaluations": \#(Self.insight), "requestedInsights": \#(Self.insight)"#))
        } == ["/requestedInsights: send requestedInsights or requestedEvaluations, not both"])
        #expect(problemErrors { () throws(ServiceProblem) in
            _ = try EvaluationRequestDecoder.decode(Self.body(#""requestedThings": \#(Self.insight)"#))
        } == ["/requestedThings: is not a field of this request", "/requestedInsights: is required"])
    }
}

/// `modelVersion` as Swift's synthesized Codable writes the public API's enum (`current`,
/// `specific(versionNumber:)`), besides the documented `"current"` and `{"specific": "<version>"}` (names probe,
/// 6 December: `{"specific": {"versionNumber": ...}}` got 400).
@Suite struct ModelVersionFormTests {
    private static func decode(_ modelVersion: String) throws(ServiceProblem) -> EvaluationRequest {
        try EvaluationRequestDecoder.decode(Array(#"""
            {"operationCategory": "payment", "requestedInsights": [{"insightType": "isLikelyBeingCoached", "schema": "version1",
             "modelVersion": \#(modelVersion)}], "subject": {"accountRef": "a", "deviceRef": "d", "counterpartyRef": "c"}, "features": {}}
            """#.utf8))
    }

    @Test func takesTheCodableFormsOfTheEnum() throws {
        #expect(try Self.decode(#"{"specific": {"versionNumber": "2026.09.1"}}"#).insights[0].modelVersion == .specific("2026.09.1"))
        #expect(try Self.decode(#"{"current": {}}"#).insights[0].modelVersion == .current)
        #expect(try Self.decode(#"{"specific": "2026.09.1"}"#).insights[0].modelVersion == .specific("2026.09.1"))
        #expect(try Self.decode(#""current""#).insights[0].modelVersion == .current)
    }

    @Test func refusesTheFormsWithTheirPaths() {
        func errors(_ modelVersion: String) -> [String] {
            problemErrors { () throws(ServiceProblem) in _ = try Self.decode(modelVersion) }
        }
        #expect(errors(#"{"specific": {}}"#) == ["/requestedInsights/0/modelVersion/specific/versionNumber: is required"])
        #expect(errors(#"{"specific": {"versionNumber": 5}}"#) == ["/requestedInsights/0/modelVersion/specific/versionNumber: expected a string, received a number"])
        #expect(errors(#"{"current": {"x": 1}}"#) == ["/requestedInsights/0/modelVersion/current/x: is not a field of this request"])
        #expect(errors(#"{"current": {}, "specific": "2026.09.1"}"#) == ["/requestedInsights/0/modelVersion/specific: send one of current or specific, not both"])
        #expect(errors(#"{}"#) == ["/requestedInsights/0/modelVersion/specific: is required"])
        #expect(errors(#"{"specific": 1}"#).count == 1)
    }
}
