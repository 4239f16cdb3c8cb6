import Testing
@testable import InsightCore
@testable import InsightService

/// A field that takes one of a few values says so for any other string. Before, an empty or over-long value was
/// told "must be 1 to 32 characters long", a limit no document names, as if any 32 characters might do.
@Suite struct EnumerationFieldTests {
    @Test(arguments: ["", "x", String(repeating: "p", count: 33), String(repeating: "p", count: 1000)])
    func anyOtherStringIsNotOneOfTheValues(value: String) {
        let categories = "must be one of \(OperationCategory.allCases.map(\.rawValue).joined(separator: ", "))"
        let evaluation = #"{"operationCategory": "\#(value)", "requestedInsights": [{"insightType": "isLikelyBeingCoached", "schema": "version1"}], "subject": {"accountRef": "a"}, "features": {}}"#
        #expect(problemErrors { () throws(ServiceProblem) in _ = try EvaluationRequestDecoder.decode(Array(evaluation.utf8)) }
            == ["/operationCategory: \(categories)"])
        let statuses = "must be one of \(AuthorizationStatus.allCases.map(\.rawValue).joined(separator: ", "))"
        #expect(problemErrors { () throws(ServiceProblem) in _ = try AuthorizationRequestDecoder.decode(Array(#"{"status": "\#(value)"}"#.utf8)) }
            == ["/status: \(statuses)"])
        let consumption = "must be one of \(ConsumptionStatus.allCases.map(\.rawValue).joined(separator: ", "))"
        #expect(problemErrors { () throws(ServiceProblem) in
            _ = try ConsumptionRequestDecoder.decode(Array(#"{"status": "\#(value)", "insightIDsUsed": []}"#.utf8))
        } == ["/status: \(consumption)"])
    }

    @Test func aValueOfAnotherKindIsTheWrongType() {
        #expect(problemErrors { () throws(ServiceProblem) in _ = try AuthorizationRequestDecoder.decode(Array(#"{"status": 1}"#.utf8)) }
            == ["/status: expected a string, received a number"])
    }
}
