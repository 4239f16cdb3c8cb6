import Foundation
import Testing
import InsightCore

@Suite(.serialized) struct ConsumptionAPITests {
    let service: LiveService
    let clientKey: String
    let otherTenantKey: String
    let partnerKey: String

    init() throws {
        service = try LiveService()
        // Issued before the first request, so the service's first key-table refresh sees them all.
        clientKey = try service.key()
        otherTenantKey = try service.key(tenant: "globex")
        partnerKey = try service.key(role: .partner)
    }

    private func report(_ evaluationID: String, _ body: String, key: String? = nil) throws -> SocketClient.Response {
        try service.post("/v1/evaluations/\(evaluationID)/consumption", key: key ?? clientKey, body: body)
    }

    @Test func firstReportIs201AndTheSameReportAgainIs200WithTheSameAnswer() throws {
        let evaluation = try service.evaluate(key: clientKey)
        let body = #"{"status": "usedIncreasedFriction", "insightIDsUsed": ["\#(evaluation.insightIDs[0])"]}"#
        let first = try report(evaluation.evaluationID, body)
        #expect(first.status == 201)
        #expect(first.header("Content-Type") == "application/json")
        let answer = try jsonObject(first)
        #expect(answer["evaluationID"] as? String == evaluation.evaluationID)
        #expect(answer["status"] as? String == "usedIncreasedFriction")
        #expect(answer["insightIDsUsed"] as? [String] == [evaluation.insightIDs[0]])
        #expect(answer["late"] as? Bool == false)
        #expect((answer["receivedAt"] as? String)?.hasSuffix("Z") == true)
        let again = try report(evaluation.evaluationID, body)
        #expect(again.status == 200)
        #expect(again.body == first.body)
    }

