import Testing
@testable import InsightCrypto

@Suite struct ConstantTimeTests {
    @Test func equalBytesCompareEqual() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(ConstantTime.equals([], []))
        let digest = SHA256.hash(Array("secret".utf8))
        #expect(ConstantTime.equals(digest, SHA256.hash(Array("secret".utf8))))
    }

    @Test func anyDifferingByteMakesThemUnequal() {
        let base = [UInt8](repeating: 0x5a, count: 32)
        for index in base.indices {
            var other = base
            other[index] ^= 0x01
            #expect(!ConstantTime.equals(base, other), "byte \(index)")
        }
    }

    @Test func differentLengthsAreUnequalEvenWithACommonPrefix() {
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 3, 4]))
        #expect(!ConstantTime.equals([1, 2, 3, 4], [1, 2, 3]))
        #expect(!ConstantTime.equals([], [0]))
    }
}
