import Foundation
import Testing
@testable import InsightCrypto

@Suite struct COSESign1Tests {
    let payload = Array(#"{"evaluationID":"ev_1","requestID":"req-42"}"#.utf8)

    /// A COSE_Sign1 produced independently with Python's cbor2 and cryptography for the key below (kid
    /// a5ca80d50543880f, the key's SHA-256 SPKI thumbprint prefix) over `payload`.
    static let pythonPublicKeyPEM = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEGa+itAPTmVqHEsnBatGkMWKag0R4
        kpMoGHwX6YoCZJZUYuMkSk/Q1Bn4GXJGREK4Sf/KPU81PPK7dR4Ky9rFJw==
        -----END PUBLIC KEY-----
        """
    static let pythonMessageBase64 = "0oRDoQEmoQRQYTVjYTgwZDUwNTQzODgwZlgseyJldmFsdWF0aW9uSUQiOiJldl8xIiwicmVxdWVzdElEIjoicmV"
        + "xLTQyIn1YQHrsqi7mN8tCSsjMOWFkCXz6hNqKxcvIHH5lERPlZLwMA14jYmHcUgmuOKc+bB+wkNQAMx30aSphwUf5uWRqUYA="

    struct Fixture {
        let key: ES256PrivateKey
        let publicKey: ES256PublicKey
        let kid: String
        let signer: ES256Signer

        init() throws {
            key = try ES256PrivateKey.generate()
            publicKey = key.publicKey
            kid = publicKey.keyID
            signer = ES256Signer(privateKey: key)
        }
    }

    @Test func messageMatchesTheHandDecodedLayoutByteForByte() throws {
        let fixture = try Fixture()
        let message = try COSESign1.sign(payload: payload, kid: fixture.kid, signer: fixture.signer)
        var expected: [UInt8] = [
            0xd2,                   // tag 18 (COSE_Sign1)
            0x84,                   // array of 4
            0x43, 0xa1, 0x01, 0x26, // bstr(3) << {1: -7} >>: protected alg ES256
            0xa1, 0x04, 0x50,       // {4: bstr(16) ...}: unprotected kid
        ]
        expected += Array(fixture.kid.utf8)
        expected += [0x58, UInt8(payload.count)] + payload // bstr(44) payload
        expected += [0x58, 0x40]                           // bstr(64) signature
        #expect(message.count == expected.count + 64)
        #expect(Array(message.prefix(expected.count)) == expected)

        // The signature covers Sig_structure ["Signature1", h'a10126', h'', payload], written out by hand.
        var signatureStructure: [UInt8] = [0x84, 0x6a] + Array("Signature1".utf8) + [0x43, 0xa1, 0x01, 0x26, 0x40]
        signatureStructure += [0x58, UInt8(payload.count)] + payload
        #expect(COSESign1.signatureStructure(protected: [0xa1, 0x01, 0x26], payload: payload) == signatureStructure)
        let signature = Array(message.suffix(64))
        #expect(fixture.publicKey.isValidSignature(signature, for: signatureStructure))
    }

    @Test func verifyReturnsThePayloadForTheRightKey() throws {
        let fixture = try Fixture()
        let message = try COSESign1.sign(payload: payload, kid: fixture.kid, signer: fixture.signer)
        let other = try ES256PrivateKey.generate().publicKey
        #expect(COSESign1.verify(message, publicKeys: [other.keyID: other, fixture.kid: fixture.publicKey]) == payload)
    }

    @Test func verifyRefusesTamperingAndUnknownKeys() throws {
        let fixture = try Fixture()
        let message = try COSESign1.sign(payload: payload, kid: fixture.kid, signer: fixture.signer)
        let keys = [fixture.kid: fixture.publicKey]
        let payloadStart = 9 + 16 + 2
        var tamperedPayload = message
        tamperedPayload[payloadStart + 5] ^= 0x01
        #expect(throws: COSEError.invalidSignature) { try COSESign1.verifiedPayload(tamperedPayload, publicKeys: keys) }
        var tamperedSignature = message
        tamperedSignature[message.count - 1] ^= 0x01
        #expect(throws: COSEError.invalidSignature) {
            try COSESign1.verifiedPayload(tamperedSignature, publicKeys: keys)
        }
        let other = try ES256PrivateKey.generate().publicKey
        #expect(throws: COSEError.unknownKeyID(fixture.kid)) {
            try COSESign1.verifiedPayload(message, publicKeys: [other.keyID: other])
        }
        // The right kid pointing at the wrong key must fail on the signature.
        #expect(throws: COSEError.invalidSignature) {
            try COSESign1.verifiedPayload(message, publicKeys: [fixture.kid: other])
        }
        #expect(COSESign1.verify(Array(message.dropFirst()), publicKeys: keys) == nil) // untagged
        #expect(COSESign1.verify(Array(message.dropLast()), publicKeys: keys) == nil)  // truncated
    }

    @Test func verifyRefusesOtherAlgorithmsAndCriticalHeadersEvenWhenSigned() throws {
        let fixture = try Fixture()
        let keys = [fixture.kid: fixture.publicKey]
        func message(protected header: [CBOR: CBOR], unprotected: [CBOR: CBOR] = [:]) throws -> [UInt8] {
            let protected = CBOR.map(header).encoded()
            let signature = try fixture.signer.sign(COSESign1.signatureStructure(protected: protected, payload: payload))
            var unprotectedHeader = unprotected
            unprotectedHeader[.integer(4)] = .byteString(Array(fixture.kid.utf8))
            return CBOR.tagged(18, .array([
                .byteString(protected), .map(unprotectedHeader), .byteString(payload), .byteString(signature),
            ])).encoded()
        }
        let es384 = try message(protected: [.integer(1): .integer(-35)])
        #expect(throws: COSEError.unsupportedAlgorithm) { try COSESign1.verifiedPayload(es384, publicKeys: keys) }
        let overridden = try message(protected: [.integer(1): .integer(-7)], unprotected: [.integer(1): .integer(-35)])
        #expect(throws: COSEError.unsupportedAlgorithm) { try COSESign1.verifiedPayload(overridden, publicKeys: keys) }
        let critical = try message(protected: [.integer(1): .integer(-7), .integer(2): .array([.integer(99)])])
        #expect(throws: COSEError.criticalHeaders) { try COSESign1.verifiedPayload(critical, publicKeys: keys) }
        // Sanity: the same construction with a plain ES256 header verifies, so the refusals above are for the header.
        let plain = try message(protected: [.integer(1): .integer(-7)])
        #expect(try COSESign1.verifiedPayload(plain, publicKeys: keys) == payload)
    }

    @Test func everySingleBitFlipAndEveryTruncationIsRejected() throws {
        let fixture = try Fixture()
        let message = try COSESign1.sign(payload: Array("{}".utf8), kid: fixture.kid, signer: fixture.signer)
        let keys = [fixture.kid: fixture.publicKey]
        #expect(COSESign1.verify(message, publicKeys: keys) == Array("{}".utf8))
        for index in message.indices {
            for bit in [0x01, 0x80] as [UInt8] {
                var flipped = message
                flipped[index] ^= bit
                #expect(COSESign1.verify(flipped, publicKeys: keys) == nil, "byte \(index) bit \(bit)")
            }
        }
        for length in 0..<message.count {
            #expect(COSESign1.verify(Array(message.prefix(length)), publicKeys: keys) == nil, "length \(length)")
        }
        #expect(COSESign1.verify(message + [0x00], publicKeys: keys) == nil)
    }

    @Test func randomBytesNeverVerifyOrCrash() throws {
        let fixture = try Fixture()
        let keys = [fixture.kid: fixture.publicKey]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let count = Int.random(in: 0..<64, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if !bytes.isEmpty { bytes[0] = 0xd2 } // start like a COSE_Sign1 so that decoding goes deeper
            #expect(COSESign1.verify(bytes, publicKeys: keys) == nil)
        }
    }

    @Test func verifiesAMessageMadeByPythonCBOR2AndCryptography() throws {
        let publicKey = try ES256PublicKey(pemRepresentation: Self.pythonPublicKeyPEM)
        let message = [UInt8](try #require(Data(base64Encoded: Self.pythonMessageBase64)))
        #expect(COSESign1.verify(message, publicKeys: ["a5ca80d50543880f": publicKey]) == payload)
        var tampered = message
        tampered[40] ^= 0x01
        #expect(COSESign1.verify(tampered, publicKeys: ["a5ca80d50543880f": publicKey]) == nil)
    }

    @Test(.enabled(if: TestSupport.hasPythonCOSEModules,
                   "SKIPPED: python3 with cbor2 and cryptography not found (pip install cbor2 cryptography)"))
    func pythonVerifierAcceptsOurMessagesAndRejectsTamperedOnes() throws {
        let fixture = try Fixture()
        let directory = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let publicKeyFile = directory.appendingPathComponent("pub.pem")
        try fixture.publicKey.pemRepresentation.write(to: publicKeyFile, atomically: true, encoding: .utf8)
        let script = TestSupport.packageRoot.appendingPathComponent("scripts/verify_cose.py").path
        let message = try COSESign1.sign(payload: payload, kid: fixture.kid, signer: fixture.signer)

        func python(_ message: [UInt8], kid: String) throws -> TestSupport.ProcessResult {
            try #require(try TestSupport.run(
                "python3", [script, "-", publicKeyFile.path, "--kid", kid, "--print-payload"],
                input: Data(Data(message).base64EncodedString().utf8)))
        }
        let accepted = try python(message, kid: fixture.kid)
        #expect(accepted.status == 0, "\(accepted.errorOutput)")
        #expect(Array(accepted.output.utf8) == payload)
        var tampered = message
        tampered[30] ^= 0x01
        #expect(try python(tampered, kid: fixture.kid).status == 1)
        #expect(try python(message, kid: "0000000000000000").status == 1)
        // Steps 2 and 3 of docs/SIGNED-PAYLOAD.md: nothing after the message, no critical headers.
        #expect(try python(message + [0x00], kid: fixture.kid).status == 1)
        // {1: -7, 2: [99]}, properly signed: a header the verifier must understand and does not.
        let criticalHeader: [UInt8] = [0xA2, 0x01, 0x26, 0x02, 0x81, 0x18, 0x63]
        var writer = CBORWriter(reservingCapacity: 256)
        writer.writeTag(COSESign1.tag)
        writer.writeArrayHead(count: 4)
        writer.writeByteString(criticalHeader)
        writer.writeMapHead(count: 1)
        writer.writeInteger(COSESign1.keyIDLabel)
        writer.writeByteString(Array(fixture.kid.utf8))
        writer.writeByteString(payload)
        writer.writeByteString(try fixture.signer.sign(COSESign1.signatureStructure(protected: criticalHeader, payload: payload)))
        #expect(try python(writer.bytes, kid: fixture.kid).status == 1)
    }
}
