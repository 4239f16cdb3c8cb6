import FoundationEssentials
import InsightCrypto

/// The SHA-256 a manifest entry may pin its model file to (`ModelManifest.Entry.sha256`).
public enum ModelFileDigest {
    static func of(_ data: Data) -> String {
        SHA256.hex(data)
    }

    /// 64 hexadecimal digits, of either case (the comparison ignores case).
    static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { $0.isHexDigit }
    }

    /// Nil when `data` is what `expected` pins, else the reason for the log.
    public static func mismatch(_ data: Data, expected: String) -> String? {
        mismatch(digest: of(data), expected: expected)
    }

    /// As `mismatch(_:expected:)`, from the file's digest already taken.
    static func mismatch(digest actual: String, expected: String) -> String? {
        guard actual != expected.lowercased() else { return nil }
        // Either side may have moved: a pin edited by hand was reported as a changed file (probe, 7 December).
        return "its SHA-256 is \(actual), the manifest pins \(expected.lowercased()): the file changed after it was "
            + "registered, or the pin was edited; restore the file or the pin, or register the new file"
    }
}

private extension UInt8 {
    var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
