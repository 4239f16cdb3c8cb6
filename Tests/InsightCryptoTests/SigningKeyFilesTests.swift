import Foundation
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
        // Same clock reading: the new key must still sort after the old one.
        let rotated = try files.rotate(now: fixedNow)
        #expect(rotated != original)
        let loaded = try files.loadOrCreate(now: fixedNow)
        #expect(loaded.active.kid == rotated)
        #expect(loaded.all.map(\.kid) == [original, rotated])
        #expect(loaded.all[0].createdAt < loaded.all[1].createdAt)

        #expect(throws: CryptoError.cannotRemoveActiveKey(rotated)) { try files.remove(kid: rotated) }
        #expect(throws: CryptoError.unknownKeyID("ffffffffffffffff")) { try files.remove(kid: "ffffffffffffffff") }
        try files.remove(kid: original)
        #expect(try files.loadOrCreate().all.map(\.kid) == [rotated])
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

    @Test func ignoresFilesThatAreNotKeyFiles() throws {
        let root = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("keys").path
        let files = SigningKeyFiles(directory: directory)
        let kid = try files.loadOrCreate().active.kid
        try "notes".write(toFile: directory + "/README", atomically: false, encoding: .utf8)
        try "junk".write(toFile: directory + "/.tmp-deadbeef", atomically: false, encoding: .utf8)
        #expect(try files.loadOrCreate().active.kid == kid)
    }

    @Test func fileNamesRoundTripAndRejectLookalikes() {
        let name = SigningKeyFileName(createdAtMilliseconds: 1_800_000_000_123, kid: "0123456789abcdef")
        #expect(name.fileName == "es256-1800000000123-0123456789abcdef.pem")
        #expect(SigningKeyFileName(fileName: name.fileName) == name)
        #expect(SigningKeyFileName(fileName: "es256-1-0123456789ABCDEF.pem") == nil)
        #expect(SigningKeyFileName(fileName: "es256--1-0123456789abcdef.pem") == nil)
        #expect(SigningKeyFileName(fileName: "es256-1-0123456789abcdef.pem.tmp") == nil)
    }
}
