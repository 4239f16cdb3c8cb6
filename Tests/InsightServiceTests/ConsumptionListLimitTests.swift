import Testing
@testable import InsightCore
@testable import InsightService

/// A consumption report naming more insightIDs than an evaluation can hold gets the one count problem, wherever its
/// bad items sit. Before, the first eight items were checked and the rest were not, so a wrong item at index 1
/// was named and the same item at index 9 was not.
@Suite struct ConsumptionListLimitTests {
    private func errors(_ items: String) -> [String] {
        problemErrors { () throws(ServiceProblem) in
            _ = try ConsumptionRequestDecoder.decode(Array(#"{"status": "usedEvaluationOnly", "insightIDsUsed": [\#(items)]}"#.utf8))
        }
    }

    @Test func tooManyItemsIsOneCountProblemWhereverTheBadItemsSit() {
        let long = "\"" + String(repeating: "a", count: 65) + "\""
        let expected = ["/insightIDsUsed: must hold at most \(Evaluator.maximumInsights) insightIDs"]
        #expect(errors(Array(repeating: long, count: 9).joined(separator: ", ")) == expected)
        #expect(errors((["\"x\"", "5"] + Array(repeating: "\"y\"", count: 8)).joined(separator: ", ")) == expected)
        #expect(errors((Array(repeating: "\"y\"", count: 9) + ["5"]).joined(separator: ", ")) == expected)
    }

    @Test func eightItemsAreEachChecked() {
        let items = (["5"] + Array(repeating: "\"y\"", count: 7)).joined(separator: ", ")
        #expect(errors(items) == ["/insightIDsUsed/0: expected a string, received a number"])
    }
}

/// The public API's `reportConsumption(_:)` takes only the status: a client mirroring it sent no list and got 400
/// (names probe, 6 December). Left out or `null`, the list is empty; the status is still required.
@Suite struct ConsumptionOptionalListTests {
    @Test func aReportWithoutInsightIDsNamesNone() throws {
        #expect(try ConsumptionRequestDecoder.decode(Array(#"{"status": "usedIncreasedFriction"}"#.utf8)).insightIDsUsed == [])
        #expect(try ConsumptionRequestDecoder.decode(Array(#"{"status": "usedIncreasedFriction", "insightIDsUsed": null}"#.utf8)).insightIDsUsed == [])
        #expect(problemErrors { () throws(ServiceProblem) in
            _ = try ConsumptionRequestDecoder.decode(Array(#"{"insightIDsUsed": []}"#.utf8))
        } == ["/status: is required"])
    }
}
