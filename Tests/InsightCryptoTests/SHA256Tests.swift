import Testing
@testable import InsightCrypto

@Suite struct SHA256Tests {
    // FIPS 180-2 / NIST CSRC example vectors.
    @Test func matchesNISTVectorForABC() {
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func matchesNISTVectorForEmptyInput() {
        #expect(SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func matchesNISTVectorForTwoBlockMessage() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(SHA256.hex(Array(message.utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func matchesNISTVectorForOneMillionAs() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hex(message) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func hashesNonContiguousCollectionsLikeArrays() {
        let message = Array("abc".utf8)
        #expect(SHA256.hash(message.lazy.map { $0 }) == SHA256.hash(message))
        #expect(SHA256.hash(message[...]).count == 32)
    }
}
