import Testing
@testable import InsightCore
@testable import InsightService

/// A member sent twice gets one violation, "appears more than once", whatever its first copy held: before, a first
/// copy found wrong kept its own violation beside the repeat, two answers at one pointer for one mistake.
@Suite struct DuplicateMemberTests {
    private static let insightID = "0195f3c2-9b1e-7d4a-8c2f-3e5a6b7c8d9e"
    private static let item = #"{"insightID": "\#(insightID)", "label": "confirmedFraud", "fraudType": "other", "occurredOn": "2026-01-02"}"#

    @Test func aTopLevelMemberWhoseFirstCopyIsWrongIsReportedOnceAsRepeated() {
        #expect(problemErrors { () throws(ServiceProblem) in _ = try LabelBatchDecoder.decode(Array(#"{"items": [], "items": [\#(Self.item)]}"#.utf8)) }
            == ["/items: appears more than once"])
        #expect(problemErrors { () throws(ServiceProblem) in _ = try LabelBatchDecoder.decode(Array(#"{"items": 5, "items": [], "items": [\#(Self.item)]}"#.utf8)) }
            == ["/items: appears more than once"])
        #expect(problemErrors { () throws(ServiceProblem) in
            _ = try ConsumptionRequestDecoder.decode(Array(#"{"status": "bogus", "status": "usedReducedFriction", "insightIDsUsed": []}"#.utf8))
        } == ["/status: appears more than once"])
        // An unknown member sent twice, and other members' violations, keep their places.
        #expect(problemErrors { () throws(ServiceProblem) in
            _ = try ConsumptionRequestDecoder.decode(Array(#"{"x": 1, "status": 5, "x": 2, "insightIDsUsed": []}"#.utf8))
        } == ["/x: appears more than once", "/status: expected a string, received a number"])
    }

    @Test func aMemberInsideAnItemOrInsightIsReportedOnceAsRepeated() throws {
        let body = #"{"items": [{"insightID": 5, "insightID": "\#(Self.insightID)", "label": "confirmedFraud", "fraudType": "other", "occurredOn": "2026-01-02", "extra": 1, "extra": 2}]}"#
        let drafts = try LabelBatchDecoder.decode(Array(body.utf8))
        #expect(drafts[0].violations.map { "\($0.pointer): \($0.detail)" }
            == ["/items/0/insightID: appears more than once", "/items/0/extra: appears more than once"])
        // Two insightIDs name no one insight, so neither is echoed, in whichever order they came.
        #expect(drafts[0].insightID == nil)
        let reversed = #"{"items": [{"insightID": "\#(Self.insightID)", "insightID": "x", "label": "confirmedFraud", "fraudType": "other", "occurredOn": "2026-01-02"}]}"#
        #expect(try LabelBatchDecoder.decode(Array(reversed.utf8))[0].insightID == nil)
        let evaluation = #"""
            {"operationCategory": "payment", "requestedInsights": [{"insightType": 5, "insightType": "isLikelyBeingCoached",
             "modelVersion": {"specific": 1, "specific": "2026.1"}}], "subject": {"accountRef": 7, "accountRef": "a"}, "features": {}}
            """#
        #expect(problemErrors { () throws(ServiceProblem) in _ = try EvaluationRequestDecoder.decode(Array(evaluation.utf8)) } == [
            "/requestedInsights/0/insightType: appears more than once",
            "/requestedInsights/0/modelVersion/specific: appears more than once",
            "/requestedInsights/0/schema: is required",
            "/subject/accountRef: appears more than once",
        ])
    }

    @Test func anUnknownMemberOfANestedObjectSentTwiceIsReportedOnceAsRepeated() {
        let evaluation = #"""
            {"operationCategory": "payment", "requestedInsights": [{"insightType": "isLikelyBeingCoached", "schema": "version1",
             "zz": 1, "zz": 2, "zz": 3, "modelVersion": {"specific": "2026.1", "yy": 1, "yy": 2}}],
             "subject": {"accountRef": "a", "deviceRef": "d", "counterpartyRef": "c", "xx": 1, "xx": 2, "xx": 3}, "features": {}}
            """#
        #expect(problemErrors { () throws(ServiceProblem) in _ = try EvaluationRequestDecoder.decode(Array(evaluation.utf8)) } == [
            "/requestedInsights/0/zz: appears more than once",
            "/requestedInsights/0/modelVersion/yy: appears more than once",
            "/subject/xx: appears more than once",
        ])
    }

    /// A name that is not repeated back points at its object, which its siblings' violations share: its repeat
    /// still replaces its own first violation only, and a third copy adds nothing.
    @Test func aNameThatIsNotRepeatedBackSentSeveralTimesGetsOneViolation() {
        let unknown = "holds a field that is not part of this request (\(JSONPointer.unrepeatedNameReason))"
        let repeated = "holds a field more than once (\(JSONPointer.unrepeatedNameReason))"
        #expect(problemErrors { () throws(ServiceProblem) in
            _ = try ConsumptionRequestDecoder.decode(Array(#"{"a b": 1, "c d": 1, "a b": 2, "a b": 3, "status": "usedReducedFriction", "insightIDsUsed": []}"#.utf8))
        } == [": \(repeated)", ": \(unknown)"])
        let evaluation = #"""
            {"operationCategory": "payment", "requestedInsights": [{"insightType": "isLikelyBeingCoached", "schema": "version1",
             "a b": 1, "a b": 2, "modelVersion": {"specific": "2026.1", "a b": 1, "a b": 2, "a b": 3}}],
             "subject": {"accountRef": "a", "deviceRef": "d", "counterpartyRef": "c", "a b": 1, "c d": 2, "a b": 3}, "features": {}}
            """#
        #expect(problemErrors { () throws(ServiceProblem) in _ = try EvaluationRequestDecoder.decode(Array(evaluation.utf8)) } == [
            "/requestedInsights/0: \(repeated)",
            "/requestedInsights/0/modelVersion: \(repeated)",
            "/subject: \(repeated)",
            "/subject: \(unknown)",
        ])
    }
}
