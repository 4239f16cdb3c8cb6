import FoundationEssentials
import InsightCrypto

/// Signs evaluation payloads as COSE_Sign1 (ES256) with the active key, and publishes every key's public half.
public final class PayloadSigner: Sendable {
    public struct PublishedKey: Sendable {
        public var kid: String
        public var publicKey: ES256PublicKey
        public var createdAt: Date
        public var isActive: Bool
    }

    public let activeKeyID: String
    private let signer: ES256Signer
    public let publishedKeys: [PublishedKey]

    /// Loads the keys in `directory`, creating the first one (file mode 0600) on first start.
    public init(directory: String) throws {
        let loaded = try SigningKeyFiles(directory: directory).loadOrCreate()
        activeKeyID = loaded.active.kid
        signer = ES256Signer(privateKey: loaded.active.key)
        publishedKeys = loaded.all.map { PublishedKey(kid: $0.kid, publicKey: $0.publicKey, createdAt: $0.createdAt, isActive: $0.kid == loaded.active.kid) }
    }

    public func sign(_ payload: [UInt8]) throws -> [UInt8] {
        try COSESign1.sign(payload: payload, kid: activeKeyID, signer: signer)
    }
}
