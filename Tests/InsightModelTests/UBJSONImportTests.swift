import Foundation
import Testing
@testable import InsightModel

/// UBJSON, which XGBoost writes for `save_model("model.ubj")` (and, from 2.1, for a file name without `.json`):
/// read into the same tree as JSON, so that both files of one model import to the same document.
@Suite struct UBJSONImportTests {
    typealias Source = ImporterRefusalTests

    /// `XGBoostDartTests.trained` as xgboost 3.2.0 saved it with `save_model("small.ubj")`, base64-encoded.
    static let trainedUBJSON = Array(Data(base64Encoded: """
        e0wAAAAAAAAAB2xlYXJuZXJ7TAAAAAAAAAAKYXR0cmlidXRlc3t9TAAAAAAAAAANZmVhdHVyZV9uYW1lc1sjTAAAAAAAAAAATAAA
        AAAAAAANZmVhdHVyZV90eXBlc1sjTAAAAAAAAAAATAAAAAAAAAAQZ3JhZGllbnRfYm9vc3RlcntMAAAAAAAAAAZnYnRyZWV7TAAA
        AAAAAAAFbW9kZWx7TAAAAAAAAAAEY2F0c3tMAAAAAAAAAANlbmNbI0wAAAAAAAAAAEwAAAAAAAAAEGZlYXR1cmVfc2VnbWVudHNb
        JGwjTAAAAAAAAAAATAAAAAAAAAAKc29ydGVkX2lkeFskbCNMAAAAAAAAAAB9TAAAAAAAAAASZ2J0cmVlX21vZGVsX3BhcmFte0wA
        AAAAAAAAEW51bV9wYXJhbGxlbF90cmVlU0wAAAAAAAAAATFMAAAAAAAAAAludW1fdHJlZXNTTAAAAAAAAAABNH1MAAAAAAAAABBp
        dGVyYXRpb25faW5kcHRyWyNMAAAAAAAAAAVpAGkBaQJpA2kETAAAAAAAAAAJdHJlZV9pbmZvWyNMAAAAAAAAAARpAGkAaQBpAEwA
        AAAAAAAABXRyZWVzWyNMAAAAAAAAAAR7TAAAAAAAAAAMYmFzZV93ZWlnaHRzWyRkI0wAAAAAAAAABzLzYYa/qT81P2ODPb86Pyu9
        kCYGvrVJLz8OFwlMAAAAAAAAAApjYXRlZ29yaWVzWyRsI0wAAAAAAAAAAEwAAAAAAAAAEGNhdGVnb3JpZXNfbm9kZXNbJGwjTAAA
        AAAAAAAATAAAAAAAAAATY2F0ZWdvcmllc19zZWdtZW50c1skTCNMAAAAAAAAAABMAAAAAAAAABBjYXRlZ29yaWVzX3NpemVzWyRM
        I0wAAAAAAAAAAEwAAAAAAAAADGRlZmF1bHRfbGVmdFskVSNMAAAAAAAAAAcAAQAAAAAATAAAAAAAAAACaWRpAEwAAAAAAAAADWxl
        ZnRfY2hpbGRyZW5bJGwjTAAAAAAAAAAHAAAAAQAAAAMAAAAF/////////////////////0wAAAAAAAAADGxvc3NfY2hhbmdlc1sk
        ZCNMAAAAAAAAAAdC76saQbgZuEJcy6EAAAAAAAAAAAAAAAAAAAAATAAAAAAAAAAHcGFyZW50c1skbCNMAAAAAAAAAAd/////AAAA
        AAAAAAAAAAABAAAAAQAAAAIAAAACTAAAAAAAAAAOcmlnaHRfY2hpbGRyZW5bJGwjTAAAAAAAAAAHAAAAAgAAAAQAAAAG////////
        /////////////0wAAAAAAAAAEHNwbGl0X2NvbmRpdGlvbnNbJGQjTAAAAAAAAAAHvbDqiT72wYy/IhiVvzo/K72QJga+tUkvPw4X
        CUwAAAAAAAAADXNwbGl0X2luZGljZXNbJGwjTAAAAAAAAAAHAAAAAAAAAAEAAAABAAAAAAAAAAAAAAAAAAAAAEwAAAAAAAAACnNw
        bGl0X3R5cGVbJFUjTAAAAAAAAAAHAAAAAAAAAEwAAAAAAAAAC3N1bV9oZXNzaWFuWyRkI0wAAAAAAAAAB0LH9HtCH/bJQm/yLUHb
        81RBR/R7QU/0BUI79SxMAAAAAAAAAAp0cmVlX3BhcmFte0wAAAAAAAAAC251bV9kZWxldGVkU0wAAAAAAAAAATBMAAAAAAAAAAtu
        dW1fZmVhdHVyZVNMAAAAAAAAAAEzTAAAAAAAAAAJbnVtX25vZGVzU0wAAAAAAAAAATdMAAAAAAAAABBzaXplX2xlYWZfdmVjdG9y
        U0wAAAAAAAAAATF9fXtMAAAAAAAAAAxiYXNlX3dlaWdodHNbJGQjTAAAAAAAAAAHu9ewUL9Lk5Q/K1g2vvvOYDm+57++EfWbPtTT
        90wAAAAAAAAACmNhdGVnb3JpZXNbJGwjTAAAAAAAAAAATAAAAAAAAAAQY2F0ZWdvcmllc19ub2Rlc1skbCNMAAAAAAAAAABMAAAA
        AAAAABNjYXRlZ29yaWVzX3NlZ21lbnRzWyRMI0wAAAAAAAAAAEwAAAAAAAAAEGNhdGVnb3JpZXNfc2l6ZXNbJEwjTAAAAAAAAAAA
        TAAAAAAAAAAMZGVmYXVsdF9sZWZ0WyRVI0wAAAAAAAAABwABAAAAAABMAAAAAAAAAAJpZGkBTAAAAAAAAAANbGVmdF9jaGlsZHJl
        blskbCNMAAAAAAAAAAcAAAABAAAAAwAAAAX/////////////////////TAAAAAAAAAAMbG9zc19jaGFuZ2VzWyRkI0wAAAAAAAAA
        B0JKDQVBcfFsQZ3aZgAAAAAAAAAAAAAAAAAAAABMAAAAAAAAAAdwYXJlbnRzWyRsI0wAAAAAAAAAB3////8AAAAAAAAAAAAAAAEA
        AAABAAAAAgAAAAJMAAAAAAAAAA5yaWdodF9jaGlsZHJlblskbCNMAAAAAAAAAAcAAAACAAAABAAAAAb/////////////////////
        TAAAAAAAAAAQc3BsaXRfY29uZGl0aW9uc1skZCNMAAAAAAAAAAc+B8IkPp3nqL7qjnq++85gOb7nv74R9Zs+1NP3TAAAAAAAAAAN
        c3BsaXRfaW5kaWNlc1skbCNMAAAAAAAAAAcAAAAAAAAAAQAAAAEAAAAAAAAAAAAAAAAAAAAATAAAAAAAAAAKc3BsaXRfdHlwZVsk
        VSNMAAAAAAAAAAcAAAAAAAAATAAAAAAAAAALc3VtX2hlc3NpYW5bJGQjTAAAAAAAAAAHQrmHzUIq7BlCSCOAQdpd9EF29H1BVFbj
        QhMNx0wAAAAAAAAACnRyZWVfcGFyYW17TAAAAAAAAAALbnVtX2RlbGV0ZWRTTAAAAAAAAAABMEwAAAAAAAAAC251bV9mZWF0dXJl
        U0wAAAAAAAAAATNMAAAAAAAAAAludW1fbm9kZXNTTAAAAAAAAAABN0wAAAAAAAAAEHNpemVfbGVhZl92ZWN0b3JTTAAAAAAAAAAB
        MX19e0wAAAAAAAAADGJhc2Vfd2VpZ2h0c1skZCNMAAAAAAAAAAcy82GGv6k/NT9jgz2/Oj8rvZAmBr61SS8/DhcJTAAAAAAAAAAK
        Y2F0ZWdvcmllc1skbCNMAAAAAAAAAABMAAAAAAAAABBjYXRlZ29yaWVzX25vZGVzWyRsI0wAAAAAAAAAAEwAAAAAAAAAE2NhdGVn
        b3JpZXNfc2VnbWVudHNbJEwjTAAAAAAAAAAATAAAAAAAAAAQY2F0ZWdvcmllc19zaXplc1skTCNMAAAAAAAAAABMAAAAAAAAAAxk
        ZWZhdWx0X2xlZnRbJFUjTAAAAAAAAAAHAAEAAAAAAEwAAAAAAAAAAmlkaQJMAAAAAAAAAA1sZWZ0X2NoaWxkcmVuWyRsI0wAAAAA
        AAAABwAAAAEAAAADAAAABf////////////////////9MAAAAAAAAAAxsb3NzX2NoYW5nZXNbJGQjTAAAAAAAAAAHQu+rGkG4GbhC
        XMuhAAAAAAAAAAAAAAAAAAAAAEwAAAAAAAAAB3BhcmVudHNbJGwjTAAAAAAAAAAHf////wAAAAAAAAAAAAAAAQAAAAEAAAACAAAA
        AkwAAAAAAAAADnJpZ2h0X2NoaWxkcmVuWyRsI0wAAAAAAAAABwAAAAIAAAAEAAAABv////////////////////9MAAAAAAAAABBz
        cGxpdF9jb25kaXRpb25zWyRkI0wAAAAAAAAAB72w6ok+9sGMvyIYlb86Pyu9kCYGvrVJLz8OFwlMAAAAAAAAAA1zcGxpdF9pbmRp
        Y2VzWyRsI0wAAAAAAAAABwAAAAAAAAABAAAAAQAAAAAAAAAAAAAAAAAAAABMAAAAAAAAAApzcGxpdF90eXBlWyRVI0wAAAAAAAAA
        BwAAAAAAAABMAAAAAAAAAAtzdW1faGVzc2lhblskZCNMAAAAAAAAAAdCx/R7Qh/2yUJv8i1B2/NUQUf0e0FP9AVCO/UsTAAAAAAA
        AAAKdHJlZV9wYXJhbXtMAAAAAAAAAAtudW1fZGVsZXRlZFNMAAAAAAAAAAEwTAAAAAAAAAALbnVtX2ZlYXR1cmVTTAAAAAAAAAAB
        M0wAAAAAAAAACW51bV9ub2Rlc1NMAAAAAAAAAAE3TAAAAAAAAAAQc2l6ZV9sZWFmX3ZlY3RvclNMAAAAAAAAAAExfX17TAAAAAAA
        AAAMYmFzZV93ZWlnaHRzWyRkI0wAAAAAAAAABzLzYYa/qT81P2ODPb86Pyu9kCYGvrVJLz8OFwlMAAAAAAAAAApjYXRlZ29yaWVz
        WyRsI0wAAAAAAAAAAEwAAAAAAAAAEGNhdGVnb3JpZXNfbm9kZXNbJGwjTAAAAAAAAAAATAAAAAAAAAATY2F0ZWdvcmllc19zZWdt
        ZW50c1skTCNMAAAAAAAAAABMAAAAAAAAABBjYXRlZ29yaWVzX3NpemVzWyRMI0wAAAAAAAAAAEwAAAAAAAAADGRlZmF1bHRfbGVm
        dFskVSNMAAAAAAAAAAcAAQAAAAAATAAAAAAAAAACaWRpA0wAAAAAAAAADWxlZnRfY2hpbGRyZW5bJGwjTAAAAAAAAAAHAAAAAQAA
        AAMAAAAF/////////////////////0wAAAAAAAAADGxvc3NfY2hhbmdlc1skZCNMAAAAAAAAAAdC76saQbgZuEJcy6EAAAAAAAAA
        AAAAAAAAAAAATAAAAAAAAAAHcGFyZW50c1skbCNMAAAAAAAAAAd/////AAAAAAAAAAAAAAABAAAAAQAAAAIAAAACTAAAAAAAAAAO
        cmlnaHRfY2hpbGRyZW5bJGwjTAAAAAAAAAAHAAAAAgAAAAQAAAAG/////////////////////0wAAAAAAAAAEHNwbGl0X2NvbmRp
        dGlvbnNbJGQjTAAAAAAAAAAHvbDqiT72wYy/IhiVvzo/K72QJga+tUkvPw4XCUwAAAAAAAAADXNwbGl0X2luZGljZXNbJGwjTAAA
        AAAAAAAHAAAAAAAAAAEAAAABAAAAAAAAAAAAAAAAAAAAAEwAAAAAAAAACnNwbGl0X3R5cGVbJFUjTAAAAAAAAAAHAAAAAAAAAEwA
        AAAAAAAAC3N1bV9oZXNzaWFuWyRkI0wAAAAAAAAAB0LH9HtCH/bJQm/yLUHb81RBR/R7QU/0BUI79SxMAAAAAAAAAAp0cmVlX3Bh
        cmFte0wAAAAAAAAAC251bV9kZWxldGVkU0wAAAAAAAAAATBMAAAAAAAAAAtudW1fZmVhdHVyZVNMAAAAAAAAAAEzTAAAAAAAAAAJ
        bnVtX25vZGVzU0wAAAAAAAAAATdMAAAAAAAAABBzaXplX2xlYWZfdmVjdG9yU0wAAAAAAAAAATF9fX1MAAAAAAAAAARuYW1lU0wA
        AAAAAAAABmdidHJlZX1MAAAAAAAAAARuYW1lU0wAAAAAAAAABGRhcnRMAAAAAAAAAAt3ZWlnaHRfZHJvcFsjTAAAAAAAAAAEZD88
        PDtkPzw8O2Q+vDw7ZD6WlpZ9TAAAAAAAAAATbGVhcm5lcl9tb2RlbF9wYXJhbXtMAAAAAAAAAApiYXNlX3Njb3JlU0wAAAAAAAAA
        Cls1LjA3NUUtMV1MAAAAAAAAABJib29zdF9mcm9tX2F2ZXJhZ2VTTAAAAAAAAAABMUwAAAAAAAAACW51bV9jbGFzc1NMAAAAAAAA
        AAEwTAAAAAAAAAALbnVtX2ZlYXR1cmVTTAAAAAAAAAABM0wAAAAAAAAACm51bV90YXJnZXRTTAAAAAAAAAABMX1MAAAAAAAAAAlv
        YmplY3RpdmV7TAAAAAAAAAAEbmFtZVNMAAAAAAAAAA9iaW5hcnk6bG9naXN0aWNMAAAAAAAAAA5yZWdfbG9zc19wYXJhbXtMAAAA
        AAAAABBzY2FsZV9wb3Nfd2VpZ2h0U0wAAAAAAAAAATF9fX1MAAAAAAAAAAd2ZXJzaW9uWyNMAAAAAAAAAANpA2kCaQB9
        """, options: .ignoreUnknownCharacters)!)

