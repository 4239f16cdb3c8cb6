import Dispatch
import Foundation
import InsightCore
import InsightStore
import Synchronization
import Testing
@testable import TrustInsightsApp

@Suite(.serialized) struct OperationsTests {
    @Test func healthReadinessAndMetricsAnswerAsOperatorsExpect() throws {
        let service = try LiveService()
        let client = try service.client()
        let health = try client.request("GET", "/healthz")
        #expect(health.status == 200)
        #expect(health.header("X-Request-ID") != nil)
        let ready = try client.request("GET", "/readyz")
        #expect(ready.status == 200)
        #expect(ready.text.contains("\"storageWritable\":true"))
        let echoed = try client.request("GET", "/healthz", headers: [("X-Request-ID", "ops-check-1")])
        #expect(echoed.header("X-Request-ID") == "ops-check-1")
        // The ID is echoed and logged: an API key pasted into it is neither (a fresh ID stands in).
        let keyShaped = "ti_production_k0123456789abcdef_" + String(repeating: "A", count: 43)
        let replaced = try client.request("GET", "/healthz", headers: [("X-Request-ID", keyShaped)])
        #expect(replaced.status == 200)
        #expect(replaced.header("X-Request-ID").map { !$0.contains("ti_production_") } == true)

        // A method the route does not serve, and OPTIONS answered by the server, count under their route.
        #expect(try client.request("DELETE", "/v1/models").status == 405)
        #expect(try client.request("OPTIONS", "/v1/evaluations").status == 204)
        #expect(try client.request("GET", "/nowhere").status == 404)

        let metrics = try client.request("GET", "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.text.contains(#"method="DELETE",route="/v1/models",status="405""#), "\(metrics.text)")
        #expect(metrics.text.contains(#"method="OPTIONS",route="/v1/evaluations",status="204""#))
        #expect(metrics.text.contains(#"method="GET",route="-",status="404""#))
        #expect(metrics.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
        #expect(metrics.text.contains("http_requests_total{"))
        #expect(metrics.text.contains("route=\"/healthz\""))
        #expect(metrics.text.contains("http_request_duration_seconds_bucket"))
        #expect(metrics.text.contains("trust_insights_model_generation 1"))
        // The readiness probe above committed a write through the store's writer.
        func value(_ name: String) -> Double? {
            metrics.text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
        }
        #expect((value("trust_insights_store_writes_total") ?? 0) >= 1)
        #expect((value("trust_insights_store_batches_total") ?? 0) >= 1)
        #expect(value("trust_insights_store_checkpoint_catchups_total") != nil)
        // How full the velocity tracker is, for both of its bounds.
        #expect(value("trust_insights_velocity_tracked_accounts") == 0)
        #expect(value("trust_insights_velocity_tracked_counterparties") == 0)
        for environment in ["sandbox", "production"] {
            #expect(value("trust_insights_velocity_evicted_accounts_total{environment=\"\(environment)\"}") == 0)
            #expect(value("trust_insights_velocity_evicted_counterparties_total{environment=\"\(environment)\"}") == 0)
        }
        // Opt-outs held in memory, and those past memory's cap that only the store keeps: a client flooding them
        // shows here.
        #expect(value("trust_insights_authorization_opt_outs_held") == 0)
        #expect(value("trust_insights_authorization_opt_outs_in_store_only") == 0)
        let key = try service.key(role: .client)
        let optOut = try client.request(
            "PUT", "/v1/authorization/ops-subject-1", headers: [("Authorization", "Bearer " + key), ("Content-Type", "application/json")],
            body: Array(#"{"status":"denied"}"#.utf8))
        #expect(optOut.status == 200, "\(optOut.text)")
        let afterOptOut = try client.request("GET", "/metrics").text
        #expect(afterOptOut.contains("\ntrust_insights_authorization_opt_outs_held 1\n"), "\(afterOptOut)")

        // Draining (as on SIGTERM) and starting both answer 503, so load balancers stop sending traffic.
        service.runtime.readiness.set(.draining)
        let draining = try client.request("GET", "/readyz")
        #expect(draining.status == 503)
        #expect(draining.text.contains("\"phase\":\"draining\""))
        service.runtime.readiness.set(.starting)
        #expect(try client.request("GET", "/readyz").status == 503)
        service.runtime.readiness.set(.ready)
        #expect(try client.request("GET", "/readyz").status == 200)

        // The access log has one JSON line per request with the route template, never a query value.
        _ = try client.request("GET", "/healthz?secret=q-value-77")
        let lines = service.logs.lines.filter { $0.contains("\"event\":\"request\"") }
        #expect(lines.contains { $0.contains("\"route\":\"/readyz\"") && $0.contains("\"status\":503") })
        #expect(!service.logs.lines.contains { $0.contains("q-value-77") })
    }

    /// Refusals can be traced to a key from the access log alone: each line names the key ID the credential
    /// claims (a wrong secret's too), and never a secret.
    @Test func theAccessLogNamesTheKeyIDOfEachRequestAndNoSecret() throws {
        let service = try LiveService()
        let client = try service.client()
        let key = try service.key(role: .client)
        let keyID = try #require(APIKeySecret(presented: key)?.keyID)
        // The secret is what follows `ti_<env>_<keyID>_`; it may hold underscores itself (base64url).
        let secret = String(key.dropFirst("ti_sandbox_\(keyID)_".count))
        let wrongSecret = key.dropLast(4) + (key.hasSuffix("AAAA") ? "BBBB" : "AAAA")
        func line(_ requestID: String) -> String? {
            service.logs.lines.first { $0.contains("\"event\":\"request\"") && $0.contains("\"requestID\":\"\(requestID)\"") }
        }

        #expect(try client.request("GET", "/v1/models", headers: [("Authorization", "Bearer " + key), ("X-Request-ID", "log-ok")]).status == 200)
        #expect(try client.request("GET", "/v1/models", headers: [("Authorization", "Bearer " + wrongSecret), ("X-Request-ID", "log-wrong")]).status == 401)
        #expect(try client.request("GET", "/v1/models", headers: [("Authorization", "Bearer not-a-key-" + secret), ("X-Request-ID", "log-garbage")]).status == 401)
        #expect(try client.request("GET", "/v1/models", headers: [("X-Request-ID", "log-none")]).status == 401)
        #expect(try client.request("GET", "/v1/models", headers: [
            ("Authorization", "Bearer " + key), ("Authorization", "Bearer " + key), ("X-Request-ID", "log-two"),
        ]).status == 400)

        #expect(try #require(line("log-ok")).contains("\"keyID\":\"\(keyID)\""))
        #expect(try #require(line("log-wrong")).contains("\"keyID\":\"\(keyID)\""))
        for requestID in ["log-garbage", "log-none", "log-two"] {
            #expect(try !#require(line(requestID)).contains("keyID"), "\(requestID): no key of our shape, no keyID")
        }
        let wrongPart = String(wrongSecret.dropFirst("ti_sandbox_\(keyID)_".count))
        #expect(!service.logs.lines.contains { $0.contains(secret) || $0.contains(wrongPart) })
    }

