import FoundationEssentials
import Glibc

/// The service's ES256 signing keys, one PKCS#8 PEM file per key in a directory of their own.
///
/// - The directory is created 0700 and refused if group or others can write to it.
/// - Each key file is written 0600 to a temporary name and renamed into place, and is refused at load time if
///   group or others have any permission on it.
/// - The newest key (by the creation time in its file name) is the active signing key; older keys stay so that
///   payloads signed before a rotation still verify, until `remove(kid:)` deletes them.
/// - kid: `ES256PublicKey.keyID`, the first 16 hex characters of SHA-256 over the SubjectPublicKeyInfo DER.
public struct SigningKeyFiles: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    public init(directory: URL) {
        self.init(directory: directory.path)
    }

    /// The active key and every key's public half, oldest first; creates the directory and a first key when
    /// there is none.
    /// With `creatingFirst` false an empty directory is an error (`CryptoError.noKeys`) instead: a running service
    /// reloading its keys must not start afresh where start-up would refuse to.
    public func loadOrCreate(
        now: Date = Date(), creatingFirst: Bool = true
    ) throws -> (active: (kid: String, key: ES256PrivateKey),
                 all: [(kid: String, publicKey: ES256PublicKey, createdAt: Date)]) {
        let storage = KeyDirectory(path: directory)
        try storage.prepare(creating: creatingFirst)
        var keys = try loadKeys(storage)
        if keys.isEmpty {
            guard creatingFirst else { throw CryptoError.noKeys(path: directory) }
            _ = try createKey(storage, now: now, after: nil)
            keys = try loadKeys(storage)
        }
        guard let newest = keys.last else {
            // Unreachable unless another process empties the directory between our write and our read.
            throw CryptoError.keyStorage(path: directory, operation: "load", errno: ENOENT)
        }
        return (active: (kid: newest.name.kid, key: newest.key), all: Self.publicHalves(keys))
    }

    /// True when the directory holds a file named as a key file, read or checked or not: what a start-up check
    /// needs to tell a folder that never had keys from one whose keys went missing.
    public func containsKeyFiles() -> Bool {
        guard let names = try? KeyDirectory(path: directory).fileNames() else { return false }
        return names.contains { SigningKeyFileName(fileName: $0) != nil }
    }

    /// Every key's public half, oldest first (the last is the active one), without creating anything: empty when
    /// the directory or its keys do not exist yet. The same checks as `loadOrCreate` apply to what is there.
    public func existing() throws -> [(kid: String, publicKey: ES256PublicKey, createdAt: Date)] {
        var status = stat()
        guard stat(directory, &status) == 0 else {
            if errno == ENOENT { return [] }
            throw CryptoError.keyStorage(path: directory, operation: "stat", errno: errno)
        }
        let storage = KeyDirectory(path: directory)
        try storage.prepare()
        return Self.publicHalves(try loadKeys(storage))
    }

    private static func publicHalves(
        _ keys: [(name: SigningKeyFileName, key: ES256PrivateKey)]
    ) -> [(kid: String, publicKey: ES256PublicKey, createdAt: Date)] {
        keys.map { entry in
            (kid: entry.name.kid, publicKey: entry.key.publicKey,
             createdAt: Date(millisecondsSince1970: entry.name.createdAtMilliseconds))
        }
    }

    /// Creates a new key, which becomes the active one, and returns its kid. Older keys remain for verification.
    @discardableResult
    public func rotate(now: Date = Date()) throws -> String {
        let storage = KeyDirectory(path: directory)
        try storage.prepare()
        let existing = try storage.fileNames().compactMap(SigningKeyFileName.init(fileName:))
        let newest = existing.max { $0.createdAtMilliseconds < $1.createdAtMilliseconds }
        return try createKey(storage, now: now, after: newest)
    }

    /// Deletes a retired key. The active key cannot be removed.
    public func remove(kid: String) throws {
        let storage = KeyDirectory(path: directory)
        try storage.prepare()
        let names = try storage.fileNames().compactMap(SigningKeyFileName.init(fileName:))
            .sorted { $0.createdAtMilliseconds < $1.createdAtMilliseconds }
        guard let target = names.first(where: { $0.kid == kid }) else { throw CryptoError.unknownKeyID(kid) }
        guard target != names.last else { throw CryptoError.cannotRemoveActiveKey(kid) }
        try storage.remove(named: target.fileName)
    }

    private func loadKeys(_ storage: KeyDirectory) throws -> [(name: SigningKeyFileName, key: ES256PrivateKey)] {
        let names = try storage.fileNames().compactMap(SigningKeyFileName.init(fileName:))
            .sorted { ($0.createdAtMilliseconds, $0.kid) < ($1.createdAtMilliseconds, $1.kid) }
        return try names.map { name in
            let pem = try storage.readPrivateFile(named: name.fileName)
            let key: ES256PrivateKey
            do {
                key = try ES256PrivateKey(pemRepresentation: pem)
            } catch CryptoError.invalidKeyEncoding(let reason) {
                // Named, so an operator knows which of several files to restore.
                throw CryptoError.invalidKeyEncoding(
                    reason: "\(directory)/\(name.fileName) holds no PEM private key libcrypto can read (PKCS#8 PRIVATE KEY or SEC 1 EC PRIVATE KEY; libcrypto says: \(reason)): restore the file from a backup")
            } catch CryptoError.unsupportedKey(let reason) {
                throw CryptoError.unsupportedKey(reason: "\(directory)/\(name.fileName): \(reason)")
            }
            guard key.publicKey.keyID == name.kid else {
                throw CryptoError.keyFileMismatch(path: directory + "/" + name.fileName)
            }
            return (name, key)
        }
    }

    private func createKey(_ storage: KeyDirectory, now: Date, after newest: SigningKeyFileName?) throws -> String {
        let key = try ES256PrivateKey.generate()
        let kid = key.publicKey.keyID
        // Creation times order the keys, so a new key must be strictly newer than the newest, whatever the clock.
        var milliseconds = now.millisecondsSince1970
        if let newest, milliseconds <= newest.createdAtMilliseconds {
            milliseconds = newest.createdAtMilliseconds + 1
        }
        let name = SigningKeyFileName(createdAtMilliseconds: milliseconds, kid: kid)
        try storage.writePrivateFileAtomically(named: name.fileName, content: key.pemRepresentation)
        return kid
    }
}

extension Date {
    fileprivate init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    fileprivate var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded(.down))
    }
}
