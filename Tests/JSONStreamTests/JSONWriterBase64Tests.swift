import Foundation
import JSONStream
import Testing

/// The writer's base64 strings against Foundation's encoder and decoder (RFC 4648 §4, padded).
@Suite struct JSONWriterBase64Tests {
    @Test func everyLengthAndEveryByteMatchesFoundation() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<300 {
            let data = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var writer = JSONWriter()
            writer.base64String(data)
            #expect(writer.bytes == Array("\"\(Data(data).base64EncodedString())\"".utf8), "length \(length)")
        }
        let everyByte = (0...255).map { UInt8($0) }
        var writer = JSONWriter()
        writer.base64String(everyByte)
        let text = String(decoding: writer.bytes.dropFirst().dropLast(), as: UTF8.self)
        #expect(Data(base64Encoded: text).map { [UInt8]($0) } == everyByte)
    }

    @Test func paddingFollowsTheRFCVectors() {
        // RFC 4648 §10.
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            var writer = JSONWriter()
            writer.base64String(Array(plain.utf8))
            #expect(String(decoding: writer.bytes, as: UTF8.self) == "\"\(encoded)\"")
        }
    }

    @Test func isAMemberLikeAnyOtherValue() throws {
        var writer = JSONWriter()
        writer.beginObject()
        writer.member("a", 1)
        writer.member("payload", base64: [0xFB, 0xFF, 0xBF])
        writer.member("b", "c")
        writer.endObject()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"a":1,"payload":"+/+/","b":"c"}"#)
        let object = try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: Any]
        #expect(object?["payload"] as? String == "+/+/")
    }
}