    /// A sandbox key's forced 503 or 429 is the answer the app asked for: `/metrics` counts it apart, so an alert on
    /// the 5xx rate does not fire for an app testing its error handling, and its access-log line says so.
    @Test func answersASandboxOverrideForcedAreCountedApartFromRequests() throws {
        let service = try LiveService()
        let key = try service.key(role: .client)
        for (error, requestID) in [("serverError", "forced-1"), ("notAvailable", "forced-2"), ("rateLimitExceeded", "forced-3")] {
            let response = try service.post("/v1/evaluations", key: key, body: String(decoding: Requests.payment(), as: UTF8.self), headers: [
                ("Trust-Insights-Override-Evaluation-Error", error), ("X-Request-ID", requestID),
            ])
            #expect(response.status == (error == "rateLimitExceeded" ? 429 : 503))
        }
        // A real refusal (a body of the wrong shape, with the override too) is no simulation.
        let malformed = try service.post("/v1/evaluations", key: key, body: "{", headers: [
            ("Trust-Insights-Override-Evaluation-Error", "serverError"), ("X-Request-ID", "real-400"),
        ])
        #expect(malformed.status == 400)
        _ = try service.evaluate(key: key)
        let metrics = try service.client().request("GET", "/metrics").text
        #expect(metrics.contains(#"http_simulated_responses_total{method="POST",route="/v1/evaluations",status="503"} 2"#), "\(metrics)")
        #expect(metrics.contains(#"http_simulated_responses_total{method="POST",route="/v1/evaluations",status="429"} 1"#))
        #expect(!metrics.contains(#"http_requests_total{method="POST",route="/v1/evaluations",status="503"}"#))
        #expect(!metrics.contains(#"http_requests_total{method="POST",route="/v1/evaluations",status="429"}"#))
        #expect(metrics.contains(#"http_requests_total{method="POST",route="/v1/evaluations",status="400"} 1"#))
        #expect(metrics.contains(#"http_requests_total{method="POST",route="/v1/evaluations",status="200"} 1"#))
        let lines = service.logs.lines.filter { $0.contains("\"event\":\"request\"") }
        for requestID in ["forced-1", "forced-2", "forced-3"] {
            #expect(lines.contains { $0.contains("\"requestID\":\"\(requestID)\"") && $0.contains("\"simulated\":true") }, "\(requestID)")
        }
        #expect(lines.contains { $0.contains("\"requestID\":\"real-400\"") && !$0.contains("simulated") })
    }

