import Testing
import InsightCrypto
@testable import InsightCore

/// Keys are stored as 32 lowercase hex digits, high word first; reading the text back gives the same key.
@Suite struct SubjectKeyTests {
    @Test func hexIsThirtyTwoLowercaseDigitsHighWordFirstAndReadsBack() {
        let key = SubjectKey(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210)
        #expect(key.hex == "0123456789abcdeffedcba9876543210")
        #expect(SubjectKey(hex: key.hex) == key)
        #expect(SubjectKey(high: 0, low: 0).hex == String(repeating: "0", count: 32))
        #expect(SubjectKey(high: .max, low: .max).hex == String(repeating: "f", count: 32))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1_000 {
            let random = SubjectKey(high: generator.next(), low: generator.next())
            #expect(SubjectKey(hex: random.hex) == random)
        }
    }

    @Test func textOtherThanThirtyTwoLowercaseHexDigitsIsNoKey() {
        #expect(SubjectKey(hex: "0123456789ABCDEFFEDCBA9876543210") == nil)
        #expect(SubjectKey(hex: "0123456789abcdeffedcba987654321") == nil)
        #expect(SubjectKey(hex: "0123456789abcdeffedcba98765432100") == nil)
        #expect(SubjectKey(hex: "0123456789abcdeffedcba987654321g") == nil)
        #expect(SubjectKey(hex: "") == nil)
        #expect(SubjectKey(hex: "0123456789abcdef fedcba987654321") == nil)
    }

    @Test func digitsReadInPlaceGiveTheKeyTheirTextGives() {
        let key = SubjectKey(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210)
        let digits = Array(key.hex.utf8)
        #expect(digits.withUnsafeBufferPointer { SubjectKey(hexDigits: $0) } == key)
        #expect(SubjectKey(hexDigits: digits.dropLast()) == nil)
        #expect(SubjectKey(hexDigits: digits + [UInt8(ascii: "0")]) == nil)
        #expect(SubjectKey(hexDigits: UnsafeBufferPointer<UInt8>(start: nil, count: 0)) == nil)
    }
}

/// A subject key is the first 16 bytes of HMAC-SHA256, under the tenant's key, of the environment, the kind of ref and
/// the ref, each followed by a NUL but the last.
@Suite struct SubjectHasherTests {
    private struct OneKey: SubjectKeySource {
        let key: HMACKey
        func subjectKey(for tenant: TenantID) throws -> HMACKey? { tenant.rawValue == "acme" ? key : nil }
    }

    @Test(arguments: ["a", "acct-1", "caf\u{E9}", String(repeating: "long ref ", count: 60)])
    func aKeyIsTheTruncatedMACOfEnvironmentKindAndRef(_ ref: String) throws {
        let key = HMACKey(bytes: (0..<32).map { UInt8($0 * 7 & 0xFF) })
        let hasher = SubjectHasher(source: OneKey(key: key))
        let tenant = TenantID("acme")!
        let message = Array("production".utf8) + [0] + Array("counterpartyRef".utf8) + [0] + Array(ref.utf8)
        let expected = SubjectKey(macBytes: HMACSHA256(key: key).authenticationCode(for: message))
        #expect(try hasher.key(for: ref, kind: .counterpartyRef, tenant: tenant, environment: .production) == expected)
        #expect(try hasher.key(for: ref, kind: .counterpartyRef, tenant: tenant, environment: .sandbox) != expected)
        #expect(try hasher.key(for: ref, kind: .accountRef, tenant: tenant, environment: .production) != expected)
        #expect(throws: SubjectHasherError.unknownTenant) {
            try hasher.key(for: ref, kind: .accountRef, tenant: TenantID("other")!, environment: .production)
        }
    }

    /// An Idempotency-Key is text the client chose; the store keeps `hmac ` and the whole MAC of environment,
    /// `idempotencyKey` and the key, in hex, which no key as sent can equal (a key has no space).
    @Test func anIdempotencyKeyIsKeptAsTheWholeMACOfEnvironmentAndKey() throws {
        let key = HMACKey(bytes: (0..<32).map { UInt8($0 * 5 & 0xFF) })
        let hasher = SubjectHasher(source: OneKey(key: key))
        let tenant = TenantID("acme")!
        let sent = IdempotencyKey("case-4711")!
        let mac = HMACSHA256(key: key).authenticationCode(
            for: Array("sandbox".utf8) + [0] + Array("idempotencyKey".utf8) + [0] + Array("case-4711".utf8))
        let hex = mac.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        let digest = try hasher.digest(of: sent, tenant: tenant, environment: .sandbox)
        #expect(digest == "hmac " + hex)
        #expect(digest.utf8.count == 69)
        #expect(try hasher.digest(of: sent, tenant: tenant, environment: .production) != digest)
        #expect(try hasher.digest(of: IdempotencyKey("case-4712")!, tenant: tenant, environment: .sandbox) != digest)
        #expect(IdempotencyKey(digest) == nil, "a digest is no key a client could send")
        #expect(throws: SubjectHasherError.unknownTenant) {
            try hasher.digest(of: sent, tenant: TenantID("other")!, environment: .sandbox)
        }
    }
}