    @Test func aDifferentSecondReportIsAConflict() throws {
        let evaluation = try service.evaluate(key: clientKey)
        #expect(try report(evaluation.evaluationID, #"{"status": "notUsedNotNeeded", "insightIDsUsed": []}"#).status == 201)
        let conflict = try report(evaluation.evaluationID, #"{"status": "usedReducedFriction", "insightIDsUsed": ["\#(evaluation.insightIDs[1])"]}"#)
        #expect(conflict.status == 409)
        #expect(conflict.header("Content-Type") == "application/problem+json")
        #expect(try jsonObject(conflict)["type"] as? String == "https://trust-insights.dev/problems/consumption-conflict")
        #expect(try service.count("SELECT count(*) FROM consumption WHERE evaluation_id = '\(evaluation.evaluationID)' AND status = 'notUsedNotNeeded'") == 1)
    }

    @Test func insightsOutsideTheEvaluationAreRejectedWithTheirPointer() throws {
        let evaluation = try service.evaluate(key: clientKey)
        let another = try service.evaluate(key: clientKey)
        let outside = try report(evaluation.evaluationID, #"{"status": "usedUnchangedFriction", "insightIDsUsed": ["\#(evaluation.insightIDs[0])", "\#(another.insightIDs[0])"]}"#)
        #expect(outside.status == 400)
        #expect(try errorPointers(outside) == ["/insightIDsUsed/1"])
        #expect(!outside.text.contains(another.insightIDs[0]))
        let repeated = try report(evaluation.evaluationID, #"{"status": "usedUnchangedFriction", "insightIDsUsed": ["\#(evaluation.insightIDs[0])", "\#(evaluation.insightIDs[0])"]}"#)
        #expect(try errorPointers(repeated) == ["/insightIDsUsed/1"])
        let shape = try report(evaluation.evaluationID, #"{"status": "usedSomehow", "insightIDsUsed": [7], "note": "free text canary-note"}"#)
        #expect(shape.status == 400)
        #expect(Set(try errorPointers(shape)) == ["/status", "/insightIDsUsed/0", "/note"])
        #expect(!shape.text.contains("canary-note") && !shape.text.contains("usedSomehow"))
        #expect(try report(evaluation.evaluationID, "{}").status == 400)
        // One answer names every problem: an insight of another evaluation beside a wrong status and an unknown
        // member, and a repeated one, where the second 400 used to name them only once the first was fixed.
        let both = try report(evaluation.evaluationID, #"{"status": "usedSomehow", "insightIDsUsed": ["\#(another.insightIDs[0])", "\#(evaluation.insightIDs[0])", "\#(evaluation.insightIDs[0])"], "extra": 1}"#)
        #expect(both.status == 400)
        #expect(Set(try errorPointers(both)) == ["/status", "/extra", "/insightIDsUsed/0", "/insightIDsUsed/2"], "\(both.text)")
        #expect(!both.text.contains(another.insightIDs[0]))
        // An item of the wrong type does not keep the others from being checked (regression probe, 6 December).
        let mixed = try report(evaluation.evaluationID, #"{"status": "usedUnchangedFriction", "insightIDsUsed": ["\#(another.insightIDs[0])", 3, null]}"#)
        #expect(Set(try errorPointers(mixed)) == ["/insightIDsUsed/0", "/insightIDsUsed/1", "/insightIDsUsed/2"], "\(mixed.text)")
        // On an evaluation the key cannot see, the body's own problems alone, and nothing said of the IDs.
        let unseen = try report(evaluation.evaluationID, #"{"status": "usedSomehow", "insightIDsUsed": ["\#(evaluation.insightIDs[0])"]}"#, key: otherTenantKey)
        #expect(unseen.status == 400)
        #expect(try errorPointers(unseen) == ["/status"], "\(unseen.text)")
        // Half a surrogate pair stops the reading; the answer names the item that holds it.
        let unpaired = try report(evaluation.evaluationID, #"{"status": "usedUnchangedFriction", "insightIDsUsed": ["\#(evaluation.insightIDs[0])", "\udc01"]}"#)
        #expect(unpaired.status == 400)
        #expect(try errorPointers(unpaired) == ["/insightIDsUsed/1"], "\(unpaired.text)")
        #expect(try service.count("SELECT count(*) FROM consumption WHERE evaluation_id = '\(evaluation.evaluationID)'") == 0)
    }

    @Test func unknownAndForeignEvaluationsGetTheIdenticalNotFound() throws {
        let foreign = try service.evaluate(key: otherTenantKey)
        let body = #"{"status": "notUsedError", "insightIDsUsed": []}"#
        let foreignAnswer = try report(foreign.evaluationID, body)
        let unknownAnswer = try report(UUID().uuidString.lowercased(), body)
        let malformedAnswer = try report("not-an-evaluation", body)
        #expect(foreignAnswer.status == 404)
        #expect(foreignAnswer.body == unknownAnswer.body && unknownAnswer.body == malformedAnswer.body)
        #expect(unknownAnswer.status == 404 && malformedAnswer.status == 404)
        #expect(try jsonObject(foreignAnswer)["type"] as? String == "https://trust-insights.dev/problems/not-found")
        // One problem type, one title (RFC 9457 §3.1.3): the same as a path no route serves.
        let noRoute = try service.client().request("GET", "/v1/no-such-route")
        #expect(noRoute.status == 404)
        #expect(try jsonObject(foreignAnswer)["title"] as? String == "Not Found")
        #expect(try jsonObject(noRoute)["title"] as? String == "Not Found")
        // The owner can still report on it: the foreign attempt stored nothing.
        #expect(try report(foreign.evaluationID, body, key: otherTenantKey).status == 201)
    }

    @Test func theReportIsDurableWhenTheAnswerArrives() throws {
        let evaluation = try service.evaluate(key: clientKey)
        let answer = try report(evaluation.evaluationID, #"{"status": "usedEvaluationOnly", "insightIDsUsed": ["\#(evaluation.insightIDs[1])", "\#(evaluation.insightIDs[0])"]}"#)
        #expect(answer.status == 201)
        #expect(try service.count("""
            SELECT count(*) FROM consumption WHERE evaluation_id = '\(evaluation.evaluationID)' AND tenant_id = 'acme'
              AND status = 'usedEvaluationOnly' AND insight_ids = '\(evaluation.insightIDs[1]),\(evaluation.insightIDs[0])' AND late = 0
            """) == 1)
    }

    @Test func onlyClientKeysMayReport() throws {
        let evaluation = try service.evaluate(key: clientKey)
        #expect(try report(evaluation.evaluationID, #"{"status": "notUsedError", "insightIDsUsed": []}"#, key: partnerKey).status == 403)
        #expect(try report(evaluation.evaluationID, #"{"status": "notUsedError", "insightIDsUsed": []}"#, key: "wrong").status == 401)
    }
}

@Suite struct LateConsumptionTests {
    @Test func aReportAfterTheConfiguredDeadlineIsAcceptedAndFlaggedLate() throws {
        // The prompt report goes out right after its evaluation, and the deadline is long enough for a sanitizer
        // build on a loaded machine to make it; only the late side waits, and waiting longer keeps it late.
        let service = try LiveService { $0.consumptionDeadlineSeconds = 2 }
        let key = try service.key()
        let body = #"{"status": "notUsedError", "insightIDsUsed": []}"#
        let prompt = try service.evaluate(key: key)
        let onTime = try service.post("/v1/evaluations/\(prompt.evaluationID)/consumption", key: key, body: body)
        #expect(try jsonObject(onTime)["late"] as? Bool == false)
        let delayed = try service.evaluate(key: key)
        Thread.sleep(forTimeInterval: 2.2)
        let late = try service.post("/v1/evaluations/\(delayed.evaluationID)/consumption", key: key, body: body)
        #expect(late.status == 201)
        #expect(try jsonObject(late)["late"] as? Bool == true)
        #expect(try service.count("SELECT count(*) FROM consumption WHERE late = 1") == 1)
    }
}
