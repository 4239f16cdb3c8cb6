import Foundation
import Testing
import InsightCore

/// Builds a small known history through the live API (sandbox overrides fix each outcome) and checks the metrics
/// figures exactly, as JSON and CSV, and the route's refusals.
@Suite(.serialized) struct MetricsAPITests {
    let service: LiveService
    let clientKey: String
    let partnerKey: String
    let analystKey: String
    let productionAnalystKey: String
    let otherAnalystKey: String
    let today: String

    init() throws {
        // Each test builds its history and reads it back as one day's figures; a test that straddled midnight UTC
        // would see two days. Within two minutes of it, the test starts after it instead.
        let untilMidnight = 86_400_000 - Clock.nowMilliseconds() % 86_400_000
        if untilMidnight < 120_000 { Thread.sleep(forTimeInterval: Double(untilMidnight) / 1000 + 1) }
        today = Timestamp.day(milliseconds: Clock.nowMilliseconds())
        service = try LiveService { $0.metricsSuppressionK = 0 }
        clientKey = try service.key()
        partnerKey = try service.key(role: .partner)
        analystKey = try service.key(role: .analyst)
        productionAnalystKey = try service.key(role: .analyst, environment: .production)
        otherAnalystKey = try service.key(tenant: "globex", role: .analyst)
    }