    func refusal(_ bytes: [UInt8]) -> String? {
        Source().xgboostRefusal(bytes)?.description
    }

    @Test func aUBJSONFileImportsAsItsJSONTwinDoes() throws {
        let fromUBJSON = try XGBoostImporter.importModel(jsonBytes: Self.trainedUBJSON, options: Source.options)
        let fromJSON = try XGBoostImporter.importModel(jsonBytes: Array(XGBoostDartTests.trained.utf8), options: Source.options)
        #expect(fromUBJSON == fromJSON)
        #expect(fromUBJSON.trees.count == 4)
    }

    /// The container forms XGBoost does not write but the format allows: counted objects, typed arrays of another
    /// type, no-op markers, and the high-precision and char types.
    @Test func readsEveryContainerFormAndScalarType() throws {
        func bytes(_ parts: [Any]) -> [UInt8] {
            parts.flatMap { part -> [UInt8] in
                switch part {
                case let text as String: Array(text.utf8)
                case let byte as Int: [UInt8(byte)]
                default: []
                }
            }
        }
        // {#i2 "a": [$d#i2 0.5 -2.0], "b": [N H 3 "1e3" C 'x' Z T F I 0x0102 ]}
        let value = try UBJSONParser.parse(bytes([
            "{#", "i", 2, "i", 1, "a", "[$d#", "i", 2, 0x3F, 0, 0, 0, 0xC0, 0, 0, 0,
            "i", 1, "b", "[", "N", "H", "i", 3, "1e3", "C", "x", "Z", "T", "F", "I", 1, 2, "]",
        ]))
        #expect(value["a"]?.arrayValue?.compactMap(\.numberTokenText) == ["0.5", "-2.0"])
        let b = try #require(value["b"]?.arrayValue)
        #expect(b.count == 6)
        #expect(b[0].numberTokenText == "1e3")
        #expect(b[1].stringValue == "x")
        #expect(b[5].numberTokenText == "258")
    }