    /// A tenant whose row is gone from the database (its keys still there) cannot hash its subject refs: its
    /// requests answer 503, and the log says which tenant and why, once, however many requests follow.
    @Test func aTenantWithoutItsSubjectKeyIsNamedInTheLogOnce() throws {
        let service = try LiveService()
        let key = try service.key(role: .client)
        do {
            let connection = try SQLiteConnection(path: service.dataDirectory + "/" + SQLiteStore.fileName)
            try connection.execute("PRAGMA foreign_keys=OFF")
            try connection.execute("DELETE FROM tenant WHERE tenant_id = 'acme'")
        }
        for requestID in ["no-tenant-1", "no-tenant-2"] {
            let response = try service.post("/v1/evaluations", key: key, body: String(decoding: Requests.payment(), as: UTF8.self), headers: [("X-Request-ID", requestID)])
            #expect(response.status == 503, "\(response.text)")
        }
        let authorization = try service.client().request("GET", "/v1/authorization/acct-1", headers: [("Authorization", "Bearer " + key)])
        #expect(authorization.status == 503, "\(authorization.text)")
        let lines = service.logs.lines.filter { $0.contains("\"event\":\"tenant has no subject key\"") }
        #expect(lines.count == 1, "\(service.logs.lines)")
        #expect(lines.first?.contains("\"level\":\"error\"") == true && lines.first?.contains("\"tenant\":\"acme\"") == true)
        #expect(lines.first?.contains("restore the database from a backup") == true)
    }

