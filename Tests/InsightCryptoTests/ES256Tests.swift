import Foundation
import Testing
@testable import InsightCrypto

@Suite struct ES256Tests {
    let message = Array(#"{"evaluationID":"ev_1","requestID":"req-42"}"#.utf8)

    @Test func signatureVerifiesWithTheMatchingPublicKey() throws {
        let key = try ES256PrivateKey.generate()
        let signature = try key.signature(for: message)
        #expect(signature.count == 64)
        #expect(key.publicKey.isValidSignature(signature, for: message))
    }

    @Test func signerSignaturesVerifyAndDifferEachTime() throws {
        let key = try ES256PrivateKey.generate()
        let signer = ES256Signer(privateKey: key)
        let first = try signer.sign(message)
        let second = try signer.sign(message)
        #expect(first != second) // ECDSA draws a fresh nonce per signature
        #expect(key.publicKey.isValidSignature(first, for: message))
        #expect(key.publicKey.isValidSignature(second, for: message))
    }

    @Test func tamperedMessageOrSignatureFails() throws {
        let key = try ES256PrivateKey.generate()
        let signature = try ES256Signer(privateKey: key).sign(message)
        var tamperedMessage = message
        tamperedMessage[3] ^= 0x20
        #expect(!key.publicKey.isValidSignature(signature, for: tamperedMessage))
        for index in [0, 31, 32, 63] {
            var tamperedSignature = signature
            tamperedSignature[index] ^= 0x01
            #expect(!key.publicKey.isValidSignature(tamperedSignature, for: message), "byte \(index)")
        }
    }

    @Test func anotherKeysSignatureFails() throws {
        let signature = try ES256PrivateKey.generate().signature(for: message)
        #expect(try !ES256PrivateKey.generate().publicKey.isValidSignature(signature, for: message))
    }

    @Test func malformedSignaturesAreInvalidNotErrors() throws {
        let publicKey = try ES256PrivateKey.generate().publicKey
        #expect(!publicKey.isValidSignature([], for: message))
        #expect(!publicKey.isValidSignature([UInt8](repeating: 0, count: 64), for: message))
        #expect(!publicKey.isValidSignature([UInt8](repeating: 0xff, count: 64), for: message))
        #expect(!publicKey.isValidSignature([UInt8](repeating: 1, count: 65), for: message))
    }

    @Test func emptyMessageSignsAndVerifies() throws {
        let key = try ES256PrivateKey.generate()
        let signature = try ES256Signer(privateKey: key).sign([])
        #expect(key.publicKey.isValidSignature(signature, for: []))
    }

    @Test func signerIsSafeFromManyThreadsAtOnce() async throws {
        let key = try ES256PrivateKey.generate()
        let publicKey = key.publicKey
        let signer = ES256Signer(privateKey: key)
        let allValid = try await withThrowingTaskGroup(of: Bool.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    try (0..<25).allSatisfy { index in
                        let message = Array("worker \(worker) message \(index)".utf8)
                        return publicKey.isValidSignature(try signer.sign(message), for: message)
                    }
                }
            }
            return try await group.reduce(true) { $0 && $1 }
        }
        #expect(allValid)
    }

    @Test func privateKeyPEMRoundTripsAsPKCS8() throws {
        let key = try ES256PrivateKey.generate()
        let pem = key.pemRepresentation
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let reloaded = try ES256PrivateKey(pemRepresentation: pem)
        #expect(reloaded.publicKey == key.publicKey)
        #expect(try key.publicKey.isValidSignature(reloaded.signature(for: message), for: message))
    }

    @Test func publicKeyRoundTripsThroughPEMDERPointAndJWK() throws {
        let publicKey = try ES256PrivateKey.generate().publicKey
        let pem = publicKey.pemRepresentation
        #expect(pem.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        #expect(try ES256PublicKey(pemRepresentation: pem) == publicKey)
        #expect(try ES256PublicKey(derRepresentation: publicKey.derRepresentation) == publicKey)
        let point = publicKey.x963Representation
        #expect(point.count == 65 && point[0] == 0x04)
        #expect(try ES256PublicKey(x963Representation: point) == publicKey)
        let jwk = publicKey.jwk
        #expect(jwk.x.count == 43 && jwk.y.count == 43)
        #expect(try ES256PublicKey(jwkX: jwk.x, y: jwk.y) == publicKey)
        // SPKI DER for P-256 is a fixed 26-byte header followed by the uncompressed point.
        #expect(publicKey.derRepresentation.count == 91)
        #expect(Array(publicKey.derRepresentation.suffix(65)) == point)
    }

    @Test func knownPublicKeyHasKnownKeyIDAndJWK() throws {
        // Key, kid and JWK coordinates produced independently with Python's cryptography, hashlib and base64.
        let pem = """
        -----BEGIN PUBLIC KEY-----
        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEGa+itAPTmVqHEsnBatGkMWKag0R4
        kpMoGHwX6YoCZJZUYuMkSk/Q1Bn4GXJGREK4Sf/KPU81PPK7dR4Ky9rFJw==
        -----END PUBLIC KEY-----
        """
        let publicKey = try ES256PublicKey(pemRepresentation: pem)
        #expect(publicKey.keyID == "a5ca80d50543880f")
        #expect(publicKey.keyID == String(SHA256.hex(publicKey.derRepresentation).prefix(16)))
        #expect(publicKey.jwk.x == "Ga-itAPTmVqHEsnBatGkMWKag0R4kpMoGHwX6YoCZJY")
        #expect(publicKey.jwk.y == "VGLjJEpP0NQZ-BlyRkRCuEn_yj1PNTzyu3UeCsvaxSc")
    }

    @Test func pointOffTheCurveIsRejected() throws {
        var point = try ES256PrivateKey.generate().publicKey.x963Representation
        point[64] ^= 0x01
        #expect(throws: CryptoError.self) { try ES256PublicKey(x963Representation: point) }
    }

    @Test func garbageAndWrongKindsOfPEMAreRejected() throws {
        #expect(throws: CryptoError.self) { try ES256PrivateKey(pemRepresentation: "not a key") }
        #expect(throws: CryptoError.self) { try ES256PrivateKey(pemRepresentation: "") }
        let publicPEM = try ES256PrivateKey.generate().publicKey.pemRepresentation
        #expect(throws: CryptoError.self) { try ES256PrivateKey(pemRepresentation: publicPEM) }
        #expect(throws: CryptoError.self) { try ES256PublicKey(derRepresentation: [0x30, 0x00]) }
    }

    @Test(.enabled(if: TestSupport.hasOpenSSL, "needs the openssl CLI to make a P-384 key"))
    func otherCurvesAreRejectedAsUnsupported() throws {
        let result = try #require(try TestSupport.run(
            "openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"]))
        #expect(result.status == 0)
        #expect {
            try ES256PrivateKey(pemRepresentation: result.output)
        } throws: { error in
            guard case CryptoError.unsupportedKey = error else { return false }
            return true
        }
    }

    /// A key file whose SubjectPublicKeyInfo, and so its kid, differs from the one a verifier rebuilds from the
    /// published JWK is refused: P-256 spelt out with explicit parameters (signing probe, 6 December), or its public
    /// point kept compressed (regression probe), in SEC 1 and PKCS#8, private and public. The same key re-encoded
    /// in the usual form is taken, with the kid of the key it came from.
    @Test(.enabled(if: TestSupport.hasOpenSSL, "needs the openssl CLI to re-encode keys"),
          arguments: [(["-param_enc", "explicit"], "explicit curve parameters"), (["-conv_form", "compressed"], "public point compressed")])
    func keysWhoseKidCouldNotBeRecomputedFromTheJWKAreRejected(encoding: [String], reason expected: String) throws {
        func openssl(_ arguments: [String], _ pem: String) throws -> String {
            let result = try #require(try TestSupport.run("openssl", arguments, input: Data(pem.utf8)))
            #expect(result.status == 0, "\(arguments): \(result.errorOutput)")
            return result.output
        }
        let named = try ES256PrivateKey.generate()
        let odd = try openssl(["ec"] + encoding, named.pemRepresentation)
        for pem in [odd, try openssl(["pkcs8", "-topk8", "-nocrypt"], odd)] {
            #expect {
                try ES256PrivateKey(pemRepresentation: pem)
            } throws: { error in
                guard case CryptoError.unsupportedKey(let reason) = error else { return false }
                return reason.contains(expected)
            }
        }
        #expect(throws: CryptoError.self) {
            try ES256PublicKey(pemRepresentation: try openssl(["ec"] + encoding + ["-pubout"], named.pemRepresentation))
        }
        let usual = try openssl(["ec", "-param_enc", "named_curve", "-conv_form", "uncompressed"], odd)
        #expect(try ES256PrivateKey(pemRepresentation: usual).publicKey.keyID == named.publicKey.keyID)
    }

    /// A file whose stated public point is another key's (two keys spliced, or damage) was published while every
    /// signature failed against it (second regression probe, 6 December): refused.
    @Test(.enabled(if: TestSupport.hasOpenSSL, "needs the openssl CLI to write SEC 1 keys"))
    func aPublicKeyThatIsNotThePrivateKeysOwnIsRejected() throws {
        func sec1(_ key: ES256PrivateKey) throws -> Data {
            let result = try #require(try TestSupport.run("openssl", ["ec"], input: Data(key.pemRepresentation.utf8)))
            let body = result.output.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            return try #require(Data(base64Encoded: body))
        }
        let first = try sec1(ES256PrivateKey.generate())
        let second = try sec1(ES256PrivateKey.generate())
        // SEC 1 ends with the public key's BIT STRING, whose last 65 bytes are the point 04 || x || y.
        let spliced = first.prefix(first.count - 65) + second.suffix(65)
        let pem = "-----BEGIN EC PRIVATE KEY-----\n" + spliced.base64EncodedString() + "\n-----END EC PRIVATE KEY-----\n"
        #expect {
            try ES256PrivateKey(pemRepresentation: pem)
        } throws: { error in
            guard case CryptoError.unsupportedKey(let reason) = error else { return false }
            return reason.contains("not the one its private key makes")
        }
        let whole = "-----BEGIN EC PRIVATE KEY-----\n" + first.base64EncodedString() + "\n-----END EC PRIVATE KEY-----\n"
        _ = try ES256PrivateKey(pemRepresentation: whole)
    }

    @Test func privateKeyNeverAppearsInDescriptions() throws {
        let key = try ES256PrivateKey.generate()
        let pem = key.pemRepresentation
        let body = pem.split(separator: "\n")[1]
        var dumped = ""
        dump(key, to: &dumped)
        #expect(!"\(key) \(dumped)".contains(body))
    }

    /// The signer reads libcrypto's DER in place; it must agree with libcrypto's own reading on every shape of
    /// scalar (short, leading zero byte, top bit set) and hand everything else back to libcrypto.
    @Test func signersInPlaceReadingAgreesWithLibcrypto() throws {
        var generator = SystemRandomNumberGenerator()
        let fills: [[UInt8]] = [
            [0x00], [0x00, 0x00], [0x00, 0x80], [0x80], [0x7F], [0xFF], [0x01], [0x00, 0x00, 0x00, 0x00, 0x01], [],
        ]
        for fill in fills {
            for _ in 0..<20 {
                var raw = (0..<64).map { _ in UInt8.random(in: 0...255, using: &generator) }
                for (index, byte) in fill.enumerated() { raw[index] = byte; raw[32 + index] = byte }
                if raw[0..<32].allSatisfy({ $0 == 0 }) { raw[31] = 1 }
                if raw[32...].allSatisfy({ $0 == 0 }) { raw[63] = 1 }
                let der = try ES256SignatureEncoding.derSignature(fromRaw: raw)
                let inPlace = der.withUnsafeBufferPointer { ES256SignatureEncoding.rawSignatureInPlace($0) }
                #expect(inPlace == raw)
                #expect(try ES256SignatureEncoding.rawSignature(fromDER: der) == raw)
            }
        }
        let key = try ES256PrivateKey.generate()
        let signer = ES256Signer(privateKey: key)
        for _ in 0..<50 {
            #expect(key.publicKey.isValidSignature(try signer.sign(message), for: message))
        }

        let r = [UInt8](repeating: 0x11, count: 32), s = [UInt8](repeating: 0x22, count: 32)
        let good: [UInt8] = [0x30, 68, 0x02, 32] + r + [0x02, 32] + s
        #expect(good.withUnsafeBufferPointer { ES256SignatureEncoding.rawSignatureInPlace($0) } == r + s)
        let high = [0x81] + r.dropFirst()
        let leadingZero: [UInt8] = [0x30, 69, 0x02, 33, 0x00] + high + [0x02, 32] + s
        #expect(leadingZero.withUnsafeBufferPointer { ES256SignatureEncoding.rawSignatureInPlace($0) } == high + s)
        let refused: [String: [UInt8]] = [
            "trailing byte": good + [0],
            "short": Array(good.dropLast()),
            "length of the sequence": [0x30, 69] + good.dropFirst(2),
            "long-form length": [0x30, 0x81, 68] + good.dropFirst(2),
            "not a sequence": [0x31] + good.dropFirst(),
            "not an integer": [0x30, 68, 0x04] + good.dropFirst(3),
            "negative": [0x30, 68, 0x02, 32, 0x91] + good.dropFirst(5),
            "needless leading zero": [0x30, 69, 0x02, 33, 0x00] + good.dropFirst(4),
            "scalar of 33 bytes": [0x30, 70, 0x02, 34, 0x00, 0x81] + r + [0x02, 32] + s,
            "empty integer": [0x30, 36, 0x02, 0, 0x02, 32] + s,
        ]
        for (name, der) in refused {
            let inPlace = der.withUnsafeBufferPointer { ES256SignatureEncoding.rawSignatureInPlace($0) }
            #expect(inPlace == nil, "\(name)")
        }
    }

    @Test func rawAndDERSignatureEncodingsRoundTrip() throws {
        let key = try ES256PrivateKey.generate()
        let raw = try key.signature(for: message)
        let der = try ES256SignatureEncoding.derSignature(fromRaw: raw)
        #expect(der.first == 0x30)
        #expect(try ES256SignatureEncoding.rawSignature(fromDER: der) == raw)
        #expect(throws: CryptoError.invalidSignatureEncoding) {
            try ES256SignatureEncoding.rawSignature(fromDER: der + [0])
        }
        #expect(throws: CryptoError.invalidSignatureEncoding) {
            try ES256SignatureEncoding.derSignature(fromRaw: Array(raw.prefix(63)))
        }
    }
}
