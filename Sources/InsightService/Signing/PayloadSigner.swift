import FoundationEssentials
import InsightCrypto
import Synchronization

/// Signs evaluation payloads as COSE_Sign1 (ES256) with the active key, and publishes every key's public half.
/// `reload()` picks up a key made by `trust-insights signing-keys rotate`: a key that signs from now is used at
/// once; a staged key (`rotate --at`) is published at once and signs from its time on, which the signer notices
/// by itself at the first signature or key listing after it. Older keys stay published so that payloads signed
/// before still verify.
public final class PayloadSigner: Sendable {
    public typealias Status = SigningKeyStatus

    public struct PublishedKey: Sendable {
        public var kid: String
        public var publicKey: ES256PublicKey
        /// When the key started, or starts, signing (Unix milliseconds): the time in its file's name, published
        /// as `createdAt`.
        public var signsFromMilliseconds: Int64
        public var status: Status
    }

    private struct Key: Sendable {
        var kid: String
        var signer: ES256Signer
        var publicKey: ES256PublicKey
        var signsFromMilliseconds: Int64
    }

    private struct Keys: Sendable {
        /// Oldest first.
        var all: [Key]
        var activeIndex: Int
        /// When the key after the active one starts signing; `Int64.max` when there is none.
        var nextSwitchMilliseconds: Int64

        init(_ all: [Key], nowMilliseconds: Int64) {
            self.all = all
            activeIndex = 0
            nextSwitchMilliseconds = .max
            advance(to: nowMilliseconds)
        }

        /// Only forward: a clock set back does not bring a retired key back into use. True when the key changed.
        @discardableResult
        mutating func advance(to nowMilliseconds: Int64) -> Bool {
            let index = max(activeIndex, SigningKeyFiles.activeIndex(all.map(\.signsFromMilliseconds), now: nowMilliseconds))
            defer { activeIndex = index }
            nextSwitchMilliseconds = index + 1 < all.count ? all[index + 1].signsFromMilliseconds : .max
            return index != activeIndex
        }
    }

    public let directory: String
    private let keys: Mutex<Keys>
    private let clock: @Sendable () -> Int64
    private let switched: @Sendable (_ kid: String) -> Void

    /// Loads the keys in `directory`, creating the first one (file mode 0600) on first start. `clock` gives Unix
    /// milliseconds; `switched` hears of a staged key taking over when its time comes (for the log), outside any
    /// lock, once.
    public init(
        directory: String, clock: @escaping @Sendable () -> Int64 = PayloadSigner.systemMilliseconds,
        switched: @escaping @Sendable (_ kid: String) -> Void = { _ in }
    ) throws {
        self.directory = directory
        self.clock = clock
        self.switched = switched
        self.keys = Mutex(try Self.load(directory, creatingFirst: true, nowMilliseconds: clock()))
    }

    public static let systemMilliseconds: @Sendable () -> Int64 = {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    public var activeKeyID: String { current().kid }

    public var publishedKeys: [PublishedKey] {
        let now = clock()
        let (published, switchedTo) = keys.withLock { keys in
            let changed = keys.advance(to: now)
            let published = keys.all.enumerated().map { index, key in
                PublishedKey(
                    kid: key.kid, publicKey: key.publicKey, signsFromMilliseconds: key.signsFromMilliseconds,
                    status: Status(keyAt: index, activeIndex: keys.activeIndex))
            }
            return (published, changed ? keys.all[keys.activeIndex].kid : nil)
        }
        if let switchedTo { switched(switchedTo) }
        return published
    }

    public func sign(_ payload: [UInt8]) throws -> [UInt8] {
        let key = current()
        return try COSESign1.sign(payload: payload, kid: key.kid, signer: key.signer)
    }

    private func current() -> Key {
        let now = clock()
        let (key, changed) = keys.withLock { keys in
            let changed = now >= keys.nextSwitchMilliseconds && keys.advance(to: now)
            return (keys.all[keys.activeIndex], changed)
        }
        if changed { switched(key.kid) }
        return key
    }

    /// Re-reads the key directory; on failure the current keys stay in use. An emptied directory is a failure
    /// (halfway through a restore, say), not a reason to make a new key. The key signing now stays in use if it
    /// is still there and the files would pick an older one only because the clock went back.
    public func reload() throws {
        var fresh = try Self.load(directory, creatingFirst: false, nowMilliseconds: clock())
        keys.withLock { keys in
            let signing = keys.all[keys.activeIndex].kid
            if let index = fresh.all.firstIndex(where: { $0.kid == signing }), index > fresh.activeIndex {
                fresh.activeIndex = index
                fresh.nextSwitchMilliseconds = index + 1 < fresh.all.count ? fresh.all[index + 1].signsFromMilliseconds : .max
            }
            keys = fresh
        }
    }

    private static func load(_ directory: String, creatingFirst: Bool, nowMilliseconds: Int64) throws -> Keys {
        let loaded = try SigningKeyFiles(directory: directory).loadAll(
            now: Date(timeIntervalSince1970: Double(nowMilliseconds) / 1000), creatingFirst: creatingFirst)
        return Keys(
            loaded.map {
                Key(kid: $0.kid, signer: ES256Signer(privateKey: $0.key), publicKey: $0.key.publicKey,
                    signsFromMilliseconds: $0.signsFromMilliseconds)
            },
            nowMilliseconds: nowMilliseconds)
    }
}
