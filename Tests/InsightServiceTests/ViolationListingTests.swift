import Testing
@testable import InsightCore
@testable import InsightService

/// Answers to bad input stay small whatever the input holds: a problem lists at most 32 `errors` (its `detail` gives
/// the whole count), and a rejected label item's `reason` at most 10 fields (then how many more). Before, a body of
/// one-letter unknown fields got an answer five to ten times its size, and an Idempotency-Key kept a copy of it.
@Suite struct ViolationListingTests {
    private func violations(_ count: Int) -> [ContextViolation] {
        (0..<count).map { Wire.unknownField("/features/f\($0)") }
    }

    @Test func aProblemListsAtMostThirtyTwoErrorsAndCountsTheRest() {
        let problem = ServiceProblem.evaluation(.contextInvalid(violations(1_000))).problem
        #expect(problem.errors?.count == ServiceProblem.maximumListedErrors)
        #expect(problem.errors?.first?.pointer == "/features/f0")
        #expect(problem.errors?.last?.pointer == "/features/f31")
        #expect(problem.detail == "/features/f0 is not a field of this request (and 999 more; errors lists the first 32)")
        let invalid = ServiceProblem.invalidRequest(violations(40)).problem
        #expect(invalid.errors?.count == 32)
    }

    @Test func aProblemWithFewErrorsListsThemAll() {
        let problem = ServiceProblem.evaluation(.contextInvalid(violations(32))).problem
        #expect(problem.errors?.count == 32)
        #expect(problem.detail == "/features/f0 is not a field of this request (and 31 more)")
        #expect(ServiceProblem.evaluation(.contextInvalid(violations(1))).problem.detail == "/features/f0 is not a field of this request")
    }

    @Test func aLabelItemKeepsTenProblemsAndCountsTheRest() throws {
        let fields = (0..<5_000).map { "\"u\($0)\": 0" }.joined(separator: ", ")
        let body = #"{"items": [{"insightID": "0195f3c2-9b1e-7d4a-8c2f-3e5a6b7c8d9e", "label": "confirmedFraud", "#
            + #""fraudType": "techSupport", "occurredOn": "2026-01-02", "# + fields + #", "label": "again"}]}"#
        let drafts = try LabelBatchDecoder.decode(Array(body.utf8))
        #expect(drafts.count == 1)
        #expect(drafts[0].violations.count == LabelRejection.maximumListed)
        #expect(drafts[0].unlistedViolations == 4_991)
        guard case .failure(let rejection) = drafts[0].validated(today: 30_000) else {
            Issue.record("an item with unknown fields was accepted")
            return
        }
        #expect(rejection.reason.hasPrefix("/items/0/u0 is not a field of this request; /items/0/u1 is not a field"))
        #expect(rejection.reason.hasSuffix("/items/0/u9 is not a field of this request; and 4991 more not listed"))
        #expect(rejection.reason.utf8.count < 600)
    }

    /// An unknown field sent twice in an item is named once, as repeated, as at the top level (one violation a member).
    @Test func aRepeatedUnknownFieldOfALabelItemIsNamedAsRepeated() throws {
        let body = #"{"items": [{"insightID": "0195f3c2-9b1e-7d4a-8c2f-3e5a6b7c8d9e", "label": "confirmedFraud", "#
            + #""fraudType": "other", "occurredOn": "2026-01-02", "x": 1, "x": 2, "y": 3}]}"#
        let drafts = try LabelBatchDecoder.decode(Array(body.utf8))
        #expect(drafts[0].violations.map(\.code) == ["duplicateField", "unknownField"])
        #expect(drafts[0].violations.map(\.pointer) == ["/items/0/x", "/items/0/y"])
    }

    /// The value checks keep the decoder's bound: ten unknown fields fill the list, and the missing or unknown
    /// values found after them are counted, not listed.
    @Test func theValueChecksAddNoProblemBeyondTheTen() throws {
        let unknown = (0..<10).map { "\"a\($0)\": 1" }.joined(separator: ", ")
        let drafts = try LabelBatchDecoder.decode(Array((#"{"items": [{"# + unknown + #", "amountBand": "huge"}]}"#).utf8))
        guard case .failure(let rejection) = drafts[0].validated(today: 30_000) else {
            Issue.record("a bad item was accepted")
            return
        }
        #expect(rejection.violations.count == LabelRejection.maximumListed)
        #expect(rejection.unlisted == 5)
        #expect(rejection.reason.hasSuffix("/items/0/a9 is not a field of this request; and 5 more not listed"))
    }

    /// A field sent with the wrong type after the list is full is counted as such, not called missing.
    @Test func aFieldWhoseProblemWasCountedIsNotCalledMissing() throws {
        let unknown = (0..<10).map { "\"a\($0)\": 1" }.joined(separator: ", ")
        let body = #"{"items": [{"# + unknown + #", "insightID": "0195f3c2-9b1e-7d4a-8c2f-3e5a6b7c8d9e", "label": 5, "#
            + #""fraudType": "techSupport", "occurredOn": "2026-01-02"}]}"#
        let drafts = try LabelBatchDecoder.decode(Array(body.utf8))
        guard case .failure(let rejection) = drafts[0].validated(today: 30_000) else {
            Issue.record("a bad item was accepted")
            return
        }
        #expect(rejection.unlisted == 1)
        #expect(!rejection.reason.contains("required"))
    }

    @Test func aLabelItemWithFewProblemsListsThemAll() throws {
        let body = #"{"items": [{"insightID": "0195f3c2-9b1e-7d4a-8c2f-3e5a6b7c8d9e", "label": "maybe", "fraudType": "techSupport", "occurredOn": "2026-01-02", "email": "x"}]}"#
        let drafts = try LabelBatchDecoder.decode(Array(body.utf8))
        guard case .failure(let rejection) = drafts[0].validated(today: 30_000) else {
            Issue.record("a bad item was accepted")
            return
        }
        #expect(rejection.unlisted == 0)
        #expect(rejection.reason == "/items/0/email is not a field of this request; /items/0/label must be one of confirmedFraud, confirmedLegitimate")
    }
}
