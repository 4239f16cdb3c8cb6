import Foundation
import InsightCrypto
import InsightService
import Synchronization
import Testing
@testable import TrustInsightsApp

@Suite(.serialized) struct SigningKeyRotationTests {
    @Test func rotatedKeySignsNewPayloadsWhileTheOldOneStaysPublished() throws {
        let service = try LiveService()
        let key = try service.key()
        let before = service.runtime.signer.activeKeyID
        guard case .created(let newKid) = try SigningKeyFiles(directory: service.dataDirectory + "/signing-keys").rotate() else {
            Issue.record("no key created"); return
        }
        service.runtime.reload()
        #expect(service.runtime.signer.activeKeyID == newKid)
        #expect(newKid != before)

        let published = try service.client().request("GET", "/v1/signing-keys")
        let keys = try #require((try JSONSerialization.jsonObject(with: Data(published.body)) as? [String: Any])?["keys"] as? [[String: Any]])
        #expect(Set(keys.compactMap { $0["kid"] as? String }) == [before, newKid])
        #expect(keys.first { $0["kid"] as? String == newKid }?["status"] as? String == "active")
        #expect(keys.first { $0["kid"] as? String == before }?["status"] as? String == "retired")

        let response = try service.client().request("POST", "/v1/evaluations", headers: [
            ("Authorization", "Bearer \(key)"), ("Content-Type", "application/json"),
        ], body: Requests.payment())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let payloadText = try #require(object["signedPayload"] as? String)
        let signed = try #require(Data(base64Encoded: payloadText))
        let newKey = try ES256PublicKey(jwkX: keys.first { $0["kid"] as? String == newKid }!["x"] as! String,
                                        y: keys.first { $0["kid"] as? String == newKid }!["y"] as! String)
        #expect(COSESign1.verify(Array(signed), publicKeys: [newKid: newKey]) != nil)
        #expect(service.logs.lines.contains { $0.contains("signing keys reloaded") && $0.contains(newKid) })
    }

    /// The key set carries a strong entity tag: a verifier asking again with If-None-Match is told 304 while the
    /// set is unchanged, and gets the new set (and tag) once a rotation changed it.
    @Test func theKeySetAnswersNotModifiedUntilARotationChangesIt() throws {
        let service = try LiveService()
        let first = try service.client().request("GET", "/v1/signing-keys")
        let tag = try #require(first.header("ETag"))
        #expect(tag.count == 34 && tag.hasPrefix("\"") && tag.hasSuffix("\""))
        let again = try service.client().request("GET", "/v1/signing-keys", headers: [("If-None-Match", tag)])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(again.header("ETag") == tag)
        #expect(again.header("Cache-Control") == "no-cache")
        let head = try service.client().request("HEAD", "/v1/signing-keys", headers: [("If-None-Match", "W/" + tag)])
        #expect(head.status == 304)

        _ = try SigningKeyFiles(directory: service.dataDirectory + "/signing-keys").rotate()
        service.runtime.reload()
        let changed = try service.client().request("GET", "/v1/signing-keys", headers: [("If-None-Match", tag)])
        #expect(changed.status == 200)
        #expect(try #require(changed.header("ETag")) != tag)
        let keys = (try JSONSerialization.jsonObject(with: Data(changed.body)) as? [String: Any])?["keys"] as? [Any]
        #expect(keys?.count == 2)
    }

