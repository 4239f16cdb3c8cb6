import Foundation
import InsightCore
@testable import TrustInsightsApp
import Testing

@Suite("Rate limits and compliance", .serialized)
struct RateLimitAPITests {
    private func evaluate(_ service: LiveService, key: String, device: String = "dev-rl", account: String = "acct-rl") throws -> SocketClient.Response {
        try service.client().request("POST", "/v1/evaluations", headers: [
            ("Authorization", "Bearer \(key)"), ("Content-Type", "application/json"),
        ], body: Requests.payment(account: account, device: device))
    }

    /// Judges a key from 3 evaluations whose reports are due within 1 s, and suspends it after 2 s of non-compliance.
    private func suspendingService() throws -> LiveService {
        let config = try LiveService.configFolder(rateLimits: """
            {"formatVersion": 1, "key": {"ratePerSecond": 100, "burst": 200},
             "compliance": {"windowSeconds": 60, "minimumJudged": 3, "threshold": 0.2, "reducedRateFactor": 0.5,
                            "suspendAfterSeconds": 2}}
            """)
        // Read at start only.
        defer { try? FileManager.default.removeItem(atPath: config) }
        return try LiveService { configuration in
            configuration.configDir = config
            configuration.consumptionDeadlineSeconds = 1
        }
    }

    @Test func aKeysOwnLimitAnswers429WithRetryAfterAndRateLimitFields() throws {
        let service = try LiveService()
        let key = try KeyIssuer(store: service.runtime.store).issue(
            tenant: TenantID("acme")!, role: .client, environment: .sandbox, rate: 0.01, burst: 2, now: Clock.nowMilliseconds()).revealed
        // A token every 100 s: no refill can come between the three requests, however slow the build.
        let first = try evaluate(service, key: key, device: "d1")
        #expect(first.status == 200)
        #expect(first.header("RateLimit-Policy") == "\"key\";q=2;w=200")
        #expect(first.header("RateLimit") == "\"key\";r=1;t=100")
        #expect(try evaluate(service, key: key, device: "d2").status == 200)
        let refused = try evaluate(service, key: key, device: "d3")
        #expect(refused.status == 429)
        #expect(refused.header("Content-Type") == "application/problem+json")
        #expect(Int(refused.header("Retry-After") ?? "") ?? 0 >= 1)
        #expect(refused.header("RateLimit-Policy") == "\"key\";q=2;w=200")
        #expect(refused.header("RateLimit")?.hasPrefix("\"key\";r=0;t=") == true)
        let problem = try jsonObject(refused)
        #expect(problem["evaluationError"] as? String == "rateLimitExceeded")
        #expect((problem["type"] as? String)?.hasSuffix("rate-limit-exceeded") == true)
        // Another key of the same tenant is not affected.
        #expect(try evaluate(service, key: service.key(), device: "d4").status == 200)
    }

    /// A 429 forced by the sandbox override costs what a real refusal costs: nothing.
    @Test func aForcedRefusalCostsTheKeyNothing() throws {
        let service = try LiveService()
        let key = try KeyIssuer(store: service.runtime.store).issue(
            tenant: TenantID("acme")!, role: .client, environment: .sandbox, rate: 0.01, burst: 2, now: Clock.nowMilliseconds()).revealed
        for _ in 0..<3 {
            let forced = try service.client().request("POST", "/v1/evaluations", headers: [
                ("Authorization", "Bearer \(key)"), ("Content-Type", "application/json"),
                ("Trust-Insights-Override-Evaluation-Error", "rateLimitExceeded"),
            ], body: Requests.payment(account: "acct-forced", device: "dev-forced"))
            #expect(forced.status == 429)
        }
        // The burst of 2 is whole.
        #expect(try evaluate(service, key: key, device: "f1").status == 200)
        #expect(try evaluate(service, key: key, device: "f2").status == 200)
    }

