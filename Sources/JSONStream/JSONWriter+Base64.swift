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

    /// `output` holds exactly `(input.count + 2) / 3 * 4` bytes.
    private static func encodeBase64(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) {
        base64Alphabet.withUnsafeBufferPointer { alphabet in
            var read = 0
            var written = 0
            while read + 3 <= input.count {
                let group = UInt32(input[read]) << 16 | UInt32(input[read + 1]) << 8 | UInt32(input[read + 2])
                output[written] = alphabet[Int(group >> 18)]
                output[written + 1] = alphabet[Int(group >> 12 & 0x3F)]
                output[written + 2] = alphabet[Int(group >> 6 & 0x3F)]
                output[written + 3] = alphabet[Int(group & 0x3F)]
                read += 3
                written += 4
            }
            let remaining = input.count - read
            guard remaining > 0 else { return }
            let group = UInt32(input[read]) << 16 | (remaining == 2 ? UInt32(input[read + 1]) << 8 : 0)
            output[written] = alphabet[Int(group >> 18)]
            output[written + 1] = alphabet[Int(group >> 12 & 0x3F)]
            output[written + 2] = remaining == 2 ? alphabet[Int(group >> 6 & 0x3F)] : UInt8(ascii: "=")
            output[written + 3] = UInt8(ascii: "=")
        }
    }
}