    @Test func refusesDamagedFilesSayingWhere() {
        let model = Self.trainedUBJSON
        // Every cut of the file is refused, none read as a smaller model.
        for length in stride(from: 1, to: model.count, by: 7) {
            #expect(refusal(Array(model.prefix(length))) != nil, "cut at \(length)")
        }
        #expect(refusal(model + [UInt8(ascii: "Z")])?.contains("UBJSON syntax error at byte \(model.count): trailing bytes") == true)
        // A count far larger than the file: refused before anything is reserved for it.
        let huge: [UInt8] = [UInt8(ascii: "{"), UInt8(ascii: "i"), 1, UInt8(ascii: "a"), UInt8(ascii: "["), UInt8(ascii: "#"), UInt8(ascii: "L"),
                             0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, UInt8(ascii: "}")]
        #expect(refusal(huge)?.contains("a length that is negative or runs past the end of the file") == true)
        let negative: [UInt8] = [UInt8(ascii: "{"), UInt8(ascii: "i"), 0xFF]
        #expect(refusal(negative)?.contains("a length that is negative") == true)
        let twice = Array("{i\u{1}ai\u{1}i\u{1}ai\u{2}}".utf8)
        #expect(refusal(twice)?.contains("member name 'a' appears twice in one object") == true)
        let notUTF8: [UInt8] = [UInt8(ascii: "{"), UInt8(ascii: "i"), 1, 0xFF, UInt8(ascii: "Z"), UInt8(ascii: "}")]
        #expect(refusal(notUTF8)?.contains("string is not valid UTF-8") == true)
        let nan: [UInt8] = [UInt8(ascii: "{"), UInt8(ascii: "i"), 1, UInt8(ascii: "a"), UInt8(ascii: "d"), 0x7F, 0xC0, 0, 0, UInt8(ascii: "}")]
        #expect(refusal(nan)?.contains("a float that is NaN") == true)
        let unknown: [UInt8] = [UInt8(ascii: "{"), UInt8(ascii: "i"), 1, UInt8(ascii: "a"), UInt8(ascii: "x"), UInt8(ascii: "}")]
        #expect(refusal(unknown)?.contains("UBJSON syntax error at byte 4: unknown type marker") == true)
        let deep = [UInt8(ascii: "{"), UInt8(ascii: "i"), 1, UInt8(ascii: "a")] + [UInt8](repeating: UInt8(ascii: "["), count: 600)
        #expect(refusal(deep)?.contains("nesting too deep") == true)
    }

    /// Damaged bytes anywhere are refused or read, never a crash or a hang (a seeded generator: reproducible).
    @Test func survivesRandomDamage() {
        var generator = SplitMix64(state: 0x5EED_0BB5)
        let model = Self.trainedUBJSON
        var refused = 0
        for _ in 0..<2_000 {
            var damaged = model
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if refusal(damaged) != nil { refused += 1 }
        }
        #expect(refused > 0)
    }
}
