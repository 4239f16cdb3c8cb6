import Testing
@testable import InsightCrypto

@Suite struct CBORTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let item: CBOR
        let hex: String
        var testDescription: String { hex }
    }

    // RFC 8949 Appendix A examples that fall within the supported subset.
    static let appendixA: [Vector] = [
        Vector(item: .unsigned(0), hex: "00"),
        Vector(item: .unsigned(23), hex: "17"),
        Vector(item: .unsigned(24), hex: "1818"),
        Vector(item: .unsigned(100), hex: "1864"),
        Vector(item: .unsigned(1000), hex: "1903e8"),
        Vector(item: .unsigned(1_000_000), hex: "1a000f4240"),
        Vector(item: .unsigned(1_000_000_000_000), hex: "1b000000e8d4a51000"),
        Vector(item: .unsigned(UInt64.max), hex: "1bffffffffffffffff"),
        Vector(item: .negative(UInt64.max), hex: "3bffffffffffffffff"),
        Vector(item: .integer(-1), hex: "20"),
        Vector(item: .integer(-10), hex: "29"),
        Vector(item: .integer(-100), hex: "3863"),
        Vector(item: .integer(-1000), hex: "3903e7"),
        Vector(item: .bool(false), hex: "f4"),
        Vector(item: .bool(true), hex: "f5"),
        Vector(item: .null, hex: "f6"),
        Vector(item: .byteString([]), hex: "40"),
        Vector(item: .byteString([1, 2, 3, 4]), hex: "4401020304"),
        Vector(item: .textString(""), hex: "60"),
        Vector(item: .textString("IETF"), hex: "6449455446"),
        Vector(item: .textString("\"\\"), hex: "62225c"),
        Vector(item: .textString("\u{00fc}"), hex: "62c3bc"),
        Vector(item: .textString("\u{6c34}"), hex: "63e6b0b4"),
        Vector(item: .array([]), hex: "80"),
        Vector(item: .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])]),
               hex: "8301820203820405"),
        Vector(item: .array((1...25).map { CBOR.unsigned($0) }),
               hex: "98190102030405060708090a0b0c0d0e0f101112131415161718181819"),
        Vector(item: .map([:]), hex: "a0"),
        Vector(item: .map([.unsigned(1): .unsigned(2), .unsigned(3): .unsigned(4)]), hex: "a201020304"),
        Vector(item: .map([.textString("a"): .unsigned(1),
                           .textString("b"): .array([.unsigned(2), .unsigned(3)])]),
               hex: "a26161016162820203"),
        Vector(item: .tagged(1, .unsigned(1_363_896_240)), hex: "c11a514b67b0"),
        Vector(item: .tagged(32, .textString("http://www.example.com")),
               hex: "d82076687474703a2f2f7777772e6578616d706c652e636f6d"),
    ]

    @Test(arguments: appendixA)
    func encodesRFC8949Example(_ vector: Vector) {
        #expect(TestSupport.hex(vector.item.encoded()) == vector.hex)
    }

    @Test(arguments: appendixA)
    func decodesRFC8949Example(_ vector: Vector) throws {
        #expect(try CBOR.decode(TestSupport.bytes(hex: vector.hex)) == vector.item)
    }

    @Test func mapKeysAreSortedByTheirEncodedBytes() {
        // RFC 8949 §4.2.1's own example of core deterministic key order: 10, 100, -1, "z", "aa", [100], [-1], false.
        let map = CBOR.map([
            .bool(false): .unsigned(8), .array([.integer(-1)]): .unsigned(7), .array([.unsigned(100)]): .unsigned(6),
            .textString("aa"): .unsigned(5), .textString("z"): .unsigned(4), .integer(-1): .unsigned(3),
            .unsigned(100): .unsigned(2), .unsigned(10): .unsigned(1),
        ])
        #expect(TestSupport.hex(map.encoded()) == "a8" + "0a01" + "186402" + "2003" + "617a04" + "62616105"
                + "81186406" + "812007" + "f408")
    }

    @Test func integerHelpersCoverBothSigns() {
        #expect(CBOR.integer(-7) == .negative(6))
        #expect(CBOR.integer(Int64.min).integerValue == Int64.min)
        #expect(CBOR.integer(Int64.max).integerValue == Int64.max)
        #expect(CBOR.unsigned(UInt64.max).integerValue == nil)
    }

    @Test func refusesNonShortestArguments() {
        #expect(throws: CBORError.nonShortestArgument(offset: 0)) { try CBOR.decode([0x18, 0x17]) }
        #expect(throws: CBORError.nonShortestArgument(offset: 0)) { try CBOR.decode([0x19, 0x00, 0xff]) }
        #expect(throws: CBORError.nonShortestArgument(offset: 0)) { try CBOR.decode([0x41 + 0x17, 0x01]) }
    }

    @Test func refusesIndefiniteLengthsFloatsAndUndefined() {
        #expect(throws: CBORError.unsupportedAdditionalInformation(offset: 0)) { try CBOR.decode([0x5f, 0xff]) }
        #expect(throws: CBORError.unsupportedAdditionalInformation(offset: 0)) { try CBOR.decode([0x9f, 0xff]) }
        #expect(throws: CBORError.unsupportedSimpleValue(offset: 0)) {
            try CBOR.decode([0xfb, 0x3f, 0xf1, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9a])
        }
        #expect(throws: CBORError.unsupportedSimpleValue(offset: 0)) { try CBOR.decode([0xf7]) }
    }

    @Test func refusesTruncatedAndTrailingInput() {
        #expect(throws: CBORError.unexpectedEnd(offset: 0)) { try CBOR.decode([]) }
        #expect(throws: CBORError.unexpectedEnd(offset: 1)) { try CBOR.decode([0x44, 0x01, 0x02]) }
        #expect(throws: CBORError.unexpectedEnd(offset: 2)) { try CBOR.decode([0x19, 0x01]) }
        #expect(throws: CBORError.trailingBytes(offset: 1)) { try CBOR.decode([0x01, 0x02]) }
    }

    @Test func refusesHugeDeclaredLengthsWithoutAllocating() {
        let hugeArray: [UInt8] = [0x9b, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
        #expect(throws: CBORError.unexpectedEnd(offset: 0)) { try CBOR.decode(hugeArray) }
        let hugeBytes: [UInt8] = [0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
        #expect(throws: CBORError.unexpectedEnd(offset: 9)) { try CBOR.decode(hugeBytes) }
        let hugeMap: [UInt8] = [0xbb, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
        #expect(throws: CBORError.unexpectedEnd(offset: 0)) { try CBOR.decode(hugeMap) }
    }

    @Test func refusesDuplicateKeysInvalidUTF8AndDeepNesting() {
        #expect(throws: CBORError.duplicateMapKey(offset: 3)) { try CBOR.decode([0xa2, 0x01, 0x02, 0x01, 0x03]) }
        #expect(throws: CBORError.invalidUTF8(offset: 0)) { try CBOR.decode([0x62, 0xc3, 0x28]) }
        let deep = [UInt8](repeating: 0x81, count: 40) + [0x00]
        #expect(throws: CBORError.nestingTooDeep(offset: 33)) { try CBOR.decode(deep) }
        let allowed = [UInt8](repeating: 0x81, count: 32) + [0x00]
        #expect((try? CBOR.decode(allowed)) != nil)
    }

    @Test func acceptsMapKeysInAnyOrderButReencodesThemSorted() throws {
        let unsorted: [UInt8] = [0xa2, 0x03, 0x04, 0x01, 0x02]
        let item = try CBOR.decode(unsorted)
        #expect(TestSupport.hex(item.encoded()) == "a201020304")
    }
}
