import Foundation
import InsightCrypto
import Testing
@testable import TrustInsightsApp

@Suite(.serialized) struct SigningKeyRotationTests {
    @Test func rotatedKeySignsNewPayloadsWhileTheOldOneStaysPublished() throws {
        let service = try LiveService()
        let key = try service.key()
        let before = service.runtime.signer.activeKeyID
        let newKid = try SigningKeyFiles(directory: service.dataDirectory + "/signing-keys").rotate()
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
        #expect(service.logs.lines.contains { $0.contains("signing keys reload refused") && $0.contains("no signing key in") })
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