    /// A staged key is published from the reload on, while the old key signs; from its time the server signs with
    /// it by itself, without another reload, and the key set says so.
    @Test func aStagedKeyIsPublishedAtOnceAndSignsFromItsTimeWithoutAReload() throws {
        let service = try LiveService()
        let key = try service.key()

        func keySet() throws -> [String: [String: Any]] {
            let published = try service.client().request("GET", "/v1/signing-keys")
            let keys = try #require((try JSONSerialization.jsonObject(with: Data(published.body)) as? [String: Any])?["keys"] as? [[String: Any]])
            return Dictionary(uniqueKeysWithValues: keys.map { ($0["kid"] as! String, $0) })
        }
        func signingKid() throws -> String? {
            let response = try service.client().request("POST", "/v1/evaluations", headers: [
                ("Authorization", "Bearer \(key)"), ("Content-Type", "application/json"),
            ], body: Requests.payment())
            let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
            let text = try #require(object["signedPayload"] as? String)
            let signed = try #require(Data(base64Encoded: text))
            let keys = try keySet()
            let publicKeys = try keys.mapValues { try ES256PublicKey(jwkX: $0["x"] as! String, y: $0["y"] as! String) }
            // The key whose kid the message names and whose signature holds, checked one key at a time.
            return publicKeys.first { COSESign1.verify(Array(signed), publicKeys: [$0.key: $0.value]) != nil }?.key
        }

        // What is seen before the staged time says something only if it was all seen before that time: on a host
        // slow enough (a sanitizer build under a parallel run) for the time to come while looking, the key is let
        // switch and another is staged further ahead.
        var lead: TimeInterval = 3
        var before = service.runtime.signer.activeKeyID
        var at = Date()
        var staged = ""
        while true {
            before = service.runtime.signer.activeKeyID
            at = Date().addingTimeInterval(lead)
            guard case .staged(let kid, _) = try SigningKeyFiles(directory: service.dataDirectory + "/signing-keys").rotate(at: at) else {
                Issue.record("nothing staged"); return
            }
            staged = kid
            service.runtime.reload()
            let reloaded = service.logs.lines.contains { $0.contains("signing keys reloaded") && $0.contains(#""stagedKeyIDs":"\#(staged)""#) }
            let keys = try keySet()
            let signedBy = try signingKid()
            let activeKeyID = service.runtime.signer.activeKeyID
            if Date() < at {
                #expect(reloaded)
                #expect(keys[before]?["status"] as? String == "active")
                #expect(keys[staged]?["status"] as? String == "staged")
                #expect(signedBy == before)
                #expect(activeKeyID == before)
                break
            }
            guard lead < 100 else { Issue.record("the staged time came while looking, even \(lead) s ahead"); return }
            Thread.sleep(forTimeInterval: max(0, at.timeIntervalSinceNow) + 0.05)
            lead *= 4
        }

        Thread.sleep(forTimeInterval: max(0, at.timeIntervalSinceNow) + 0.05)
        #expect(try signingKid() == staged)
        let keys = try keySet()
        #expect(keys[staged]?["status"] as? String == "active")
        #expect(keys[before]?["status"] as? String == "retired")
        #expect(service.runtime.signer.activeKeyID == staged)
        #expect(service.logs.lines.filter { $0.contains("signing key switched") && $0.contains(staged) }.count == 1)
    }

    /// A server started (not sent SIGHUP) after a key was staged publishes it at once, and its `listening` line
    /// names it beside the active key.
    @Test func aRestartPicksUpAStagedKeyAndSaysSo() throws {
        var first: LiveService? = try LiveService()
        let dataDir = try #require(first?.dataDirectory)
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        first?.removesDataFolder = false
        let active = try #require(first?.runtime.signer.activeKeyID)
        first = nil
        guard case .staged(let staged, _) = try SigningKeyFiles(directory: dataDir + "/signing-keys").rotate(at: Date().addingTimeInterval(3600)) else {
            Issue.record("nothing staged"); return
        }
        let second = try LiveService { $0.dataDir = dataDir }
        #expect(second.runtime.signer.activeKeyID == active)
        #expect(second.runtime.signer.publishedKeys.map(\.status) == [.active, .staged])
        let listening = try #require(second.logs.lines.first { $0.contains(#""event":"listening""#) })
        #expect(listening.contains(#""signingKeyID":"\#(active)""#) && listening.contains(#""stagedKeyIDs":"\#(staged)""#), "\(listening)")
    }

    /// The switch to a staged key, under a clock of the test's own: once and forward only, a reload keeps the key
    /// that signs even when the clock has gone back, and a staged key withdrawn before its time never signs.
    @Test func theSignerSwitchesOnceAtTheStagedTimeAndNeverBack() throws {
        let directory = NSTemporaryDirectory() + "payload-signer-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = SigningKeyFiles(directory: directory)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let original = try files.loadOrCreate(now: start).active.kid
        guard case .staged(let staged, _) = try files.rotate(now: start, at: start.addingTimeInterval(60)) else {
            Issue.record("nothing staged"); return
        }
        let now = Atomic<Int64>(1_800_000_000_000)
        let switches = Mutex<[String]>([])
        let signer = try PayloadSigner(directory: directory, clock: { now.load(ordering: .relaxed) }) { kid in
            switches.withLock { $0.append(kid) }
        }
        func signedBy() throws -> String? {
            let message = try signer.sign(Array("payload".utf8))
            return signer.publishedKeys.first { COSESign1.verify(message, publicKeys: [$0.kid: $0.publicKey]) != nil }?.kid
        }
        #expect(try signedBy() == original)
        #expect(signer.publishedKeys.map(\.status) == [.active, .staged])
        now.store(1_800_000_059_999, ordering: .relaxed)
        #expect(try signedBy() == original)
        now.store(1_800_000_060_000, ordering: .relaxed)
        #expect(try signedBy() == staged)
        #expect(signer.publishedKeys.map(\.status) == [.retired, .active])
        #expect(switches.withLock { $0 } == [staged])

        now.store(1_800_000_030_000, ordering: .relaxed)
        #expect(try signedBy() == staged)
        try signer.reload()
        #expect(try signedBy() == staged)
        #expect(switches.withLock { $0 } == [staged])

        // A key staged and then withdrawn (its file deleted, SIGHUP) before its time.
        guard case .staged(let withdrawn, _) = try files.rotate(now: start.addingTimeInterval(70), at: start.addingTimeInterval(120)) else {
            Issue.record("nothing staged"); return
        }
        now.store(1_800_000_070_000, ordering: .relaxed)
        try signer.reload()
        #expect(signer.publishedKeys.map(\.status) == [.retired, .active, .staged])
        try files.remove(kid: withdrawn, now: start.addingTimeInterval(70))
        try signer.reload()
        now.store(1_800_000_200_000, ordering: .relaxed)
        #expect(try signedBy() == staged)
        #expect(signer.publishedKeys.map(\.kid) == [original, staged])
    }

    /// A reload that finds the key folder emptied (halfway through a restore, say) keeps the keys in memory and
    /// says so, where it used to make a new key: start-up refuses that state, and so does a reload.
    @Test func aReloadFindingNoKeyKeepsSigningWithTheOldOne() throws {
        let service = try LiveService()
        let before = service.runtime.signer.activeKeyID
        let folder = service.dataDirectory + "/signing-keys"
        let aside = service.dataDirectory + "/keys-aside"
        try FileManager.default.moveItem(atPath: folder, toPath: aside)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        service.runtime.reload()
        #expect(service.runtime.signer.activeKeyID == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        // The line names the key that still signs (operator probe, 7 December).
        #expect(service.logs.lines.contains {
            $0.contains("signing keys reload refused") && $0.contains("no signing key in") && $0.contains(#""activeKeyID":"\#(before)""#)
        })
        let response = try service.client().request("POST", "/v1/evaluations", headers: [
            ("Authorization", "Bearer \(try service.key())"), ("Content-Type", "application/json"),
        ], body: Requests.payment())
        #expect(response.status == 200)
        try FileManager.default.removeItem(atPath: folder)

        // The folder gone altogether: refused the same way, and nothing is made in its place, so keys moved back
        // land where they were and not one level down in a new empty folder.
        service.runtime.reload()
        #expect(!FileManager.default.fileExists(atPath: folder))
        #expect(service.runtime.signer.activeKeyID == before)
        try FileManager.default.moveItem(atPath: aside, toPath: folder)
        service.runtime.reload()
        #expect(service.runtime.signer.activeKeyID == before)
        let metrics = try service.client().request("GET", "/metrics").text
        #expect(metrics.contains(#"trust_insights_reloads_total{part="signingKeys",result="refused"} 2"#), "\(metrics)")
        #expect(metrics.contains(#"trust_insights_reloads_total{part="signingKeys",result="applied"} 1"#))
    }
}
