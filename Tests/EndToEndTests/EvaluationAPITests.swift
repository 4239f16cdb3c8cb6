import Foundation
import Testing
import InsightCrypto
@testable import TrustInsightsApp

@Suite(.serialized, .sharedLiveService) struct EvaluationAPITests {
    let service: LiveService
    let clientKey: String

    init() throws {
        service = try SharedLiveService.service()
        clientKey = try service.key()
    }

    private func evaluate(_ body: [UInt8], key: String? = nil, headers: [(String, String)] = []) throws -> SocketClient.Response {
        try service.client().request("POST", "/v1/evaluations", headers: [
            ("Authorization", "Bearer \(key ?? clientKey)"), ("Content-Type", "application/json"),
        ] + headers, body: body)
    }

    private func json(_ response: SocketClient.Response) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    @Test func answersEveryRequestedInsightWithTheWireNames() throws {
        let response = try evaluate(Requests.payment())
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        let object = try json(response)
        #expect(object["requestID"] as? String == "req-1")
        #expect(object["environment"] as? String == "sandbox")
        #expect((object["evaluationID"] as? String)?.count == 36)
        #expect(object["generationTimestamp"] is String && object["serverTimestamp"] is String)
        let insights = try #require(object["insights"] as? [[String: Any]])
        #expect(insights.count == 2)
        #expect(insights[0]["isUsingCurrentModel"] as? Bool == true)
        #expect(insights[1]["modelVersion"] as? String == "2026.09.1")
        #expect(insights[1]["isUsingCurrentModel"] as? Bool == false)
        for insight in insights {
            let outcome = try #require(insight["outcome"] as? [String: String])
            #expect(["unknown", "medium", "high"].contains(outcome["value"] ?? ""))
            #expect(insight["reasonCodes"] is [String])
        }
    }