    /// An override header a production key may not send, or a misspelt one, is refused before the rate limit is
    /// consulted, however the request's bytes arrive. Before, a request whose body came with its header section (one
    /// write, as here) spent a token on the refusal, and one whose body came later did not (found by a black-box probe).
    @Test func anOverrideRefusalCostsTheKeyNothing() throws {
        let service = try LiveService()
        let issuer = KeyIssuer(store: service.runtime.store)
        let production = try issuer.issue(
            tenant: TenantID("acme")!, role: .client, environment: .production, rate: 0.01, burst: 2, now: Clock.nowMilliseconds()).revealed
        let sandbox = try issuer.issue(
            tenant: TenantID("acme")!, role: .client, environment: .sandbox, rate: 0.01, burst: 2, now: Clock.nowMilliseconds()).revealed
        for (key, header, type) in [
            (production, "Trust-Insights-Override-Outcome", "override-not-allowed"),
            (sandbox, "Trust-Insights-Override-Outcomes", "invalid-override"),
        ] {
            for _ in 0..<3 {
                let refused = try service.client().request("POST", "/v1/evaluations", headers: [
                    ("Authorization", "Bearer \(key)"), ("Content-Type", "application/json"), (header, "high"),
                ], body: Requests.payment(account: "acct-refused", device: "dev-refused"))
                #expect(refused.status == 400)
                #expect(try jsonObject(refused)["type"] as? String == "https://trust-insights.dev/problems/\(type)")
                #expect(refused.header("RateLimit") == nil)
            }
            // The burst of 2 is whole.
            let first = try evaluate(service, key: key, device: "o1")
            #expect(first.status == 200)
            #expect(first.header("RateLimit") == "\"key\";r=1;t=100")
            #expect(try evaluate(service, key: key, device: "o2").status == 200)
        }
    }

    @Test func oneDeviceIsLimitedOnItsOwn() throws {
        // The shipped policy refills a token a second, which a slow build's 22 requests could outlast; this one
        // refills every 100 s.
        let config = try LiveService.configFolder(rateLimits: """
            {"formatVersion": 1, "key": {"ratePerSecond": 200, "burst": 400}, "device": {"ratePerSecond": 0.01, "burst": 20}}
            """)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let service = try LiveService { $0.configDir = config }
        let key = try service.key()
        var statuses: [Int] = []
        for index in 0..<21 { statuses.append(try evaluate(service, key: key, device: "busy-device", account: "acct-\(index)").status) }
        #expect(statuses.prefix(20).allSatisfy { $0 == 200 })
        let refused = try evaluate(service, key: key, device: "busy-device", account: "acct-x")
        #expect(refused.status == 429)
        #expect(refused.header("RateLimit-Policy") == "\"device\";q=20;w=2000")
        #expect(try jsonObject(refused)["evaluationError"] as? String == "rateLimitExceeded")
        #expect(try evaluate(service, key: key, device: "quiet-device").status == 200)
    }

