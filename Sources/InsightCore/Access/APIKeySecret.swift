import InsightCrypto

/// A presented or newly created API key secret: `ti_<environment>_<keyID>_<random>`.
///
/// The key ID lets the service find the record without comparing against every hash; the random part (256 bits)
/// is checked against the stored SHA-256 in constant time. Printing this value never shows the secret.
public struct APIKeySecret: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let keyID: String
    private let token: String

    /// Creates a new random secret for a new key.
    public static func generate(environment: DeploymentEnvironment) -> APIKeySecret {
        let keyID = "k" + SecureRandom.hexToken(byteCount: 8)
        let token = "ti_\(environment.rawValue)_\(keyID)_\(SecureRandom.base64URLToken(byteCount: 32))"
        return APIKeySecret(keyID: keyID, token: token)
    }

    private init(keyID: String, token: String) {
        self.keyID = keyID
        self.token = token
    }

    /// Parses a presented token; nil when it is not of our shape (the caller answers 401 without saying why).
    public init?(presented token: String) {
        // Read as bytes in place, sliced at the first three underscores (the random part may hold more): this runs
        // on every request, and through `Substring`s and the UTF-8 view's indices it cost about 5,000 instructions.
        let parsed = token.utf8.withContiguousStorageIfAvailable(Self.keyID(ofPresented:))
            ?? Array(token.utf8).withUnsafeBufferPointer(Self.keyID(ofPresented:))
        guard let keyID = parsed else { return nil }
        self.keyID = keyID
        self.token = token
    }

    /// The key ID, if `bytes` is `ti_<environment>_<keyID>_<random>` with a known environment,
    /// a key ID of `k` and 16 more bytes, and a random part that is not empty.
    private static func keyID(ofPresented bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let underscore = UInt8(ascii: "_")
        guard bytes.count <= 200,
              let first = bytes.firstIndex(of: underscore),
              let second = bytes[(first + 1)...].firstIndex(of: underscore),
              let third = bytes[(second + 1)...].firstIndex(of: underscore)
        else { return nil }
        let environment = bytes[(first + 1)..<second]
        let keyID = bytes[(second + 1)..<third]
        guard bytes[..<first].elementsEqual("ti".utf8),
              DeploymentEnvironment.allCases.contains(where: { environment.elementsEqual($0.rawValue.utf8) }),
              keyID.count == 17, keyID.first == UInt8(ascii: "k"), third + 1 < bytes.count
        else { return nil }
        return String(decoding: keyID, as: UTF8.self)
    }

    /// How every token begins (`ti_sandbox_`, `ti_production_`): text that does is treated as a secret wherever it
    /// would be echoed or logged.
    public static let tokenPrefixes = DeploymentEnvironment.allCases.map { "ti_\($0.rawValue)_" }

    /// A token's random part is 32 bytes in base64url without padding: 43 characters, all but about 1.3 of them
    /// (`-` and `_`) letters and digits, both cases among them. Text holding this many letters and digits, both
    /// cases among them, is treated as a secret too, wherever it would be echoed or logged: the random part pasted
    /// alone, percent-encoded or with its separators changed is all a caller needs beside the (public) key ID. A
    /// random part with fewer (12 or more of `-` and `_`) comes about once in 10^8 keys.
    public static let fewestLettersAndDigitsInRandomPart = 32

    /// True for text of a key ID's shape (`k` and 16 lowercase hexadecimal digits), which may be repeated in a
    /// message; anything else typed where an ID belongs might be a secret, and is not.
    public static func isKeyIDShaped(_ text: String) -> Bool {
        let utf8 = text.utf8
        return utf8.count == 17 && utf8.first == UInt8(ascii: "k")
            && utf8.dropFirst().allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    /// What is stored: the SHA-256 of the whole token.
    public var hash: [UInt8] { SHA256.hash(token.utf8) }

    /// The token itself, for printing once at creation; never log it.
    public var revealed: String { token }

    public var description: String { "APIKeySecret(\(keyID), redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["keyID": keyID]) }
}
