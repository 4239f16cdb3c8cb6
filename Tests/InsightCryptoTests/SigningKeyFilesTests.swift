import Foundation
import Synchronization
import Glibc
import Testing
@testable import InsightCrypto

@Suite struct SigningKeyFilesTests {
    func mode(of path: String) -> UInt32 {
        var status = stat()
        precondition(stat(path, &status) == 0)
        return status.st_mode & 0o7777
    }

    func keyFiles(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".pem") }.sorted()
    }

    /// A key folder `keys` under `root` holding one key: the folder, its files, and the key file's path.
    func folderWithOneKey(in root: URL) throws -> (directory: String, files: SigningKeyFiles, keyPath: String) {
        let directory = root.appendingPathComponent("keys").path
        let files = SigningKeyFiles(directory: directory)
        _ = try files.loadOrCreate()
        let name = try #require(try keyFiles(in: directory).first)
        return (directory, files, directory + "/" + name)
    }

    @Test func firstLoadCreatesA0700DirectoryWithOne0600Key() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("keys").path
        let files = SigningKeyFiles(directory: directory)
        let loaded = try files.loadOrCreate()
        #expect(mode(of: directory) == 0o700)
        let names = try keyFiles(in: directory)
        #expect(names.count == 1)
        #expect(mode(of: directory + "/" + names[0]) == 0o600)
        #expect(names[0].hasSuffix("-\(loaded.active.kid).pem"))
        #expect(loaded.all.count == 1)
        #expect(loaded.all[0].kid == loaded.active.kid)
        #expect(loaded.active.key.publicKey.keyID == loaded.active.kid)
        #expect(loaded.all[0].publicKey == loaded.active.key.publicKey)
        #expect(abs(loaded.all[0].createdAt.timeIntervalSinceNow) < 60)
        // Nothing temporary is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == 1)
    }

    @Test func createsMissingParentDirectories() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("data/signing/keys").path
        _ = try SigningKeyFiles(directory: directory).loadOrCreate()
        #expect(mode(of: directory) == 0o700)
        #expect(try keyFiles(in: directory).count == 1)
    }

    @Test func reloadingReturnsTheSameKey() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let files = SigningKeyFiles(directory: root.appendingPathComponent("keys"))
        let first = try files.loadOrCreate()
        let second = try files.loadOrCreate()
        #expect(first.active.kid == second.active.kid)
        let message = Array("hello".utf8)
        #expect(try first.active.key.publicKey.isValidSignature(second.active.key.signature(for: message), for: message))
    }

    @Test func rotationMakesTheNewKeyActiveAndKeepsOldOnesForVerification() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let files = SigningKeyFiles(directory: root.appendingPathComponent("keys"))
        let fixedNow = Date(timeIntervalSince1970: 1_800_000_000)
        let original = try files.loadOrCreate(now: fixedNow).active.kid
        // Same clock reading: the new key must still sort after the old one, so it signs from a millisecond on.
        guard case .created(let rotated) = try files.rotate(now: fixedNow) else { Issue.record("no key created"); return }
        #expect(rotated != original)
        #expect(try files.loadOrCreate(now: fixedNow).active.kid == original)
        let aMillisecondLater = fixedNow.addingTimeInterval(0.001)
        let loaded = try files.loadOrCreate(now: aMillisecondLater)
        #expect(loaded.active.kid == rotated)
        #expect(loaded.all.map(\.kid) == [original, rotated])
        #expect(loaded.all[0].createdAt < loaded.all[1].createdAt)

        #expect(throws: CryptoError.cannotRemoveActiveKey(rotated)) { try files.remove(kid: rotated, now: aMillisecondLater) }
        #expect(throws: CryptoError.unknownKeyID("ffffffffffffffff")) { try files.remove(kid: "ffffffffffffffff") }
        try files.remove(kid: original, now: aMillisecondLater)
        #expect(try files.loadOrCreate().all.map(\.kid) == [rotated])
    }

    /// A key staged ahead is published (listed) but not active until its time; a plain rotation then makes that
    /// key active now rather than a new one, since verifiers may already hold it.
    @Test func aStagedKeySignsOnlyFromItsTimeAndARotationActivatesIt() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let files = SigningKeyFiles(directory: root.appendingPathComponent("keys"))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let original = try files.loadOrCreate(now: now).active.kid
        let at = now.addingTimeInterval(3600)
        guard case .staged(let staged, let signsFrom) = try files.rotate(now: now, at: at) else {
            Issue.record("nothing staged"); return
        }
        #expect(signsFrom == at)
        #expect(staged != original)
        #expect(try files.loadOrCreate(now: now).active.kid == original)
        #expect(try files.loadOrCreate(now: now).all.map(\.kid) == [original, staged])
        #expect(try files.loadOrCreate(now: at.addingTimeInterval(-0.001)).active.kid == original)
        #expect(try files.loadOrCreate(now: at).active.kid == staged)
        #expect(try files.loadAll(now: now).map(\.signsFromMilliseconds) == [1_800_000_000_000, 1_800_003_600_000])

        // One staged key at a time, and only ahead of now.
        #expect(throws: CryptoError.keyAlreadyStaged(kid: staged, signsFrom: at)) {
            try files.rotate(now: now, at: at.addingTimeInterval(60))
        }
        #expect(throws: CryptoError.stagingTimeNotAhead(signsFrom: now)) { try files.rotate(now: now.addingTimeInterval(1), at: now) }
        #expect("\(CryptoError.keyAlreadyStaged(kid: staged, signsFrom: at))".contains("\(staged) is already staged"))

        // The key active now cannot be removed; the staged one can be withdrawn.
        #expect(throws: CryptoError.cannotRemoveActiveKey(original)) { try files.remove(kid: original, now: now) }

        let later = now.addingTimeInterval(60)
        #expect(try files.rotate(now: later) == .stagedKeyActivated(kid: staged))
        let loaded = try files.loadOrCreate(now: later)
        #expect(loaded.active.kid == staged)
        #expect(loaded.all.map(\.kid) == [original, staged])
        #expect(loaded.all[1].createdAt == later)
        // Nothing is staged any more, so the next rotation makes a new key.
        guard case .created(let next) = try files.rotate(now: later) else { Issue.record("no key created"); return }
        #expect(try files.loadOrCreate(now: later.addingTimeInterval(0.001)).active.kid == next)
    }

    /// Rotations take turns on the folder's lock: of eight `rotate --at` at once exactly one stages a key, the
    /// others are told it is staged (two at once both found none and both staged one).
    @Test func concurrentStagingsStageOneKey() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let files = SigningKeyFiles(directory: root.appendingPathComponent("keys"))
        _ = try files.loadOrCreate()
        let outcomes = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let outcome: String
            do {
                if case .staged = try files.rotate(at: Date().addingTimeInterval(3600 + Double(index))) { outcome = "staged" } else { outcome = "other" }
            } catch CryptoError.keyAlreadyStaged {
                outcome = "refused"
            } catch {
                outcome = "\(error)"
            }
            outcomes.withLock { $0.append(outcome) }
        }
        #expect(outcomes.withLock { $0 }.sorted() == ["refused", "refused", "refused", "refused", "refused", "refused", "refused", "staged"])
        #expect(try files.existing().count == 2)
    }

    /// With no key at all the oldest key is active whatever its time, so a key staged alone would sign at once,
    /// before the time verifiers were told: refused, with nothing written.
    @Test func aKeyIsNotStagedWhereNoKeySignsUntilItsTime() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("keys")
        let files = SigningKeyFiles(directory: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(throws: CryptoError.noKeySigningBeforeStagedTime(path: directory.path)) {
            try files.rotate(now: now, at: now.addingTimeInterval(3600))
        }
        #expect(try files.existing().isEmpty)
        #expect("\(CryptoError.noKeySigningBeforeStagedTime(path: directory.path))".contains("rotate without a time first"))
        // Once a key signs, staging works.
        guard case .created = try files.rotate(now: now) else { Issue.record("no key created"); return }
        guard case .staged = try files.rotate(now: now, at: now.addingTimeInterval(3600)) else { Issue.record("nothing staged"); return }
    }

    @Test func aStagedKeyCanBeWithdrawn() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let files = SigningKeyFiles(directory: root.appendingPathComponent("keys"))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let original = try files.loadOrCreate(now: now).active.kid
        guard case .staged(let staged, _) = try files.rotate(now: now, at: now.addingTimeInterval(10)) else {
            Issue.record("nothing staged"); return
        }
        try files.remove(kid: staged, now: now)
        #expect(try files.loadOrCreate(now: now.addingTimeInterval(20)).all.map(\.kid) == [original])
    }

    /// With the clock set back before every key, the oldest signs rather than none.
    @Test func theOldestKeyIsActiveWhenNoKeysTimeHasCome() {
        #expect(SigningKeyFiles.activeIndex([100, 200, 300], now: 50) == 0)
        #expect(SigningKeyFiles.activeIndex([100, 200, 300], now: 200) == 1)
        #expect(SigningKeyFiles.activeIndex([100, 200, 300], now: 299) == 1)
        #expect(SigningKeyFiles.activeIndex([100, 200, 300], now: 300) == 2)
    }

    /// A clock set back before every key's time: the only key was taken for a staged one, and a plain rotation
    /// moved it a day back and reported it activated, with no new key (time probe, 6 December). Refused, changing
    /// nothing, both ways.
    @Test func aRotationWithTheClockBeforeEveryKeyIsRefused() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let files = SigningKeyFiles(directory: root.appendingPathComponent("keys"))
        let made = Date(timeIntervalSince1970: 1_800_000_000)
        let kid = try files.loadOrCreate(now: made).active.kid
        let before = try keyFiles(in: root.appendingPathComponent("keys").path)
        let dayBehind = made.addingTimeInterval(-86_400)
        #expect(throws: CryptoError.clockBehindEveryKey(kid: kid, signsFrom: made)) { try files.rotate(now: dayBehind) }
        #expect(throws: CryptoError.clockBehindEveryKey(kid: kid, signsFrom: made)) {
            try files.rotate(now: dayBehind, at: made.addingTimeInterval(3600))
        }
        #expect(try keyFiles(in: root.appendingPathComponent("keys").path) == before)
        // Its time come, a rotation makes a new key as ever.
        guard case .created = try files.rotate(now: made.addingTimeInterval(1)) else { Issue.record("no key created"); return }
    }

    /// The clock set back past the last rotation only: the newest key looked staged, and a plain rotation moved it
    /// back to now and made no new key (second regression probe, 6 December). The key file's own time, written at
    /// the real time and now ahead of the system clock, tells; here it is put a day ahead, as a clock a day behind
    /// would see it.
    @Test func aRotationWithTheClockBehindAKeyFilesTimeIsRefused() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("keys").path
        let files = SigningKeyFiles(directory: directory)
        let now = Date()
        _ = try files.loadOrCreate(now: now.addingTimeInterval(-7200))
        guard case .created = try files.rotate(now: now.addingTimeInterval(-3600)) else { Issue.record("no key created"); return }
        let newest = try #require(try keyFiles(in: directory).last)
        let path = directory + "/" + newest
        var ahead = timespec(tv_sec: time(nil) + 86_400, tv_nsec: 0)
        var times = [ahead, ahead]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        let before = try keyFiles(in: directory)
        #expect {
            try files.rotate(now: now)
        } throws: { error in
            guard case CryptoError.clockBehindKeyFile(let named, _) = error else { return false }
            return named == path
        }
        #expect(throws: CryptoError.self) { try files.rotate(now: now, at: now.addingTimeInterval(60)) }
        #expect(try keyFiles(in: directory) == before)
        ahead = timespec(tv_sec: time(nil) - 60, tv_nsec: 0)
        times = [ahead, ahead]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        // The file's change time is the real one, which the system clock has reached: the rotation goes ahead.
        guard case .created = try files.rotate(now: now) else { Issue.record("no key created"); return }
    }

    @Test func refusesAPrivateKeyFileReadableByOthers() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (_, files, path) = try folderWithOneKey(in: root)
        #expect(chmod(path, 0o644) == 0)
        #expect {
            try files.loadOrCreate()
        } throws: { error in
            guard case let CryptoError.insecurePermissions(errorPath, mode, reason) = error else { return false }
            return errorPath == path && mode & 0o777 == 0o644 && reason.contains("group or others")
        }
        #expect(chmod(path, 0o640) == 0)
        #expect(throws: CryptoError.self) { try files.loadOrCreate() }
        #expect(chmod(path, 0o600) == 0)
        #expect(throws: Never.self) { try files.loadOrCreate() }
    }

    /// Said as such: O_NOFOLLOW's ELOOP read "too many levels of symbolic links" for a single link.
    @Test func refusesAKeyFileThatIsASymbolicLinkSayingSo() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (_, files, path) = try folderWithOneKey(in: root)
        let moved = root.appendingPathComponent("elsewhere.pem").path
        #expect(rename(path, moved) == 0)
        #expect(symlink(moved, path) == 0)
        #expect(throws: CryptoError.symbolicLink(path: path)) { try files.loadOrCreate() }
        #expect("\(CryptoError.symbolicLink(path: path))".contains("is a symbolic link"))
    }

    /// A named pipe under a key's name is refused at once, not waited on: `serve` sat in `open` with SIGTERM blocked
    /// until SIGKILL (CLI probe, 7 December). A folder is named as one, not as "Invalid argument".
    @Test func refusesANamedPipeOrAFolderUnderAKeysNameAtOnce() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (_, files, path) = try folderWithOneKey(in: root)
        #expect(unlink(path) == 0)
        #expect(mkfifo(path, 0o600) == 0)
        let started = ContinuousClock.now
        #expect(throws: CryptoError.notARegularFile(path: path, kind: "a named pipe")) { try files.loadOrCreate() }
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect("\(CryptoError.notARegularFile(path: path, kind: "a named pipe"))" == "refusing \(path): not a regular file (a named pipe)")
        #expect(unlink(path) == 0)
        #expect(mkdir(path, 0o700) == 0)
        #expect(throws: CryptoError.notARegularFile(path: path, kind: "a folder")) { try files.loadOrCreate() }
        #expect("\(CryptoError.notARegularFile(path: path, kind: "a folder"))" == "refusing \(path): it is a folder, not a file")
    }

    /// The key folder itself replaced by a named pipe or a file said "opendir ... failed: Not a directory (errno 20)"
    /// (CLI probe, 7 December): what was put there is named, by every way in.
    @Test func refusesANamedPipeOrAFileInPlaceOfTheFolder() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (directory, files, _) = try folderWithOneKey(in: root)
        try FileManager.default.removeItem(atPath: directory)
        #expect(mkfifo(directory, 0o600) == 0)
        let pipe = CryptoError.notAFolder(path: directory, kind: "a named pipe")
        #expect(throws: pipe) { try files.loadOrCreate() }
        #expect(throws: pipe) { try files.loadOrCreate(creatingFirst: false) }
        #expect(throws: pipe) { try files.existing() }
        #expect(throws: pipe) { try files.containsKeyFiles() }
        #expect(throws: pipe) { try files.otherEntries() }
        #expect("\(pipe)" == "refusing \(directory): it is a named pipe, not the folder that holds the signing keys")
        #expect(unlink(directory) == 0)
        FileManager.default.createFile(atPath: directory, contents: Data("x".utf8))
        #expect(throws: CryptoError.notAFolder(path: directory, kind: "a file")) { try files.loadOrCreate() }
        #expect(throws: CryptoError.notAFolder(path: directory, kind: "a file")) { try files.containsKeyFiles() }
    }

    /// A damaged key file says which file, and that it is to be restored.
    @Test func aKeyFileThatIsNoPEMKeyIsNamedWithWhatToDo() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (_, files, path) = try folderWithOneKey(in: root)
        #expect(truncate(path, 0) == 0)
        let error = #expect(throws: CryptoError.self) { try files.loadOrCreate() }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains(path) && text.contains("restore the file from a backup"), "\(text)")
    }

    @Test func refusesADirectoryOthersCanWrite() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("keys").path
        #expect(mkdir(directory, 0o700) == 0)
        #expect(chmod(directory, 0o777) == 0)
        #expect {
            try SigningKeyFiles(directory: directory).loadOrCreate()
        } throws: { error in
            guard case CryptoError.insecurePermissions = error else { return false }
            return true
        }
        #expect(try keyFiles(in: directory).isEmpty)
    }

    /// Whoever may write the folder around the key directory can swap the directory for one of their own.
    @Test func refusesAFolderOthersCanWriteAroundTheKeys() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("keys").path
        #expect(chmod(root.path, 0o777) == 0)
        #expect {
            try SigningKeyFiles(directory: directory).loadOrCreate()
        } throws: { error in
            guard case CryptoError.insecurePermissions(let path, _, _) = error else { return false }
            return path == root.path
        }
        // The sticky bit stops others from renaming what is not theirs, as on /tmp; group write is an
        // orchestrator's grant (Kubernetes fsGroup), not a stranger's.
        #expect(chmod(root.path, 0o1777) == 0)
        #expect(throws: Never.self) { try SigningKeyFiles(directory: directory).loadOrCreate() }
        #expect(chmod(root.path, 0o770) == 0)
        #expect(throws: Never.self) { try SigningKeyFiles(directory: directory).loadOrCreate() }
    }

    /// Modes pass for another user's 0700 directory and 0600 files; ownership must be checked too. Needs root, to
    /// give the files away.
    @Test func refusesKeysOwnedByAnotherUser() throws {
        guard geteuid() == 0 else {
            print("SigningKeyFilesTests: skipped refusesKeysOwnedByAnotherUser, which needs root to chown")
            return
        }
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (directory, files, keyPath) = try folderWithOneKey(in: root)
        #expect(chown(keyPath, 65534, 65534) == 0)
        #expect {
            try files.loadOrCreate()
        } throws: { error in
            guard case CryptoError.foreignOwner(let path, let owner, _) = error else { return false }
            // The advice is to run as the owner: handing the files to this user (root) would lock the service out.
            return path == keyPath && owner == 65534
                && "\(error)".contains("run this as the user that owns it") && !"\(error)".hasSuffix("chown it")
        }
        #expect(chown(keyPath, 0, 0) == 0)
        #expect(chown(directory, 65534, 65534) == 0)
        #expect {
            try files.loadOrCreate()
        } throws: { error in
            guard case CryptoError.foreignOwner(let path, _, _) = error else { return false }
            return path == directory
        }
    }

    /// A running service reloading its keys must not make a new one where start-up would refuse to start.
    @Test func loadingWithoutCreatingRefusesAnEmptyFolder() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("keys").path
        let files = SigningKeyFiles(directory: directory)
        #expect(throws: CryptoError.noKeys(path: directory)) { try files.loadOrCreate(creatingFirst: false) }
        // Nothing is made on disk either: a folder left where the keys were moved away would catch them, moved
        // back, one level down.
        #expect(!FileManager.default.fileExists(atPath: directory))
        let created = try files.loadOrCreate()
        #expect(try files.loadOrCreate(creatingFirst: false).active.kid == created.active.kid)
    }

    @Test func refusesAKeyFileWhoseNameDoesNotMatchItsKey() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("keys").path
        let files = SigningKeyFiles(directory: directory)
        _ = try files.loadOrCreate()
        let name = try #require(try keyFiles(in: directory).first)
        let forged = "es256-1-0123456789abcdef.pem"
        #expect(rename(directory + "/" + name, directory + "/" + forged) == 0)
        #expect(throws: CryptoError.keyFileMismatch(path: directory + "/" + forged)) { try files.loadOrCreate() }
    }

    /// A key file copied beside itself under another time (a backup restored next to the original) published one
    /// kid twice, once active and once retired (cose probe, 6 December): start-up, reloads and listings refuse it.
    @Test func refusesTheSameKeyInTwoFiles() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("keys").path
        let files = SigningKeyFiles(directory: directory)
        let created = try files.loadOrCreate()
        let name = try #require(try keyFiles(in: directory).first)
        let copy = "es256-1-\(created.active.kid).pem"
        try FileManager.default.copyItem(atPath: directory + "/" + name, toPath: directory + "/" + copy)
        #expect(chmod(directory + "/" + copy, 0o600) == 0)
        let both = [directory + "/" + copy, directory + "/" + name]
        #expect(throws: CryptoError.duplicateKey(kid: created.active.kid, paths: both)) { try files.loadOrCreate() }
        #expect(throws: CryptoError.duplicateKey(kid: created.active.kid, paths: both)) { try files.existing() }
        #expect(unlink(directory + "/" + copy) == 0)
        #expect(try files.loadOrCreate().active.kid == created.active.kid)
    }

    /// A rotation beside a key file that start-up and reloads refuse would print a new key no server can switch
    /// to (signing-keys probe, 5 December: it exited 0 beside a key file of mode 0644, another owner's, a symbolic
    /// link, a damaged one, one whose name names another key).
    @Test func rotationRefusesAFolderThatLoadingRefusesAndCreatesNothing() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (directory, files, path) = try folderWithOneKey(in: root)
        let before = try keyFiles(in: directory)
        #expect(chmod(path, 0o644) == 0)
        #expect(throws: CryptoError.self) { try files.rotate() }
        #expect(throws: CryptoError.self) { try files.rotate(at: Date().addingTimeInterval(3600)) }
        #expect(try keyFiles(in: directory) == before, "nothing created")
        #expect(chmod(path, 0o600) == 0)
        #expect(truncate(path, 10) == 0)
        #expect(throws: CryptoError.self) { try files.rotate() }
        #expect(try keyFiles(in: directory) == before, "nothing created")
    }

    @Test func ignoresFilesThatAreNotKeyFiles() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("keys").path
        let files = SigningKeyFiles(directory: directory)
        let kid = try files.loadOrCreate().active.kid
        try "notes".write(toFile: directory + "/README", atomically: false, encoding: .utf8)
        try "junk".write(toFile: directory + "/.tmp-deadbeef", atomically: false, encoding: .utf8)
        #expect(chmod(directory + "/README", 0o644) == 0)
        #expect(chmod(directory + "/.tmp-deadbeef", 0o600) == 0)
        #expect(try files.loadOrCreate().active.kid == kid)
        // Listed for the start-up warning, with whether others may read them.
        let others = try files.otherEntries()
        #expect(others.map(\.name) == [".tmp-deadbeef", "README"])
        #expect(others.map(\.readableByOthers) == [false, true])
        #expect(try SigningKeyFiles(directory: directory + "/none").otherEntries().isEmpty)
    }

    @Test func fileNamesRoundTripAndRejectLookalikes() {
        let name = SigningKeyFileName(createdAtMilliseconds: 1_800_000_000_123, kid: "0123456789abcdef")
        #expect(name.fileName == "es256-1800000000123-0123456789abcdef.pem")
        #expect(SigningKeyFileName(fileName: name.fileName) == name)
        #expect(SigningKeyFileName(fileName: "es256-1-0123456789ABCDEF.pem") == nil)
        #expect(SigningKeyFileName(fileName: "es256--1-0123456789abcdef.pem") == nil)
        #expect(SigningKeyFileName(fileName: "es256-1-0123456789abcdef.pem.tmp") == nil)
        // Only the name this type writes: a time with a leading zero or a sign was taken for a key file and then
        // opened under its canonical name (regression probe, 6 December).
        #expect(SigningKeyFileName(fileName: "es256-01800000000123-0123456789abcdef.pem") == nil)
        #expect(SigningKeyFileName(fileName: "es256-+1800000000123-0123456789abcdef.pem") == nil)
        #expect(SigningKeyFileName(fileName: "es256--0123456789abcdef.pem") == nil)
        #expect(SigningKeyFileName(fileName: "es256-0-0123456789abcdef.pem")?.createdAtMilliseconds == 0)
        // A time RFC 3339 cannot write (after year 9999) would be published as a createdAt no client parses.
        #expect(SigningKeyFileName(fileName: "es256-253402300799999-0123456789abcdef.pem") != nil)
        #expect(SigningKeyFileName(fileName: "es256-253402300800000-0123456789abcdef.pem") == nil)
        #expect(SigningKeyFileName(fileName: "es256-9223372036854775807-0123456789abcdef.pem") == nil)
    }

    /// libcrypto reads a PEM file's first key: a second one appended sat in the key folder, unseen and unwarned
    /// (signed-payload probe, 6 December).
    @Test func refusesAKeyFileHoldingASecondKey() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let (_, files, keyPath) = try folderWithOneKey(in: root)
        let first = try String(contentsOfFile: keyPath, encoding: .utf8)
        // Parameters before the key, as `openssl ecparam -genkey` writes them, are no second key.
        let parameters = "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n"
        try (parameters + first).write(toFile: keyPath, atomically: false, encoding: .utf8)
        _ = try files.loadOrCreate()
        let second = try ES256PrivateKey.generate().pemRepresentation
        try (first + second).write(toFile: keyPath, atomically: false, encoding: .utf8)
        #expect {
            try files.loadOrCreate()
        } throws: { error in
            guard case CryptoError.invalidKeyEncoding(let reason) = error else { return false }
            return reason.contains(keyPath) && reason.contains("2 private keys")
        }
        // A byte-order mark before either key, or a control byte or non-ASCII character after its BEGIN line, is
        // still a key's boundary to libcrypto (regression probes).
        let secondBegin = try #require(second.split(separator: "\n", maxSplits: 1).first)
        let secondRest = String(second.dropFirst(secondBegin.count))
        for text in ["\u{FEFF}" + first + second, first + "\u{FEFF}" + second, first + secondBegin + "\u{01}" + secondRest,
                     first + secondBegin + "\u{A0}" + secondRest, first + secondBegin + " \r" + secondRest] {
            try text.write(toFile: keyPath, atomically: false, encoding: .utf8)
            #expect(throws: CryptoError.self) { try files.loadOrCreate() }
        }
        // A comment line that mentions the boundary is no second key, nor is one libcrypto does not take for a
        // boundary (blanks before it, DEL after it).
        for comment in ["-----BEGIN PRIVATE KEY----- comes below", "  -----BEGIN PRIVATE KEY-----", "-----BEGIN PRIVATE KEY-----\u{7F}"] {
            try (comment + "\n" + first).write(toFile: keyPath, atomically: false, encoding: .utf8)
            _ = try files.loadOrCreate()
        }
    }
}