    /// The device's refusals cost the key nothing: after one device is refused again and again, the app's other
    /// devices still have the key's allowance less only what was answered.
    @Test func aRequestTheDeviceLimitRefusesCostsTheKeyNothing() throws {
        let config = try LiveService.configFolder(rateLimits: """
            {"formatVersion": 1, "key": {"ratePerSecond": 0.01, "burst": 30}, "device": {"ratePerSecond": 0.01, "burst": 2}}
            """)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let service = try LiveService { $0.configDir = config }
        let key = try service.key()
        for index in 0..<2 { #expect(try evaluate(service, key: key, device: "busy", account: "acct-\(index)").status == 200) }
        for index in 2..<10 { #expect(try evaluate(service, key: key, device: "busy", account: "acct-\(index)").status == 429) }
        let other = try evaluate(service, key: key, device: "quiet", account: "acct-q")
        #expect(other.status == 200)
        // 30, less the two answered on the busy device and this one: 27 (the eight refusals would have left 19).
        #expect(other.header("RateLimit")?.hasPrefix("\"key\";r=27;") == true, "\(other.header("RateLimit") ?? "none")")
    }

    @Test func nonReportingKeysAreCutThenSuspendedUntilReinstated() throws {
        let service = try suspendingService()
        let key = try service.key()
        // The report follows its evaluation at once, so that it is on time (1 s) however slow the build.
        var evaluated: [LiveService.Evaluated] = [try service.evaluate(key: key, account: "acct-c0")]
        let reported = try service.post(
            "/v1/evaluations/\(evaluated[0].evaluationID)/consumption", key: key,
            body: #"{"status": "usedUnchangedFriction", "insightIDsUsed": []}"#)
        #expect(reported.status == 201)
        for index in 1..<4 { evaluated.append(try service.evaluate(key: key, account: "acct-c\(index)")) }
        Thread.sleep(forTimeInterval: 3.2)

        let compliance = try service.client().request("GET", "/v1/compliance", headers: [("Authorization", "Bearer \(key)")])
        #expect(compliance.status == 200)
        let figures = try jsonObject(compliance)
        #expect(figures["standing"] as? String == "rateReduced")
        #expect(figures["evaluationsJudged"] as? Int == 4)
        #expect(figures["reportedOnTime"] as? Int == 1)
        #expect(figures["missing"] as? Int == 3)
        #expect(figures["suspendsAt"] is String)
        #expect((figures["rateLimit"] as? [String: Any])?["burst"] as? Int == 100)
        let cut = try evaluate(service, key: key)
        #expect(cut.status == 200)
        #expect(cut.header("RateLimit-Policy") == "\"key\";q=100;w=2")

        Thread.sleep(forTimeInterval: 2.1)
        // The first request to find the key due stores the suspension, whichever route it is: here a read of the
        // figures, which a suspended key may still make.
        let due = try service.client().request("GET", "/v1/compliance", headers: [("Authorization", "Bearer \(key)")])
        #expect(due.status == 200)
        #expect(try jsonObject(due)["standing"] as? String == "suspended")
        #expect(try service.count("SELECT count(*) FROM api_key WHERE status = 'suspended'") == 1)
        #expect(service.logs.lines.contains { $0.contains("key suspended for not reporting consumption") })
        let scrape = try service.client().request("GET", "/metrics").text
        #expect(scrape.contains("\ntrust_insights_keys_suspended_total 1\n"), "\(scrape)")
        let suspended = try evaluate(service, key: key)
        #expect(suspended.status == 403)
        #expect((try jsonObject(suspended)["type"] as? String)?.hasSuffix("access-revoked") == true)
        #expect(try evaluate(service, key: key).status == 403)
        // Suspended, it may still catch up on its reports and read that it is suspended, once the key table says so
        // (the service reloads it within a second).
        Thread.sleep(forTimeInterval: 1.2)
        let overdue = try service.post(
            "/v1/evaluations/\(evaluated[1].evaluationID)/consumption", key: key,
            body: #"{"status": "usedUnchangedFriction", "insightIDsUsed": []}"#)
        #expect(overdue.status == 201)
        #expect(try jsonObject(overdue)["late"] as? Bool == true)
        let stillSuspended = try service.client().request("GET", "/v1/compliance", headers: [("Authorization", "Bearer \(key)")])
        #expect(stillSuspended.status == 200)
        #expect(try jsonObject(stillSuspended)["standing"] as? String == "suspended")
        #expect(try service.client().request("GET", "/v1/models", headers: [("Authorization", "Bearer \(key)")]).status == 403)
        // The person's own choice: an opt-in (or back to notDetermined) is recorded, so suspending the app cannot hold
        // back someone turning protection on again; an opt-out, a read or a malformed body is refused.
        func authorization(_ method: String, _ body: String?) throws -> SocketClient.Response {
            try service.client().request(method, "/v1/authorization/acct-opt-in", headers: [
                ("Authorization", "Bearer \(key)"), ("Content-Type", "application/json"),
            ], body: body.map { Array($0.utf8) })
        }
        for status in ["authorized", "notDetermined"] {
            #expect(try authorization("PUT", #"{"status": "\#(status)"}"#).status == 200, "\(status)")
        }
        for body in [#"{"status": "denied"}"#, #"{"status": "deniedRequestable"}"#, #"{"status": 1}"#, "{"] {
            let refused = try authorization("PUT", body)
            #expect(refused.status == 403, "\(body)")
            #expect((try jsonObject(refused)["type"] as? String)?.hasSuffix("access-revoked") == true, "\(body)")
        }
        #expect(try authorization("GET", nil).status == 403)

        // What `trust-insights keys reinstate` does; the key then gets a fresh suspension period.
        let keyID = try #require(APIKeySecret(presented: key)?.keyID)
        try service.runtime.store.setKeyStatus(keyID: keyID, to: .active, now: Clock.nowMilliseconds())
        Thread.sleep(forTimeInterval: 5.2)
        #expect(try evaluate(service, key: key).status == 200)
    }

    /// A key that stops evaluating and only sends (late) reports is still suspended when its time comes: the report
    /// that finds the suspension due stores it, as an evaluation or a read of the figures would.
    @Test func aKeyThatOnlyReportsIsSuspendedByTheReportThatFindsItDue() throws {
        let service = try suspendingService()
        let key = try service.key()
        let evaluated = try (0..<4).map { try service.evaluate(key: key, account: "acct-r\($0)") }
        Thread.sleep(forTimeInterval: 3.2)
        func report(_ index: Int) throws -> SocketClient.Response {
            try service.post(
                "/v1/evaluations/\(evaluated[index].evaluationID)/consumption", key: key,
                body: #"{"status": "notUsedError", "insightIDsUsed": []}"#)
        }
        // Late, so still missing: the first report finds the key non-compliant and starts its clock.
        #expect(try report(0).status == 201)
        #expect(try service.count("SELECT count(*) FROM api_key WHERE status = 'suspended'") == 0)
        Thread.sleep(forTimeInterval: 2.1)
        // Past the suspension time, the next report is still taken, and stores the suspension.
        #expect(try report(1).status == 201)
        #expect(try service.count("SELECT count(*) FROM api_key WHERE status = 'suspended'") == 1)
        #expect(service.logs.lines.contains { $0.contains("key suspended for not reporting consumption") })
        #expect(try evaluate(service, key: key).status == 403)
    }

    @Test func complianceTakesNoQueryParameters() throws {
        let service = try LiveService()
        let key = try service.key()
        let keyID = try #require(APIKeySecret(presented: key)?.keyID)
        for query in ["keyID=\(keyID)", "bogus=1", "%00=1"] {
            let response = try service.client().request("GET", "/v1/compliance?\(query)", headers: [("Authorization", "Bearer \(key)")])
            #expect(response.status == 400, "\(query)")
            #expect((try jsonObject(response)["type"] as? String)?.hasSuffix("invalid-parameter") == true)
        }
        #expect(try service.client().request("GET", "/v1/compliance", headers: [("Authorization", "Bearer \(key)")]).status == 200)
    }

    @Test func complianceIsForClientKeysOnly() throws {
        let service = try LiveService()
        let partner = try service.key(role: .partner)
        let response = try service.client().request("GET", "/v1/compliance", headers: [("Authorization", "Bearer \(partner)")])
        #expect(response.status == 403)
        #expect(try service.client().request("GET", "/v1/compliance").status == 401)
        let fresh = try service.client().request("GET", "/v1/compliance", headers: [("Authorization", "Bearer \(service.key())")])
        #expect(fresh.status == 200)
        #expect(try jsonObject(fresh)["standing"] as? String == "compliant")
        #expect(fresh.header("Cache-Control") == "no-store")
    }
}
