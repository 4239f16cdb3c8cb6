import FoundationEssentials
import InsightCrypto
import Synchronization

/// Signs evaluation payloads as COSE_Sign1 (ES256) with the active key, and publishes every key's public half.
/// `reload()` picks up a key made by `trust-insights signing-keys rotate`: new payloads use it at once, while the
/// older keys stay published so payloads signed before still verify.
public final class PayloadSigner: Sendable {
    public struct PublishedKey: Sendable {
        public var kid: String
        public var publicKey: ES256PublicKey
        public var createdAt: Date
        public var isActive: Bool
    }

    private struct Keys: Sendable {
        var activeKeyID: String
        var signer: ES256Signer
        var published: [PublishedKey]
    }

    public let directory: String
    private let keys: Mutex<Keys>

    /// Loads the keys in `directory`, creating the first one (file mode 0600) on first start.
    public init(directory: String) throws {
        self.directory = directory
        self.keys = Mutex(try Self.load(directory, creatingFirst: true))
    }

    public var activeKeyID: String { keys.withLock { $0.activeKeyID } }
    public var publishedKeys: [PublishedKey] { keys.withLock { $0.published } }

    public func sign(_ payload: [UInt8]) throws -> [UInt8] {
        let (kid, signer) = keys.withLock { ($0.activeKeyID, $0.signer) }
        return try COSESign1.sign(payload: payload, kid: kid, signer: signer)
    }

    /// Re-reads the key directory; on failure the current keys stay in use. An emptied directory is a failure
    /// (halfway through a restore, say), not a reason to make a new key.
    public func reload() throws {
        let fresh = try Self.load(directory, creatingFirst: false)
        keys.withLock { $0 = fresh }
    }

    private static func load(_ directory: String, creatingFirst: Bool) throws -> Keys {
        let loaded = try SigningKeyFiles(directory: directory).loadOrCreate(creatingFirst: creatingFirst)
        return Keys(
            activeKeyID: loaded.active.kid, signer: ES256Signer(privateKey: loaded.active.key),
            published: loaded.all.map {
                PublishedKey(kid: $0.kid, publicKey: $0.publicKey, createdAt: $0.createdAt, isActive: $0.kid == loaded.active.kid)
            })
    }
}
