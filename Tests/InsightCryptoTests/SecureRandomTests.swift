import Testing
@testable import InsightCrypto

@Suite struct SecureRandomTests {
    @Test func returnsTheRequestedNumberOfBytes() {
        #expect(SecureRandom.bytes(0).isEmpty)
        #expect(SecureRandom.bytes(1).count == 1)
        #expect(SecureRandom.bytes(1000).count == 1000)
    }

    @Test func successiveCallsDiffer() {
        #expect(SecureRandom.bytes(32) != SecureRandom.bytes(32))
    }

    @Test func hexTokenIsLowercaseHexOfTwiceTheLength() {
        let token = SecureRandom.hexToken(byteCount: 24)
        #expect(token.count == 48)
        #expect(token.allSatisfy { "0123456789abcdef".contains($0) })
    }

    @Test func base64URLTokenUsesTheURLAlphabetWithoutPadding() {
        for byteCount in [1, 2, 3, 31, 32, 33] {
            let token = SecureRandom.base64URLToken(byteCount: byteCount)
            #expect(token.count == (byteCount * 4 + 2) / 3)
            let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
            #expect(token.allSatisfy { alphabet.contains($0) })
        }
    }

    @Test func base64URLRoundTripsThroughTheDecoder() {
        let bytes: [UInt8] = [0xfb, 0xff, 0xfe, 0x00, 0x3e, 0x3f]
        let text = Base64URL.encode(bytes)
        #expect(text == "-__-AD4_")
        #expect(Base64URL.decode(text) == bytes)
        #expect(Base64URL.decode("+//+AD4/") == nil)
    }
}
