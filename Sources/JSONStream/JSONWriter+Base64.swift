extension JSONWriter {
    /// Writes `data` as a JSON string in base64 (RFC 4648 §4: the standard alphabet, with padding).
    ///
    /// Encoded straight into the output: going through Foundation's `base64EncodedString()` cost a copy into `Data`,
    /// a `String`, and a scan of that string for characters to escape, of which base64 has none. The signed payload
    /// of every evaluation answer (several hundred bytes) is written this way.
    public mutating func base64String(_ data: [UInt8]) {
        separate()
        let encodedCount = (data.count + 2) / 3 * 4
        appendPlaceholder(count: encodedCount + 2) { output in
            output[0] = UInt8(ascii: "\"")
            output[encodedCount + 1] = UInt8(ascii: "\"")
            data.withUnsafeBufferPointer { input in
                Self.encodeBase64(input, into: UnsafeMutableBufferPointer(rebasing: output[1..<(encodedCount + 1)]))
            }
        }
        valueWritten()
    }

    public mutating func member(_ name: String, base64 data: [UInt8]) {
        key(name)
        base64String(data)
    }

    private static let base64Alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The two characters of every 12-bit value, the first in the low byte: a group of three input bytes is two
    /// look-ups and one four-byte store instead of four look-ups and four stores (the signed payload is about a
    /// kilobyte of every answer).
    private static let base64Pairs: [UInt16] = (0..<4096).map { value in
        UInt16(base64Alphabet[value >> 6]) | UInt16(base64Alphabet[value & 0x3F]) << 8
    }

    /// `output` holds exactly `(input.count + 2) / 3 * 4` bytes.
    private static func encodeBase64(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) {
        guard let target = output.baseAddress else { return }
        base64Pairs.withUnsafeBufferPointer { pairs in
            var read = 0
            var written = 0
            while read + 3 <= input.count {
                let group = Int(input[read]) << 16 | Int(input[read + 1]) << 8 | Int(input[read + 2])
                let characters = UInt32(pairs[group >> 12]) | UInt32(pairs[group & 0xFFF]) << 16
                UnsafeMutableRawPointer(target + written).storeBytes(of: characters.littleEndian, as: UInt32.self)
                read += 3
                written += 4
            }
            let remaining = input.count - read
            guard remaining > 0 else { return }
            let group = Int(input[read]) << 16 | (remaining == 2 ? Int(input[read + 1]) << 8 : 0)
            let first = pairs[group >> 12]
            output[written] = UInt8(truncatingIfNeeded: first)
            output[written + 1] = UInt8(truncatingIfNeeded: first >> 8)
            output[written + 2] = remaining == 2 ? UInt8(truncatingIfNeeded: pairs[group & 0xFFF]) : UInt8(ascii: "=")
            output[written + 3] = UInt8(ascii: "=")
        }
    }
}
