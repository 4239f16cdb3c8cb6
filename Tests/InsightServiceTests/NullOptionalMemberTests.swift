import Testing
@testable import InsightCore
@testable import InsightService

/// An optional member sent as `null` is the member left out, as many clients' encoders write an absent optional.
/// `modelVersion` was the exception (`null` was refused as the wrong type) although API.md calls it optional.
@Suite struct NullOptionalMemberTests {
    @Test func aNullModelVersionIsTheCurrentModel() throws {
        let body = #"{"requestID": null, "operationCategory": "payment", "requestedInsights": [{"insightType": "isLikelyBeingCoached", "schema": "version1", "modelVersion": null}, {"insightType": "isLikelyBeingCoached", "schema": "version1"}], "subject": {"accountRef": "a"}, "features": {}}"#
        let request = try EvaluationRequestDecoder.decode(Array(body.utf8))
        #expect(request.requestID == nil)
        #expect(request.insights.map(\.modelVersion) == [.current, .current])
    }

    /// A required member is not made optional by `null`, and a `null` inside `{"specific": ...}` is no version.
    @Test func nullIsStillRefusedWhereAValueIsRequired() {
        let body = #"{"operationCategory": "payment", "requestedInsights": [{"insightType": "isLikelyBeingCoached", "schema": null, "modelVersion": {"specific": null}}], "subject": {"accountRef": "a"}, "features": {}}"#
        let errors = problemErrors { () throws(ServiceProblem) in _ = try EvaluationRequestDecoder.decode(Array(body.utf8)) }
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.contains { $0.hasPrefix("/requestedInsights/0/schema:") }, "\(errors)")
        #expect(errors.contains { $0.hasPrefix("/requestedInsights/0/modelVersion/specific:") }, "\(errors)")
    }
}
