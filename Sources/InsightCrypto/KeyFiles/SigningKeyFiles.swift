import FoundationEssentials
import Glibc

/// The service's ES256 signing keys, one PKCS#8 PEM file per key in a directory of their own.
///
/// - The directory is created 0700 and refused if group or others can write to it.
/// - Each key file is written 0600 to a temporary name and renamed into place, and is refused at load time if
///   group or others have any permission on it.
/// - The time in a key's file name is when it starts signing: its creation time, or a later time for a key staged
///   ahead (`rotate(now:at:)`) so that verifiers can fetch it before its first payload. The active key is the
///   newest whose time has come; a staged key is published but signs nothing until then. Older keys stay so that
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

    /// The active key (as of `now`) and every key's public half, oldest first, staged ones included; creates the
    /// directory and a first key when there is none.
    /// With `creatingFirst` false an empty directory is an error (`CryptoError.noKeys`) instead: a running service
    /// reloading its keys must not start afresh where start-up would refuse to.
    public func loadOrCreate(
        now: Date = Date(), creatingFirst: Bool = true
    ) throws -> (active: (kid: String, key: ES256PrivateKey),
                 all: [(kid: String, publicKey: ES256PublicKey, createdAt: Date)]) {
        let keys = try loadAll(now: now, creatingFirst: creatingFirst)
        let active = keys[Self.activeIndex(keys.map(\.signsFromMilliseconds), now: now.millisecondsSince1970)]
        return (active: (kid: active.kid, key: active.key),
                all: keys.map { (kid: $0.kid, publicKey: $0.key.publicKey, createdAt: Date(millisecondsSince1970: $0.signsFromMilliseconds)) })
    }

    /// Every key with its private half and the time it signs from (Unix milliseconds), oldest first, never empty;
    /// what a signer needs to switch to a staged key by itself when its time comes.
    public func loadAll(
        now: Date = Date(), creatingFirst: Bool = true
    ) throws -> [(kid: String, key: ES256PrivateKey, signsFromMilliseconds: Int64)] {
        let storage = KeyDirectory(path: directory)
        try storage.prepare(creating: creatingFirst)
        var keys = try loadKeys(storage)
        if keys.isEmpty {
            guard creatingFirst else { throw CryptoError.noKeys(path: directory) }
            _ = try createKey(storage, now: now, after: nil)
            keys = try loadKeys(storage)
        }
        guard !keys.isEmpty else {
            // Unreachable unless another process empties the directory between our write and our read.
            throw CryptoError.keyStorage(path: directory, operation: "load", errno: ENOENT)
        }
        return keys.map { (kid: $0.name.kid, key: $0.key, signsFromMilliseconds: $0.name.createdAtMilliseconds) }
    }

    /// Which of keys sorted by the time they sign from is active at `now`: the newest whose time has come. When
    /// none has (the clock set back before every key), the oldest, so that there is always one.
    public static func activeIndex(_ signsFrom: [Int64], now: Int64) -> Int {
        signsFrom.lastIndex { $0 <= now } ?? 0
    }

    /// True when the directory holds a file named as a key file, read or checked or not: what a start-up check
    /// needs to tell a folder that never had keys from one whose keys went missing. A directory that is not there
    /// holds none; one this user cannot read throws, rather than read as empty (a restore owned by root would have
    /// been told its keys were lost, or, with its database gone too, started afresh beside them).
    public func containsKeyFiles() throws -> Bool {
        let names: [String]
        do {
            names = try KeyDirectory(path: directory).fileNames()
        } catch CryptoError.keyStorage(_, _, let code) where code == ENOENT {
            return false
        }
        return names.contains { SigningKeyFileName(fileName: $0) != nil }
    }

    /// What the directory holds besides key files, by name, each with whether group or others may read it: ignored
    /// by loading, but worth an operator's look (a backup copy of a private key left readable, a key restored under
    /// a name that is not a key file's, so that what it signed no longer verifies). Empty when there is no directory.
    public func otherEntries() throws -> [(name: String, readableByOthers: Bool)] {
        let names: [String]
        do {
            names = try KeyDirectory(path: directory).fileNames()
        } catch CryptoError.keyStorage(_, _, let code) where code == ENOENT {
            return []
        }
        return names.filter { SigningKeyFileName(fileName: $0) == nil }.sorted().map { name in
            var status = stat()
            let readable = lstat(directory + "/" + name, &status) == 0 && status.st_mode & 0o044 != 0
                && (status.st_mode & S_IFMT) != S_IFLNK
            return (name, readable)
        }
    }

    /// Every key's public half, oldest first (`activeIndex` tells the active one), without creating anything: empty
    /// when the directory or its keys do not exist yet. The same checks as `loadOrCreate` apply to what is there.
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

    /// Copies every key file as it is into `destination`, a new folder made 0700, each file 0600 and synced: a backup
    /// of the keys. Under the lock a rotation takes, so that a rotation running meanwhile is copied whole or not at
    /// all; the keys are read and checked as a start would check them first, since a backup of keys that would not
    /// load is no backup. Returns the key IDs copied, oldest first; none (and no folder made) when there are none.
    public func copyKeyFiles(to destination: String) throws -> [String] {
        guard try containsKeyFiles() else { return [] }
        let storage = KeyDirectory(path: directory)
        try storage.prepare(creating: false)
        return try storage.withExclusiveLock {
            let keys = try loadKeys(storage)
            guard mkdir(destination, 0o700) == 0 else {
                throw CryptoError.keyStorage(path: destination, operation: "mkdir", errno: errno)
            }
            let target = KeyDirectory(path: destination)
            for key in keys {
                try target.writePrivateFileAtomically(
                    named: key.name.fileName, content: try storage.readPrivateFile(named: key.name.fileName))
            }
            return keys.map(\.name.kid)
        }
    }

    /// What `rotate(now:at:)` did.
    public enum Rotation: Equatable, Sendable {
        /// A new key, signing from now.
        case created(kid: String)
        /// The key staged earlier, moved to sign from now (it was published since it was staged).
        case stagedKeyActivated(kid: String)
        /// A new key, published from the next reload and signing from `signsFrom`.
        case staged(kid: String, signsFrom: Date)
    }

    /// Refuses, creating nothing, when a key already there would be refused at load (`loadOrCreate`).
    /// Without `at`: makes a key active now, the staged one if there is one (verifiers may already hold it), else a
    /// new one. With `at`, a time after `now`: stages a new key that signs from then, while the active key signs on;
    /// one staged key at a time, and only beside a key that signs until then. Older keys remain for verification.
    /// `now`: the system clock, read once the lock is held (a rotation that waited for another must not judge
    /// that one's new key by a time from before it was made), unless a test gives its own.
    @discardableResult
    public func rotate(now: Date? = nil, at signsFrom: Date? = nil) throws -> Rotation {
        let storage = KeyDirectory(path: directory)
        try storage.prepare()
        return try storage.withExclusiveLock { try rotate(storage, now: now ?? Date(), at: signsFrom) }
    }

    private func rotate(_ storage: KeyDirectory, now: Date, at signsFrom: Date?) throws -> Rotation {
        // Every key is read and checked as start-up and a reload check it: a rotation beside a file they refuse (its
        // mode, owner, content or name) would report a new key that no running server can switch to, and the next
        // start would fail; the operator hears of the file now instead.
        let names = try loadKeys(storage).map(\.name)
        let nowMilliseconds = now.millisecondsSince1970
        // With the clock before every key's time the oldest key signs, and the newest is no staged key: taken for
        // one, a plain rotation moved the only key a day back and said a staged key was active, with no new key made
        // (time probe, 6 December), where a new key sorted after the others could not sign before their time.
        if let oldest = names.first, oldest.createdAtMilliseconds > nowMilliseconds {
            throw CryptoError.clockBehindEveryKey(kid: oldest.kid, signsFrom: Date(millisecondsSince1970: oldest.createdAtMilliseconds))
        }
        // Set back past the last rotation only, the clock made the newest key look staged: the same plain rotation
        // moved it back to now and made none (second regression probe). The names cannot tell a key staged ahead
        // from one made before the clock went back; the files' own times can: a rotation or a staging wrote each
        // file at the real time, which the system clock now reads as ahead of it.
        let systemNow = Date().millisecondsSince1970
        for name in names {
            let path = directory + "/" + name.fileName
            if let written = Self.lastWrittenMilliseconds(path), written > systemNow + Self.fileTimeTolerance {
                throw CryptoError.clockBehindKeyFile(path: path, writtenAt: Date(millisecondsSince1970: written))
            }
        }
        let staged = names.last.flatMap { $0.createdAtMilliseconds > nowMilliseconds ? $0 : nil }
        if let signsFrom {
            let milliseconds = signsFrom.millisecondsSince1970
            guard milliseconds > nowMilliseconds else { throw CryptoError.stagingTimeNotAhead(signsFrom: signsFrom) }
            if let staged { throw CryptoError.keyAlreadyStaged(kid: staged.kid, signsFrom: Date(millisecondsSince1970: staged.createdAtMilliseconds)) }
            guard !names.isEmpty else { throw CryptoError.noKeySigningBeforeStagedTime(path: directory) }
            let created = try createKey(storage, now: signsFrom, after: names.last)
            return .staged(kid: created.kid, signsFrom: Date(millisecondsSince1970: created.signsFromMilliseconds))
        }
        let current = names.last { $0.createdAtMilliseconds <= nowMilliseconds }
        guard let staged else {
            let created = try createKey(storage, now: now, after: names.last)
            Self.waitUntil(created.signsFromMilliseconds, from: nowMilliseconds)
            return .created(kid: created.kid)
        }
        // The staged key must sort after the key active now, whatever the clock, as a new key would.
        var milliseconds = nowMilliseconds
        if let current, milliseconds <= current.createdAtMilliseconds { milliseconds = current.createdAtMilliseconds + 1 }
        let moved = SigningKeyFileName(createdAtMilliseconds: milliseconds, kid: staged.kid)
        try storage.move(named: staged.fileName, to: moved.fileName)
        Self.waitUntil(milliseconds, from: nowMilliseconds)
        return .stagedKeyActivated(kid: staged.kid)
    }

    /// A key made active in the millisecond of the key before it signs from the next one: waiting that
    /// millisecond out means a rotation that returns has a key whose time has come, as its caller is told.
    private static func waitUntil(_ milliseconds: Int64, from nowMilliseconds: Int64) {
        let ahead = milliseconds - nowMilliseconds
        if ahead > 0 && ahead <= 1 { usleep(UInt32(ahead * 1000) + 100) }
    }

    /// Deletes a retired key, or withdraws a staged one. The key active now cannot be removed.
    public func remove(kid: String, now: Date? = nil) throws {
        let storage = KeyDirectory(path: directory)
        try storage.prepare()
        try storage.withExclusiveLock {
            let now = now ?? Date()
            let names = try storage.fileNames().compactMap(SigningKeyFileName.init(fileName:))
                .sorted { ($0.createdAtMilliseconds, $0.kid) < ($1.createdAtMilliseconds, $1.kid) }
            guard let target = names.first(where: { $0.kid == kid }) else { throw CryptoError.unknownKeyID(kid) }
            let active = names[Self.activeIndex(names.map(\.createdAtMilliseconds), now: now.millisecondsSince1970)]
            guard target != active else { throw CryptoError.cannotRemoveActiveKey(kid) }
            try storage.remove(named: target.fileName)
        }
    }

    private func loadKeys(_ storage: KeyDirectory) throws -> [(name: SigningKeyFileName, key: ES256PrivateKey)] {
        let names = try storage.fileNames().compactMap(SigningKeyFileName.init(fileName:))
            .sorted { ($0.createdAtMilliseconds, $0.kid) < ($1.createdAtMilliseconds, $1.kid) }
        // A backup restored beside the original under another time: one kid, published twice with two statuses
        // (cose probe, 6 December). Checked on the names, whose kid the content must match below.
        var kids = Set<String>()
        for name in names where !kids.insert(name.kid).inserted {
            throw CryptoError.duplicateKey(
                kid: name.kid, paths: names.filter { $0.kid == name.kid }.map { directory + "/" + $0.fileName })
        }
        return try names.map { name in
            let pem = try storage.readPrivateFile(named: name.fileName)
            // libcrypto reads the first key and ignores the rest: a second private key in the file sat there unseen
            // (signed-payload probe, 6 December), where a key belongs to the folder only as a file of its own. Other
            // blocks stay allowed: `openssl ecparam -genkey` writes EC PARAMETERS before the key. A line is a key's
            // boundary as libcrypto reads one, which takes a byte-order mark before it (regression probe).
            let privateKeys = pem.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                .filter(Self.beginsPrivateKey).count
            guard privateKeys <= 1 else {
                throw CryptoError.invalidKeyEncoding(
                    reason: "\(directory)/\(name.fileName) holds \(privateKeys) private keys where a key file holds one: keep each key in a file of its own, outside the key folder unless it signs")
            }
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

    /// File times come from the kernel's coarse clock, a tick (1 to 10 ms) behind the system clock at most: 50 ms
    /// is room to spare. A whole second let a clock set back by 0.9 s just after a rotation take that rotation's key
    /// for a staged one again (third regression probe).
    static let fileTimeTolerance: Int64 = 50

    /// The later of a file's modification and change times, in Unix milliseconds; nil when it cannot be read.
    static func lastWrittenMilliseconds(_ path: String) -> Int64? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        let modified = Int64(status.st_mtim.tv_sec) * 1000 + Int64(status.st_mtim.tv_nsec) / 1_000_000
        let changed = Int64(status.st_ctim.tv_sec) * 1000 + Int64(status.st_ctim.tv_nsec) / 1_000_000
        return max(modified, changed)
    }

    /// A line libcrypto would take for the start of a private key: `-----BEGIN <...>PRIVATE KEY-----`, lines split
    /// at LF only as it splits them. Before the boundary a byte-order mark is let pass; after it, any control byte
    /// (CR included) or byte above 0x7F, which libcrypto strips there (a second key whose BEGIN line ended in 0x01 or
    /// U+00A0 was read, and was not counted; second regression probe). Text after the boundary, as in a comment that
    /// mentions it, makes it no boundary; so do blanks before it and a DEL after it, which libcrypto does not take
    /// either (third regression probe). Lines past libcrypto's 254-byte read are not split as it splits them.
    private static func beginsPrivateKey(_ line: Substring.UTF8View.SubSequence) -> Bool {
        var bytes = line[...]
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        while bytes.starts(with: byteOrderMark) { bytes = bytes.dropFirst(3) }
        while let last = bytes.last, last <= 0x20 || last >= 0x80 { bytes = bytes.dropLast() }
        return bytes.starts(with: "-----BEGIN ".utf8) && bytes.reversed().starts(with: "PRIVATE KEY-----".utf8.reversed())
    }

    private func createKey(
        _ storage: KeyDirectory, now: Date, after newest: SigningKeyFileName?
    ) throws -> (kid: String, signsFromMilliseconds: Int64) {
        let key = try ES256PrivateKey.generate()
        let kid = key.publicKey.keyID
        // Creation times order the keys, so a new key must be strictly newer than the newest, whatever the clock.
        var milliseconds = now.millisecondsSince1970
        if let newest, milliseconds <= newest.createdAtMilliseconds {
            milliseconds = newest.createdAtMilliseconds + 1
        }
        let name = SigningKeyFileName(createdAtMilliseconds: milliseconds, kid: kid)
        try storage.writePrivateFileAtomically(named: name.fileName, content: key.pemRepresentation)
        return (kid, milliseconds)
    }
}

extension Date {
    init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded(.down))
    }
}