    /// A database whose tenant rows were removed by hand says so at start, naming the tenants; with the keys removed
    /// too, it says no key is left (such a folder started without a word; regression probe, 7 December).
    @Test func aStartOnDamagedTenantsNamesThemAndSaysWhenNoKeyIsLeft() throws {
        let dataDir = NSTemporaryDirectory() + "tenant-integrity-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        do {
            let service = try LiveService { $0.dataDir = dataDir }
            service.removesDataFolder = false
            _ = try service.evaluate(key: try service.key())
            #expect(!service.logs.lines.contains { $0.contains("tenants without a subject key") || $0.contains("no API keys") })
        }
        func damage(_ sql: String) throws {
            let connection = try SQLiteConnection(path: dataDir + "/" + SQLiteStore.fileName)
            try connection.execute("PRAGMA foreign_keys=OFF")
            try connection.execute(sql)
        }
        try damage("DELETE FROM tenant")
        do {
            let service = try LiveService { $0.dataDir = dataDir }
            service.removesDataFolder = false
            let line = try #require(service.logs.lines.first { $0.contains("\"tenants without a subject key\"") })
            #expect(line.contains("\"level\":\"error\"") && line.contains("\"tenants\":[\"acme\",\"demo\"]"), "\(line)")
            #expect(!service.logs.lines.contains { $0.contains("no API keys") })
        }
        try damage("DELETE FROM api_key")
        let service = try LiveService { $0.dataDir = dataDir }
        #expect(service.logs.lines.contains { $0.contains("\"no API keys\"") && $0.contains("\"level\":\"warning\"") })
        #expect(!service.logs.lines.contains { $0.contains("\"first start\"") }, "evaluations are kept: no first start")
    }

    /// A cooldown under an hour is allowed (tests and demos), but it gives up the protection against a person
    /// coached into opting out: the start-up log says so, once, and a default start says nothing.
    @Test func aShortAuthorizationCooldownIsNamedAtStartUp() throws {
        let short = try LiveService { $0.authorizationCooldownSeconds = 0 }
        let warnings = short.logs.lines.filter { $0.contains("\"authorization cooldown is short\"") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("\"level\":\"warning\"") == true && warnings.first?.contains("\"authorizationCooldownMilliseconds\":0") == true)
        // With 0 the opt-out is immediate, which "within the hour" would understate (authorization probe).
        #expect(warnings.first?.contains("takes effect at once") == true)
        let justUnder = try LiveService { $0.authorizationCooldownSeconds = 3599.5 }
        #expect(justUnder.logs.lines.contains { $0.contains("\"authorization cooldown is short\"") && $0.contains("\"authorizationCooldownMilliseconds\":3599500") && $0.contains("within the hour") })
        let usual = try LiveService()
        #expect(!usual.logs.lines.contains { $0.contains("authorization cooldown") })
        #expect(!usual.logs.lines.contains { $0.contains("consumption deadline") })
    }

    /// A deadline of 0 makes every report late, so every app is cut and then suspended: allowed, but named.
    @Test func aShortConsumptionDeadlineIsNamedAtStartUp() throws {
        let zero = try LiveService { $0.consumptionDeadlineSeconds = 0 }
        let warnings = zero.logs.lines.filter { $0.contains("\"consumption deadline is short\"") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("\"level\":\"warning\"") == true && warnings.first?.contains("\"consumptionDeadlineMilliseconds\":0") == true)
        let minute = try LiveService { $0.consumptionDeadlineSeconds = 60 }
        #expect(!minute.logs.lines.contains { $0.contains("consumption deadline") })
    }

    /// A mistyped config or models folder is a setting to correct (exit 2, named), found before anything is opened.
    @Test func aMissingConfigOrModelsFolderStopsStartUpNamingTheSetting() {
        for key in ["configDir", "modelsDir"] {
            let nowhere = NSTemporaryDirectory() + "trust-insights-nowhere-" + UUID().uuidString
            let data = NSTemporaryDirectory() + "trust-insights-unopened-" + UUID().uuidString
            #expect(throws: CommandLineError.configuration(key: key, message: "\(nowhere) is not a folder")) {
                _ = try LiveService { configuration in
                    configuration.dataDir = data
                    if key == "configDir" { configuration.configDir = nowhere } else { configuration.modelsDir = nowhere }
                }
            }
            #expect(!FileManager.default.fileExists(atPath: data), "the data folder is not created for a start that cannot succeed")
        }
    }

    /// The service holds each evaluation's record until its event loop finishes the pass that handled it, then
    /// commits the pass's records together on that loop. Every answer still waits for its commit (the durability
    /// suite kills the process to check that); here, every evaluation is answered, and concurrent ones share commits.
    @Test func evaluationRecordsAreCommittedByTheEventLoopsAndShareCommits() throws {
        let service = try LiveService()
        // A limit well above what the test sends: this checks the writer, not the rate limiter.
        let key = try KeyIssuer(store: service.runtime.store).issue(
            tenant: TenantID("acme")!, role: .client, environment: .sandbox, rate: 100_000, burst: 100_000,
            now: Clock.nowMilliseconds()).revealed
        func value(_ name: String) throws -> Double {
            let text = try service.client().request("GET", "/metrics").text
            return text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) } ?? -1
        }
        // A new key is picked up within a second (keys are reloaded on a miss, at most so often).
        for _ in 0..<40 {
            if (try? service.evaluate(key: key, account: "acct-held-warm-up")) != nil { break }
            usleep(50_000)
        }
        let writesBefore = try value("trust_insights_store_writes_total")
        let batchesBefore = try value("trust_insights_store_batches_total")
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for round in 0..<25 {
                // A device of its own per request: the per-device limit (1/s) is not what this checks either.
                let body = Requests.payment(account: "acct-held-\(worker)", device: "dev-held-\(worker)-\(round)")
                let response = try? service.client().request("POST", "/v1/evaluations", headers: [
                    ("Authorization", "Bearer \(key)"), ("Content-Type", "application/json"),
                ], body: body)
                if response?.status != 200 { failures.add(1, ordering: .relaxed) }
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        let writes = try value("trust_insights_store_writes_total") - writesBefore
        let batches = try value("trust_insights_store_batches_total") - batchesBefore
        #expect(writes >= 200)
        #expect(batches >= 1 && batches <= writes)
        print("held-writes check: \(Int(writes)) writes in \(Int(batches)) batches")
    }
}
