import Foundation
import Testing
@testable import InsightCrypto

@Suite struct HMACSHA256Tests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let key: [UInt8]
        let data: [UInt8]
        let expected: String
        var testDescription: String { name }
    }

    // RFC 4231 §4.2-4.8, HMAC-SHA-256 values. Test case 5 is published truncated to 128 bits; the full value
    // below was computed with Python's hmac module and starts with the RFC's a3b6167473100ee06e0c796c2955552b.
    static let vectors: [Vector] = [
        Vector(name: "RFC 4231 case 1", key: [UInt8](repeating: 0x0b, count: 20), data: Array("Hi There".utf8),
               expected: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        Vector(name: "RFC 4231 case 2", key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8),
               expected: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        Vector(name: "RFC 4231 case 3", key: [UInt8](repeating: 0xaa, count: 20),
               data: [UInt8](repeating: 0xdd, count: 50),
               expected: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        Vector(name: "RFC 4231 case 4", key: Array(1...25), data: [UInt8](repeating: 0xcd, count: 50),
               expected: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        Vector(name: "RFC 4231 case 5", key: [UInt8](repeating: 0x0c, count: 20),
               data: Array("Test With Truncation".utf8),
               expected: "a3b6167473100ee06e0c796c2955552bfa6f7c0a6a8aef8b93f860aab0cd20c5"),
        Vector(name: "RFC 4231 case 6", key: [UInt8](repeating: 0xaa, count: 131),
               data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
               expected: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        Vector(name: "RFC 4231 case 7", key: [UInt8](repeating: 0xaa, count: 131),
               data: Array(("This is a test using a larger than block-size key and a larger than block-size data. "
                            + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
               expected: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    @Test(arguments: vectors)
    func matchesRFC4231Vector(_ vector: Vector) {
        let mac = HMACSHA256(key: HMACKey(bytes: vector.key))
        #expect(TestSupport.hex(mac.authenticationCode(for: vector.data)) == vector.expected)
    }

    @Test func truncatedCase5MatchesTheRFCsPublishedPrefix() {
        let mac = HMACSHA256(key: HMACKey(bytes: [UInt8](repeating: 0x0c, count: 20)))
        let code = mac.authenticationCode(for: Array("Test With Truncation".utf8))
        #expect(TestSupport.hex(Array(code.prefix(16))) == "a3b6167473100ee06e0c796c2955552b")
    }

    @Test func reusedContextGivesTheSameCodeEveryTime() {
        let mac = HMACSHA256(key: HMACKey(bytes: Array("Jefe".utf8)))
        let first = mac.authenticationCode(for: Array("what do ya want for nothing?".utf8))
        _ = mac.authenticationCode(for: Array("something else entirely".utf8))
        let again = mac.authenticationCode(for: Array("what do ya want for nothing?".utf8))
        #expect(first == again)
        #expect(TestSupport.hex(again) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func emptyKeyAndEmptyMessageMatchKnownValue() {
        let mac = HMACSHA256(key: HMACKey(bytes: []))
        #expect(TestSupport.hex(mac.authenticationCode(for: [UInt8]()))
                == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test func differentKeysGiveDifferentCodes() {
        let message = Array("account-123".utf8)
        let first = HMACSHA256(key: HMACKey(bytes: Array("tenant-a".utf8))).authenticationCode(for: message)
        let second = HMACSHA256(key: HMACKey(bytes: Array("tenant-b".utf8))).authenticationCode(for: message)
        #expect(first != second)
    }

    @Test func concurrentCallersAllGetTheCorrectCode() async {
        let mac = HMACSHA256(key: HMACKey(bytes: [UInt8](repeating: 0x0b, count: 20)))
        let expected = "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (0..<500).allSatisfy { _ in
                        TestSupport.hex(mac.authenticationCode(for: Array("Hi There".utf8))) == expected
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == [Bool](repeating: true, count: 8))
    }

    @Test func validatesCodesInConstantTimeComparison() {
        let mac = HMACSHA256(key: HMACKey(bytes: Array("Jefe".utf8)))
        let message = Array("what do ya want for nothing?".utf8)
        var code = mac.authenticationCode(for: message)
        #expect(mac.isValidAuthenticationCode(code, for: message))
        code[31] ^= 1
        #expect(!mac.isValidAuthenticationCode(code, for: message))
    }

    @Test func keyNeverAppearsInDescriptionsOrDumps() {
        let secret = "super-secret-tenant-key"
        let key = HMACKey(bytes: Array(secret.utf8))
        let mac = HMACSHA256(key: key)
        var dumped = ""
        dump(key, to: &dumped)
        dump(mac, to: &dumped)
        let rendered = "\(key) \(String(reflecting: key)) \(mac) \(dumped)"
        #expect(!rendered.contains(secret))
        #expect(!rendered.contains("115, 117, 112")) // the secret's first bytes as an array literal
        #expect(key.byteCount == secret.utf8.count)
    }
}