    @Test func signedPayloadVerifiesWithThePublishedKeyAndMatchesTheAnswer() throws {
        let response = try evaluate(Requests.payment(requestID: "sign-check"))
        let object = try json(response)
        let signedPayload = try #require(object["signedPayload"] as? String)
        let cose = try #require(Data(base64Encoded: signedPayload))
        let keysResponse = try service.client().request("GET", "/v1/signing-keys")
        #expect(keysResponse.status == 200)
        let keys = try #require((try JSONSerialization.jsonObject(with: Data(keysResponse.body)) as? [String: Any])?["keys"] as? [[String: Any]])
        var publicKeys: [String: ES256PublicKey] = [:]
        for key in keys {
            publicKeys[key["kid"] as! String] = try ES256PublicKey(jwkX: key["x"] as! String, y: key["y"] as! String)
        }
        let payload = try #require(COSESign1.verify(Array(cose), publicKeys: publicKeys))
        let signed = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
        #expect(signed["requestID"] as? String == "sign-check")
        #expect(signed["evaluationID"] as? String == object["evaluationID"] as? String)
        #expect((signed["insights"] as? [[String: Any]])?.count == 2)
        // An independent implementation agrees, when Python's cbor2 and cryptography are installed (CI installs cbor2).
        let script = LiveService.repositoryRoot + "/scripts/verify_cose.py"
        if FileManager.default.fileExists(atPath: script), pythonCanImport("cbor2, cryptography") {
            let pem = publicKeys.values.first!.pemRepresentation
            let pemPath = service.dataDirectory + "/verify.pem"
            try pem.write(toFile: pemPath, atomically: true, encoding: .utf8)
            let messagePath = service.dataDirectory + "/verify.b64"
            try cose.base64EncodedString().write(toFile: messagePath, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", script, messagePath, pemPath]
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
    }

    @Test func rejectsUnknownFieldsAndInvalidFeaturesWithPathsButNeverValues() throws {
        let canary = "987654.321"
        let body = Requests.payment(features: #""activeCall": 1, "screenSharingActive": 0, "sessionDurationSeconds": \#(canary), "timeOfDayBand": 2, "amountBandRelativeToUsual": 3, "favouriteColour": 5"#)
        var text = String(decoding: body, as: UTF8.self)
        text = text.replacingOccurrences(of: "\"operationCategory\"", with: "\"email\": \"a@b.c\", \"operationCategory\"")
        let response = try evaluate(Array(text.utf8))
        #expect(response.status == 400)
        #expect(response.header("Content-Type") == "application/problem+json")
        let problem = try json(response)
        #expect(problem["type"] as? String == "https://trust-insights.dev/problems/context-invalid")
        #expect(problem["evaluationError"] as? String == "contextInvalid")
        let pointers = Set(((problem["errors"] as? [[String: String]]) ?? []).compactMap { $0["pointer"] })
        #expect(pointers == ["/email"] || pointers.isSuperset(of: ["/email"]))
        #expect(!response.text.contains(canary))
        #expect(!response.text.contains("a@b.c"))
        // Features are checked once the shape is right.
        let features = try evaluate(Requests.payment(features: #""activeCall": 1, "screenSharingActive": 0, "sessionDurationSeconds": \#(canary), "timeOfDayBand": 9, "amountBandRelativeToUsual": 3, "favouriteColour": 5"#))
        let featureProblem = try json(features)
        let featurePointers = Set(((featureProblem["errors"] as? [[String: String]]) ?? []).compactMap { $0["pointer"] })
        #expect(featurePointers == ["/features/sessionDurationSeconds", "/features/timeOfDayBand", "/features/favouriteColour"])
        #expect(!features.text.contains(canary))
    }

    @Test func malformedJSONAndWrongMediaTypeAreClear4xx() throws {
        let malformed = try evaluate(Array(#"{"requestID": "x",}"#.utf8))
        #expect(malformed.status == 400)
        #expect(try json(malformed)["type"] as? String == "https://trust-insights.dev/problems/malformed-json")
        let wrongType = try service.client().request("POST", "/v1/evaluations", headers: [
            ("Authorization", "Bearer \(clientKey)"), ("Content-Type", "text/plain"),
        ], body: Requests.payment())
        #expect(wrongType.status == 415)
    }

    @Test func authenticationAndRolesAreEnforced() throws {
        #expect(try evaluate(Requests.payment(), key: "nope").status == 401)
        let noKey = try service.client().request("POST", "/v1/evaluations", headers: [("Content-Type", "application/json")], body: Requests.payment())
        #expect(noKey.status == 401)
        #expect(noKey.header("WWW-Authenticate") != nil)
        let analyst = try service.key(role: .analyst)
        #expect(try evaluate(Requests.payment(), key: analyst).status == 403)
    }

    @Test func sandboxOverridesWorkAndProductionRefusesThem() throws {
        let forced = try evaluate(Requests.payment(), headers: [("Trust-Insights-Override-Outcome", "high")])
        let insights = try #require(try json(forced)["insights"] as? [[String: Any]])
        #expect(insights.allSatisfy { ($0["outcome"] as? [String: String])?["value"] == "high" })
        let insightError = try evaluate(Requests.payment(), headers: [("Trust-Insights-Override-Insight-Error", "insightEvaluationFailed")])
        let errored = try #require(try json(insightError)["insights"] as? [[String: Any]])
        #expect(errored.allSatisfy { ($0["outcome"] as? [String: String])?["error"] == "insightEvaluationFailed" })
        let evaluationError = try evaluate(Requests.payment(), headers: [("Trust-Insights-Override-Evaluation-Error", "rateLimitExceeded")])
        #expect(evaluationError.status == 429)
        #expect(evaluationError.header("Retry-After") != nil)
        let invalid = try evaluate(Requests.payment(), headers: [("Trust-Insights-Override-Evaluation-Error", "contextInvalid")])
        #expect(invalid.status == 400)
        #expect(try json(invalid)["detail"] as? String == "the body is refused because a sandbox override forced contextInvalid")
        let production = try service.key(environment: .production)
        let refused = try evaluate(Requests.payment(), key: production, headers: [("Trust-Insights-Override-Outcome", "high")])
        #expect(refused.status == 400)
        #expect(try json(refused)["type"] as? String == "https://trust-insights.dev/problems/override-not-allowed")
        #expect(try errorPointers(refused) == ["Trust-Insights-Override-Outcome"])
    }

    @Test func unknownVersionIsAnInsightErrorThatSparesTheOthers() throws {
        let response = try evaluate(Requests.payment(insights: #"{"insightType": "isLikelyBeingCoached", "schema": "version1", "modelVersion": {"specific": "1999.01.1"}}, {"insightType": "isLikelyBeingCoached", "schema": "version1"}"#))
        #expect(response.status == 200)
        let insights = try #require(try json(response)["insights"] as? [[String: Any]])
        #expect((insights[0]["outcome"] as? [String: String])?["error"] == "insightVersionUnavailable")
        #expect((insights[1]["outcome"] as? [String: String])?["value"] != nil)
    }

    @Test func optOutTakesEffectAfterCooldownOptInAtOnce() throws {
        let client = try service.client()
        let headers = [("Authorization", "Bearer \(clientKey)"), ("Content-Type", "application/json")]
        let initial = try client.request("GET", "/v1/authorization/acct-optout", headers: headers)
        #expect(initial.status == 200)
        #expect(try json(initial)["status"] as? String == "notDetermined")
        let denied = try client.request("PUT", "/v1/authorization/acct-optout", headers: headers, body: Array(#"{"status": "denied"}"#.utf8))
        let deniedState = try json(denied)
        #expect(deniedState["status"] as? String == "notDetermined")
        #expect(deniedState["pendingStatus"] as? String == "denied")
        #expect(try evaluate(Requests.payment(account: "acct-optout")).status == 200)
        let bad = try client.request("PUT", "/v1/authorization/acct-optout", headers: headers, body: Array(#"{"status": "off", "note": "x"}"#.utf8))
        #expect(bad.status == 400)
        let pointers = Set(((try json(bad)["errors"] as? [[String: String]]) ?? []).compactMap { $0["pointer"] })
        #expect(pointers == ["/status", "/note"])
    }

    @Test func featureValuesAndRawRefsNeverReachStorageOrLogs() throws {
        let canaryNumber = "86399.123456"
        let canaryRef = "canary-account-ref-5f1d"
        // The answer repeats requestID and an unknown insight type to the client, but nothing keeps them.
        let canaryRequestID = "canary-request-7c2e"
        let canaryType = "canaryInsightType3b9a"
        let insights = #"{"insightType": "isLikelyBeingCoached", "schema": "version1"}, {"insightType": "\#(canaryType)", "schema": "version1"}"#
        for index in 0..<5 {
            let response = try evaluate(Requests.payment(
                requestID: canaryRequestID, account: canaryRef, device: "canary-device-\(index)",
                features: #""activeCall": 1, "screenSharingActive": 0, "sessionDurationSeconds": \#(canaryNumber), "timeOfDayBand": 2, "amountBandRelativeToUsual": 3"#,
                insights: insights))
            #expect(response.status == 200)
            #expect(response.text.contains(canaryType) && response.text.contains("insightUnavailable"))
        }
        let stored = try service.storedBytes()
        #expect(!stored.isEmpty)
        for canary in [canaryNumber, canaryRef, "canary-device-", canaryRequestID, canaryType] {
            #expect(!stored.contains(canary), "found \(canary) in the database files")
            #expect(!service.logs.lines.contains { $0.contains(canary) }, "found \(canary) in the logs")
        }
    }

    /// The shipped models of some categories answer `high` from an account's earlier highs alone
    /// (`highOutcomesPerAccount7d`). Two coached requests, then harmless ones: had those answers counted as highs,
    /// the third would make `repeatedHighOutcomes` fire, and the account would stay `high` for as long as it was
    /// evaluated (docs/VELOCITY.md, "High outcomes").
    @Test func harmlessRequestsAfterTwoHighsNeverFireTheRepeatedHighsRule() throws {
        func other(_ features: String) -> [UInt8] {
            Array("""
                {"operationCategory": "other", "requestedInsights": [{"insightType": "isLikelyBeingCoached", "schema": "version1"}],
                 "subject": {"accountRef": "acct-history-loop", "deviceRef": "dev-history-loop"}, "features": {\(features)}}
                """.utf8)
        }
        let coached = #""activeCall": 1, "callDurationSeconds": 1500, "callerKnownToPerson": 0, "screenSharingActive": 1, "remoteAccessAppActive": 1, "hesitationMillis": 20000, "appSwitchesDuringFlow": 12, "pasteEventsInFlow": 3, "irreversibleOperation": 1, "permissionGrantInFlow": 1, "sessionDurationSeconds": 900, "timeOfDayBand": 3"#
        let harmless = #""activeCall": 0, "screenSharingActive": 0, "sessionDurationSeconds": 60, "timeOfDayBand": 2, "irreversibleOperation": 0"#
        func insight(_ body: [UInt8]) throws -> [String: Any] {
            let response = try evaluate(body)
            try #require(response.status == 200, "\(response.status)")
            return try #require((try json(response)["insights"] as? [[String: Any]])?.first)
        }
        for _ in 0..<2 {
            try #require((try insight(other(coached))["outcome"] as? [String: String]) == ["value": "high"], "the shipped model no longer finds this coached")
        }
        for round in 0..<4 {
            let reasons = try #require(try insight(other(harmless))["reasonCodes"] as? [String])
            #expect(!reasons.contains("repeatedHighOutcomes"), "round \(round): \(reasons)")
        }
    }

    @Test func listsModelsForAnyKey() throws {
        let partner = try service.key(role: .partner)
        let response = try service.client().request("GET", "/v1/models", headers: [("Authorization", "Bearer \(partner)")])
        #expect(response.status == 200)
        #expect(response.text.contains("\"currentVersion\":\"2026.11.1\""))
        #expect(response.text.contains("\"2026.09.1\""))
    }
}
