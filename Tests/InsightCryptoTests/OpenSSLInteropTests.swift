import Foundation
import Testing
@testable import InsightCrypto

/// Checks our ES256 against an independent implementation: the openssl command-line tool.
@Suite(.enabled(if: TestSupport.hasOpenSSL, "the openssl CLI is not on PATH; interop not checked"))
struct OpenSSLInteropTests {
    @Test func opensslVerifiesOurSignatures() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = try ES256PrivateKey.generate()
        let message = Array("payload to be verified by openssl".utf8)
        let signer = ES256Signer(privateKey: key)
        let publicKeyFile = directory.appendingPathComponent("pub.pem")
        let messageFile = directory.appendingPathComponent("message.bin")
        try key.publicKey.pemRepresentation.write(to: publicKeyFile, atomically: true, encoding: .utf8)
        try Data(message).write(to: messageFile)
        for (index, raw) in try [signer.sign(message), key.signature(for: message)].enumerated() {
            let signatureFile = directory.appendingPathComponent("sig\(index).der")
            try Data(ES256SignatureEncoding.derSignature(fromRaw: raw)).write(to: signatureFile)
            let result = try #require(try TestSupport.run("openssl", [
                "dgst", "-sha256", "-verify", publicKeyFile.path, "-signature", signatureFile.path, messageFile.path,
            ]))
            #expect(result.status == 0, "\(result.errorOutput)")
            #expect(result.output.contains("Verified OK"))
        }
        // And openssl must reject a signature of a different message.
        let wrong = try signer.sign(Array("another message".utf8))
        let wrongFile = directory.appendingPathComponent("wrong.der")
        try Data(ES256SignatureEncoding.derSignature(fromRaw: wrong)).write(to: wrongFile)
        let rejected = try #require(try TestSupport.run("openssl", [
            "dgst", "-sha256", "-verify", publicKeyFile.path, "-signature", wrongFile.path, messageFile.path,
        ]))
        #expect(rejected.status != 0)
    }

    @Test func weVerifyOpensslSignatures() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("key.pem")
        let messageFile = directory.appendingPathComponent("message.bin")
        let signatureFile = directory.appendingPathComponent("sig.der")
        let message = Array("signed by openssl".utf8)
        try Data(message).write(to: messageFile)
        let generated = try #require(try TestSupport.run("openssl", [
            "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", keyFile.path,
        ]))
        #expect(generated.status == 0)
        let signed = try #require(try TestSupport.run("openssl", [
            "dgst", "-sha256", "-sign", keyFile.path, "-out", signatureFile.path, messageFile.path,
        ]))
        #expect(signed.status == 0)
        let privateKey = try ES256PrivateKey(pemRepresentation: String(contentsOf: keyFile, encoding: .utf8))
        let raw = try ES256SignatureEncoding.rawSignature(fromDER: [UInt8](Data(contentsOf: signatureFile)))
        #expect(privateKey.publicKey.isValidSignature(raw, for: message))
        #expect(!privateKey.publicKey.isValidSignature(raw, for: Array("tampered".utf8)))
    }

    @Test func opensslReadsOurPrivateKeyAndDerivesTheSamePublicKey() throws {
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = try ES256PrivateKey.generate()
        let keyFile = directory.appendingPathComponent("key.pem")
        try key.pemRepresentation.write(to: keyFile, atomically: true, encoding: .utf8)
        let result = try #require(try TestSupport.run("openssl", ["pkey", "-in", keyFile.path, "-pubout"]))
        #expect(result.status == 0)
        #expect(try ES256PublicKey(pemRepresentation: result.output) == key.publicKey)
        #expect(result.output == key.publicKey.pemRepresentation)
    }
}