    /// One evaluation with one insight (the current model) forced to `outcome`; returns (evaluationID, insightID).
    static func evaluate(_ service: LiveService, key: String, outcome: String, account: String) throws -> (String, String) {
        let response = try service.client().request("POST", "/v1/evaluations", headers: [
            ("Authorization", "Bearer \(key)"), ("Content-Type", "application/json"), ("Trust-Insights-Override-Outcome", outcome),
        ], body: Requests.payment(account: account, insights: #"{"insightType": "isLikelyBeingCoached", "schema": "version1", "modelVersion": "current"}"#))
        let object = try jsonObject(response)
        let insight = try #require((object["insights"] as? [[String: Any]])?.first?["insightID"] as? String)
        return (try #require(object["evaluationID"] as? String), insight)
    }

    static func consume(_ service: LiveService, key: String, _ evaluationID: String, _ status: String) throws {
        let response = try service.post("/v1/evaluations/\(evaluationID)/consumption", key: key, body: #"{"status": "\#(status)", "insightIDsUsed": []}"#)
        #expect(response.status == 201)
    }

    static func label(_ service: LiveService, key: String, _ insightID: String, _ verdict: String, today: String) throws {
        let response = try service.post("/v1/labels", key: key, body: #"{"items": [{"insightID": "\#(insightID)", "label": "\#(verdict)", "fraudType": "techSupport", "occurredOn": "\#(today)"}]}"#)
        #expect(response.status == 200)
    }

    func get(_ query: String, key: String? = nil) throws -> SocketClient.Response {
        try service.client().request("GET", "/v1/metrics/labels" + query, headers: [("Authorization", "Bearer \(key ?? analystKey)")])
    }

    /// 20 evaluations: high 6 (5 usedIncreasedFriction, 1 missing; labels 4 fraud, one after a revision, 1 legitimate),
    /// medium 4 (3 usedUnchangedFriction, 1 notUsedError; 1 fraud, 2 legitimate), unknown 10 (usedReducedFriction;
    /// 1 fraud, 3 legitimate).
    func buildHistory() throws {
        let plan: [(outcome: String, statuses: [String?], verdicts: [String?])] = [
            ("high", Array(repeating: "usedIncreasedFriction", count: 5) + [nil], ["confirmedFraud", "confirmedFraud", "confirmedFraud", "revise", "confirmedLegitimate", nil]),
            ("medium", ["usedUnchangedFriction", "usedUnchangedFriction", "usedUnchangedFriction", "notUsedError"], ["confirmedFraud", "confirmedLegitimate", "confirmedLegitimate", nil]),
            ("unknown", Array(repeating: "usedReducedFriction", count: 10), ["confirmedFraud"] + Array(repeating: "confirmedLegitimate", count: 3) + Array(repeating: nil, count: 6)),
        ]
        var account = 0
        for (outcome, statuses, verdicts) in plan {
            for (status, verdict) in zip(statuses, verdicts) {
                account += 1
                let (evaluationID, insightID) = try Self.evaluate(service, key: clientKey, outcome: outcome, account: "acct-metrics-\(account)")
                if let status { try Self.consume(service, key: clientKey, evaluationID, status) }
                switch verdict {
                case "revise"?:
                    try Self.label(service, key: partnerKey, insightID, "confirmedLegitimate", today: today)
                    try Self.label(service, key: partnerKey, insightID, "confirmedFraud", today: today)
                case let verdict?:
                    try Self.label(service, key: partnerKey, insightID, verdict, today: today)
                case nil:
                    break
                }
            }
        }
    }

    @Test func exportedFiguresMatchTheHistoryExactly() throws {
        try buildHistory()
        let response = try get("")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        let body = try jsonObject(response)
        #expect(body["environments"] as? [String] == ["sandbox"])
        #expect(body["to"] as? String == today)
        let groups = try #require(body["groups"] as? [[String: Any]])
        #expect(groups.count == 1)
        let group = groups[0]
        #expect(group["evaluations"] as? Int == 20)
        let consumption = try #require(group["consumption"] as? [String: Int])
        #expect(consumption == [
            "usedReducedFriction": 10, "usedUnchangedFriction": 3, "usedIncreasedFriction": 5, "notUsedNotNeeded": 0,
            "notUsedError": 1, "usedEvaluationOnly": 0, "missing": 1, "late": 0,
        ])
        #expect(group["labels"] as? [String: Int] == ["confirmedFraud": 6, "confirmedLegitimate": 6])
        let outcomes = try #require(group["outcomes"] as? [String: [String: Any]])
        #expect(outcomes["high"]?["evaluations"] as? Int == 6)
        #expect(outcomes["high"]?["confirmedFraud"] as? Int == 4)
        #expect(outcomes["high"]?["confirmedLegitimate"] as? Int == 1)
        #expect(outcomes["high"]?["fraudRate"] as? Double == 0.8)
        #expect(outcomes["medium"]?["fraudRate"] as? Double == 1.0 / 3)
        #expect(outcomes["unknown"]?["fraudRate"] as? Double == 0.25)
        let recall = try #require(group["recall"] as? [String: Double])
        #expect(recall["mediumOrAbove"] == 5.0 / 6)
        #expect(recall["high"] == 4.0 / 6)
        let latency = try #require(group["labelLatencyDays"] as? [String: Any])
        #expect(latency["median"] as? Int == 0)
        #expect(latency["p90"] as? Int == 0)
        #expect((latency["histogram"] as? [[String: Any]])?.first?["labels"] as? Int == 12)
        let series = try #require(group["series"] as? [[String: Any]])
        #expect(series.count == 1)
        #expect(series.first?["day"] as? String == today)
        #expect(series.first?["evaluations"] as? Int == 20)
        #expect(group["mature"] as? Bool == false)
        #expect(group["suppressed"] as? [String] == [])

        // Grouped: the high outcome's rows by consumption.
        let grouped = try jsonObject(try get("?groupBy=outcome,consumption&from=\(today)&to=\(today)"))
        let rows = try #require(grouped["groups"] as? [[String: Any]])
        let high = rows.filter { ($0["group"] as? [String: String])?["outcome"] == "high" }
        #expect(high.map { ($0["group"] as? [String: String])?["consumption"] } == ["usedIncreasedFriction", "missing"])
        #expect(high.map { $0["evaluations"] as? Int } == [5, 1])
        // Recall compares outcomes within the same other dimensions: all fraud reported usedIncreasedFriction was high.
        #expect(high.first?["recall"] as? [String: Double] == ["mediumOrAbove": 1, "high": 1])
        let byOutcome = try #require(try jsonObject(try get("?groupBy=outcome"))["groups"] as? [[String: Any]])
        #expect(byOutcome.map { ($0["group"] as? [String: String])?["outcome"] } == ["unknown", "medium", "high"])
        for row in byOutcome { #expect(row["recall"] as? [String: Double] == ["mediumOrAbove": 5.0 / 6, "high": 4.0 / 6]) }

        // CSV: same figures, header first.
        let csv = try get("?format=csv&groupBy=outcome")
        #expect(csv.status == 200)
        #expect(csv.header("Content-Type")?.hasPrefix("text/csv") == true)
        let lines = csv.text.split(separator: "\r\n").map(String.init)
        let header = try #require(lines.first).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(Array(header.prefix(5)) == ["day", "outcome", "mature", "evaluations", "consumption_usedReducedFriction"])
        #expect(header.last == "suppressed")
        let highRow = try #require(lines.first { $0.hasPrefix("all,high,") }).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let column = { (name: String) in highRow[header.firstIndex(of: name)!] }
        #expect(column("evaluations") == "6")
        #expect(column("confirmedFraud") == "4")
        #expect(column("high_fraudRate") == "0.8")
        #expect(column("consumption_missing") == "1")
        #expect(column("recallHigh") == String(4.0 / 6))
        #expect(lines.contains { $0.hasPrefix("\(today),high,false,6,") })

        // Sandbox traffic never counts in production, and another tenant sees nothing of it.
        let production = try jsonObject(try get("", key: productionAnalystKey))
        #expect((production["groups"] as? [Any])?.isEmpty == true)
        #expect(production["environments"] as? [String] == ["production"])
        #expect((try jsonObject(try get("", key: otherAnalystKey))["groups"] as? [Any])?.isEmpty == true)
        #expect((try jsonObject(try get("?environment=all", key: productionAnalystKey))["groups"] as? [[String: Any]])?.first?["evaluations"] as? Int == 20)
    }

    @Test(arguments: [
        ("?groupBy=category,shoeSize", "groupBy"), ("?groupBy=category,category", "groupBy"), ("?from=2026-13-01", "from"),
        ("?to=yesterday", "to"), ("?from=2026-11-20&to=2026-11-19", "from"), ("?format=xml", "format"),
        ("?environment=staging", "environment"), ("?environment=production", "environment"), ("?tenant=globex", "tenant"),
        ("?format=csv&format=json", "format"), ("?from=2010-01-01&to=2026-01-01", "from"),
    ])
    func badParametersAreProblemsNamingTheParameter(query: String, parameter: String) throws {
        let response = try get(query)
        #expect(response.status == 400)
        #expect(response.header("Content-Type") == "application/problem+json")
        #expect(try errorPointers(response) == [parameter])
        #expect(try jsonObject(response)["type"] as? String == "https://trust-insights.dev/problems/invalid-parameter")
    }

    @Test func onlyAnalystKeysMayReadMetrics() throws {
        for key in [clientKey, partnerKey] {
            let response = try get("", key: key)
            #expect(response.status == 403)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(try jsonObject(response)["type"] as? String == "https://trust-insights.dev/problems/forbidden")
        }
        #expect(try service.client().request("GET", "/v1/metrics/labels").status == 401)
        #expect(try get("", key: "ti_sandbox_nope").status == 401)
    }
}

/// The same route with the default suppression: small counts come back as null, flagged, with complements.
@Suite struct MetricsSuppressionAPITests {
    @Test func smallCountsAreWithheldWithComplements() throws {
        let service = try LiveService { $0.metricsSuppressionK = 3 }
        let client = try service.key()
        let analyst = try service.key(role: .analyst)
        // 6 unknown, 2 high (below k = 3); 5 reported as usedReducedFriction, 3 missing.
        for index in 0..<8 {
            let (evaluationID, _) = try MetricsAPITests.evaluate(service, key: client, outcome: index < 6 ? "unknown" : "high", account: "acct-k-\(index)")
            if index < 5 { try MetricsAPITests.consume(service, key: client, evaluationID, "usedReducedFriction") }
        }
        let response = try service.client().request("GET", "/v1/metrics/labels", headers: [("Authorization", "Bearer \(analyst)")])
        let group = try #require((try jsonObject(response)["groups"] as? [[String: Any]])?.first)
        #expect(group["evaluations"] as? Int == 8)
        let outcomes = try #require(group["outcomes"] as? [String: [String: Any]])
        // high (2) is below k; medium (0) too; together they hold 2 < k, so unknown (6) is withheld as well.
        #expect(outcomes["high"]?["evaluations"] is NSNull)
        #expect(outcomes["medium"]?["evaluations"] is NSNull)
        #expect(outcomes["unknown"]?["evaluations"] is NSNull)
        let suppressed = try #require(group["suppressed"] as? [String])
        #expect(suppressed.contains("/outcomes/high/evaluations"))
        #expect(suppressed.contains("/outcomes/unknown/evaluations"))
        let consumption = try #require(group["consumption"] as? [String: Any])
        // The four zero statuses hold nothing, so the smallest other part (missing, 3) is withheld with them.
        #expect(consumption["usedReducedFriction"] as? Int == 5)
        #expect(consumption["missing"] is NSNull)
        #expect(consumption["notUsedError"] is NSNull)
        #expect(suppressed.contains("/consumption/missing"))
        let body = try jsonObject(response)
        #expect(body["suppression"] as? [String: Int] == ["k": 3])
    }
}
