import Foundation
import Glibc
import Testing
import InsightCore

@Suite(.serialized) struct LabelAPITests {
    let service: LiveService
    let clientKey: String
    let otherClientKey: String
    let partnerKey: String
    let otherPartnerKey: String
    /// Read when used, not when the suite starts: a run across midnight UTC would otherwise label today's
    /// evaluations with yesterday's date, which is before their day.
    var today: String { Timestamp.day(milliseconds: Clock.nowMilliseconds()) }

    init() throws {
        service = try LiveService()
        // Issued before the first request, so the service's first key-table refresh sees them all.
        clientKey = try service.key()
        otherClientKey = try service.key(tenant: "globex")
        partnerKey = try service.key(role: .partner)
        otherPartnerKey = try service.key(tenant: "globex", role: .partner)
    }

    private func item(_ insightID: String, label: String = "confirmedFraud", fraudType: String = "techSupport", occurredOn: String? = nil, extra: String = "") -> String {
        #"{"insightID": "\#(insightID)", "label": "\#(label)", "fraudType": "\#(fraudType)", "occurredOn": "\#(occurredOn ?? today)"\#(extra)}"#
    }

    private func send(_ items: [String], key: String? = nil, headers: [(String, String)] = []) throws -> SocketClient.Response {
        try service.post("/v1/labels", key: key ?? partnerKey, body: #"{"items": [\#(items.joined(separator: ", "))]}"#, headers: headers)
    }

    private func results(_ response: SocketClient.Response) throws -> [[String: Any]] {
        try #require(try jsonObject(response)["results"] as? [[String: Any]])
    }

    private func labelRows(_ insightIDs: [String]) throws -> Int {
        try service.count("SELECT count(*) FROM label WHERE insight_id IN (\(insightIDs.map { "'\($0)'" }.joined(separator: ",")))")
    }

    /// A parameter a write route would ignore must not look honoured: `?dryRun=1` is refused, naming it, and
    /// nothing is written. The same on every route that takes no parameters.
    @Test func writeRoutesRefuseQueryParametersAndWriteNothing() throws {
        let evaluation = try service.evaluate(key: clientKey)
        let refused = try service.post("/v1/labels?dryRun=1", key: partnerKey, body: #"{"items": [\#(item(evaluation.insightIDs[0]))]}"#)
        #expect(refused.status == 400)
        #expect(try jsonObject(refused)["type"] as? String == "https://trust-insights.dev/problems/invalid-parameter")
        #expect(try errorPointers(refused) == ["dryRun"])
        #expect(try labelRows([evaluation.insightIDs[0]]) == 0)

        let consumption = try service.post(
            "/v1/evaluations/\(evaluation.evaluationID)/consumption?dryRun=1", key: clientKey,
            body: #"{"status": "notUsedNotNeeded", "insightIDsUsed": []}"#)
        #expect(consumption.status == 400)
        #expect(try errorPointers(consumption) == ["dryRun"])
        #expect(try service.count("SELECT count(*) FROM consumption WHERE evaluation_id = '\(evaluation.evaluationID)'") == 0)

        let evaluations = try service.client().request("POST", "/v1/evaluations?debug=true", headers: [
            ("Authorization", "Bearer \(clientKey)"), ("Content-Type", "application/json"),
        ], body: Requests.payment(requestID: "query-refused"))
        #expect(evaluations.status == 400)
        #expect(try errorPointers(evaluations) == ["debug"])

        for method in ["GET", "PUT"] {
            let authorization = try service.client().request(method, "/v1/authorization/acct-q?status=denied", headers: [
                ("Authorization", "Bearer \(clientKey)"), ("Content-Type", "application/json"),
            ], body: method == "PUT" ? Array(#"{"status": "authorized"}"#.utf8) : nil)
            #expect(authorization.status == 400, "\(method)")
            #expect(try errorPointers(authorization) == ["status"], "\(method)")
        }
        // An empty query is no parameter.
        #expect(try service.post("/v1/labels?", key: partnerKey, body: #"{"items": [\#(item(evaluation.insightIDs[0]))]}"#).status == 200)
    }

    @Test func everyItemGetsItsResultInOrder() throws {
        let first = try service.evaluate(key: clientKey)
        let second = try service.evaluate(key: clientKey)
        let foreign = try service.evaluate(key: otherClientKey)
        let unknown = UUID().uuidString.lowercased()
        let response = try send([
            item(first.insightIDs[0], extra: #", "amountBand": "1kTo10k""#),
            item(first.insightIDs[0], extra: #", "amountBand": "1kTo10k""#),
            item(second.insightIDs[0]),
            item(second.insightIDs[0], fraudType: "authorityImpersonation"),
            item(foreign.insightIDs[0]),
            item(unknown),
            item(second.insightIDs[1], occurredOn: "2026-13-01"),
        ])
        #expect(response.status == 200)
        let answers = try results(response)
        #expect(answers.map { $0["result"] as? String } == ["accepted", "duplicate", "accepted", "revised", "notFound", "notFound", "rejected"])
        #expect(answers.map { $0["insightID"] as? String } == [first.insightIDs[0], first.insightIDs[0], second.insightIDs[0], second.insightIDs[0], foreign.insightIDs[0], unknown, second.insightIDs[1]])
        #expect(answers[6]["reason"] as? String == "/items/6/occurredOn must be a date as YYYY-MM-DD")
        #expect(answers[0]["reason"] == nil)
        // A foreign insight reads exactly like an unknown one.
        #expect(Set(answers[4].keys) == Set(answers[5].keys))
        // History: two versions for the revised insight; the latest counts.
        #expect(try labelRows([second.insightIDs[0]]) == 2)
        #expect(try service.count("SELECT count(*) FROM label_latest WHERE insight_id = '\(second.insightIDs[0])' AND fraud_type = 'authorityImpersonation'") == 1)
        #expect(try labelRows([foreign.insightIDs[0], unknown]) == 0)
        // The owner may label its own insight.
        #expect(try results(try send([item(foreign.insightIDs[0])], key: otherPartnerKey)).first?["result"] as? String == "accepted")
    }

    @Test func anItemWithPersonalDataIsRejectedAloneAndItsValuesGoNowhere() throws {
        let evaluation = try service.evaluate(key: clientKey)
        let other = try service.evaluate(key: clientKey)
        let canaries = ["jane.canary@example.com", "Jane Canary-Doe", "called about her grandson canary"]
        let response = try send([
            item(evaluation.insightIDs[0]),
            item(evaluation.insightIDs[1], extra: #", "email": "\#(canaries[0])", "customer": {"name": "\#(canaries[1])"}, "notes": "\#(canaries[2])""#),
            item(other.insightIDs[0]),
        ])
        #expect(response.status == 200)
        let answers = try results(response)
        #expect(answers.map { $0["result"] as? String } == ["accepted", "rejected", "accepted"])
        let reason = try #require(answers[1]["reason"] as? String)
        #expect(reason.contains("/items/1/email") && reason.contains("/items/1/customer") && reason.contains("/items/1/notes"))
        #expect(try labelRows([evaluation.insightIDs[1]]) == 0)
        #expect(try labelRows([evaluation.insightIDs[0], other.insightIDs[0]]) == 2)
        let stored = try service.storedBytes()
        for canary in canaries {
            #expect(!response.text.contains(canary), "\(canary) echoed")
            #expect(!service.logs.lines.contains { $0.contains(canary) }, "\(canary) logged")
            #expect(!stored.contains(canary), "\(canary) stored")
        }
    }

    @Test func occurredOnMayNotBeInTheFutureOrBeforeTheEvaluationsDay() throws {
        let evaluation = try service.evaluate(key: clientKey)
        // Two days ahead: still in the future if midnight UTC passes before the server checks it.
        let tomorrow = Timestamp.day(milliseconds: Clock.nowMilliseconds() + 2 * 86_400_000)
        let answers = try results(try send([
            item(evaluation.insightIDs[0], occurredOn: tomorrow),
            item(evaluation.insightIDs[0], occurredOn: "2020-01-01"),
            item(evaluation.insightIDs[1]),
        ]))
        #expect(answers.map { $0["result"] as? String } == ["rejected", "rejected", "accepted"])
        #expect(answers[0]["reason"] as? String == "/items/0/occurredOn is in the future")
        #expect(answers[1]["reason"] as? String == "/items/1/occurredOn is before the UTC day of the evaluation")
    }

    @Test func aBatchHoldsOneToAThousandItemsAndNothingElse() throws {
        let evaluation = try service.evaluate(key: clientKey)
        let empty = try send([])
        #expect(empty.status == 400)
        #expect(try errorPointers(empty) == ["/items"])
        let tooMany = try send(Array(repeating: item(evaluation.insightIDs[0]), count: 1001))
        #expect(tooMany.status == 400)
        #expect(try errorPointers(tooMany) == ["/items"])
        let extra = try service.post("/v1/labels", key: partnerKey, body: #"{"items": [\#(item(evaluation.insightIDs[0]))], "submittedBy": "canary-clerk"}"#)
        #expect(extra.status == 400)
        #expect(try errorPointers(extra) == ["/submittedBy"])
        #expect(!extra.text.contains("canary-clerk"))
        #expect(try service.post("/v1/labels", key: partnerKey, body: #"{"items": {}}"#).status == 400)
        #expect(try service.post("/v1/labels", key: partnerKey, body: #"{"items": [}"#).status == 400)
        // Half a surrogate pair, or nesting past 32 levels, stops the reader: the batch is refused whole, naming the
        // field that holds the half pair, or, for the nesting, what that field was found to be (an array where a
        // string belongs).
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        for (value, pointer) in [(#""canary-\ud800""#, "/items/1/insightID"), (deep, "/items/1/insightID")] {
            let unreadable = try service.post(
                "/v1/labels", key: partnerKey, body: #"{"items": [{"insightID": "x"}, {"insightID": \#(value)}]}"#)
            #expect(unreadable.status == 400)
            #expect((try jsonObject(unreadable)["type"] as? String)?.hasSuffix("/invalid-request") == true, "\(unreadable.text)")
            #expect(try errorPointers(unreadable) == [pointer], "\(unreadable.text)")
            #expect(!unreadable.text.contains("canary"))
        }
        #expect(try labelRows([evaluation.insightIDs[0]]) == 0)
        // A full batch: 1000 items over two insights, alternating content, so each item after the first two revises.
        let full = try send((0..<1000).map { index in
            item(evaluation.insightIDs[index % 2], fraudType: index % 4 < 2 ? "romance" : "investment")
        })
        #expect(full.status == 200)
        let answers = try results(full)
        #expect(answers.count == 1000)
        #expect(answers.prefix(2).allSatisfy { $0["result"] as? String == "accepted" })
        #expect(answers.dropFirst(2).allSatisfy { $0["result"] as? String == "revised" })
        #expect(try labelRows(evaluation.insightIDs) == 1000)
    }

    @Test func aRetryWithTheSameIdempotencyKeyGetsTheSameAnswerAndWritesNothing() throws {
        let evaluation = try service.evaluate(key: clientKey)
        let items = [item(evaluation.insightIDs[0]), item(evaluation.insightIDs[1], label: "confirmedLegitimate", fraudType: "other")]
        // A key is text the partner chose (here a case number and a name): it is kept only as a keyed hash.
        let key = ("Idempotency-Key", "case-4711-JaneCanaryDoe-\(UUID().uuidString)")
        let first = try send(items, headers: [key])
        #expect(first.status == 200)
        #expect(first.header("Idempotent-Replayed") == nil)
        #expect(try service.count("SELECT count(*) FROM idempotency") == 1)
        #expect(try service.count("SELECT count(*) FROM idempotency WHERE idempotency_key GLOB 'hmac [0-9a-f]*' AND length(idempotency_key) = 69") == 1)
        #expect(!(try service.storedBytes()).contains("JaneCanaryDoe"), "the key is stored as sent")
        let retry = try send(items, headers: [key])
        #expect(retry.status == 200)
        #expect(retry.body == first.body)
        #expect(retry.header("Idempotent-Replayed") == "true")
        #expect(try labelRows(evaluation.insightIDs) == 2)
        // Without the key the same batch is processed again, and reads as duplicates.
        #expect(try results(try send(items)).allSatisfy { $0["result"] as? String == "duplicate" })
        let reused = try send([item(evaluation.insightIDs[0], fraudType: "romance")], headers: [key])
        #expect(reused.status == 422)
        #expect(try jsonObject(reused)["type"] as? String == "https://trust-insights.dev/problems/idempotency-key-reused")
        #expect(try labelRows(evaluation.insightIDs) == 2)
        let badKey = try send(items, headers: [("Idempotency-Key", "has a space")])
        #expect(badKey.status == 400)
        #expect(try jsonObject(badKey)["type"] as? String == "https://trust-insights.dev/problems/invalid-header")
        #expect(try errorPointers(badKey) == ["Idempotency-Key"])
        // Two lines are the one value "a, b" (RFC 9110 §5.3): no key, and nothing filed under either line.
        let second = "batch-\(UUID().uuidString)"
        let twoLines = try send(items, headers: [key, ("Idempotency-Key", second)])
        #expect(twoLines.status == 400)
        #expect(try jsonObject(twoLines)["type"] as? String == "https://trust-insights.dev/problems/invalid-header")
        #expect(twoLines.text.contains("appears more than once"))
        let underSecond = try send(items, headers: [("Idempotency-Key", second)])
        #expect(underSecond.status == 200)
        #expect(underSecond.header("Idempotent-Replayed") == nil)
    }

    @Test func aBatchIsWrittenWholeOrNotAtAll() throws {
        let first = try service.evaluate(key: clientKey)
        let second = try service.evaluate(key: clientKey)
        let ids = first.insightIDs + second.insightIDs
        // Make the store refuse the third label of the batch, after the first two were inserted.
        try service.executeInDatabase("""
            CREATE TRIGGER refuse_one BEFORE INSERT ON label WHEN NEW.insight_id = '\(ids[2])'
            BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;
            """)
        let failed = try send(ids.map { item($0) }, headers: [("Idempotency-Key", "atomic-1")])
        #expect(failed.status == 503)
        #expect(failed.header("Retry-After") != nil)
        #expect(try labelRows(ids) == 0)
        #expect(try service.count("SELECT count(*) FROM idempotency") == 0)
        try service.executeInDatabase("DROP TRIGGER refuse_one")
        let retried = try send(ids.map { item($0) }, headers: [("Idempotency-Key", "atomic-1")])
        #expect(retried.status == 200)
        #expect(try results(retried).allSatisfy { $0["result"] as? String == "accepted" })
        #expect(try labelRows(ids) == 4)
    }

    @Test func onlyPartnerKeysMaySendLabels() throws {
        let evaluation = try service.evaluate(key: clientKey)
        #expect(try send([item(evaluation.insightIDs[0])], key: clientKey).status == 403)
        #expect(try send([item(evaluation.insightIDs[0])], key: "nope").status == 401)
    }

    /// The route takes up to 8 MiB, so the key is checked on the header section: without a partner key the answer
    /// comes before any of the body is sent (and instead of `100 Continue`).
    @Test func aBatchWithoutAPartnerKeyIsRefusedBeforeItsBodyIsRead() throws {
        for (authorization, status) in [(nil, 401), ("Bearer \(clientKey)", 403)] as [(String?, Int)] {
            for expectContinue in [false, true] {
                let client = try service.client()
                var head = "POST /v1/labels HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\n"
                if let authorization { head += "Authorization: \(authorization)\r\n" }
                if expectContinue { head += "Expect: 100-continue\r\n" }
                client.send(Array((head + "\r\n").utf8))
                let response = try client.readResponse()
                #expect(response.status == status)
                #expect(response.header("Content-Type") == "application/problem+json")
                #expect(response.header("Connection") == "close")
            }
        }
        let partner = try service.client()
        partner.send(Array("POST /v1/labels HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(partnerKey)\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 12\r\n\r\n".utf8))
        var interim = [UInt8](repeating: 0, count: 64)
        let received = recv(partner.fd, &interim, interim.count, 0)
        #expect(received > 0 && String(decoding: interim.prefix(max(0, received)), as: UTF8.self).hasPrefix("HTTP/1.1 100 Continue\r\n"))
    }
}
