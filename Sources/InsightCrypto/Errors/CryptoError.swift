import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Failures of InsightCrypto. Associated values carry libcrypto's reason strings, paths and modes, never key
/// material, secrets or the bytes being signed.
public enum CryptoError: Error, Equatable, Sendable {
    /// A libcrypto call failed; `operation` names the call, `reason` is libcrypto's reason string if it gave one.
    case libcrypto(operation: String, reason: String)
    /// The PEM or DER text did not decode to a key of the expected kind.
    case invalidKeyEncoding(reason: String)
    /// The key decoded but is not an EC key on P-256 (ES256 needs exactly that curve).
    case unsupportedKey(reason: String)
    /// A signature was not 64 raw bytes (r || s) or not a valid DER ECDSA-Sig-Value.
    case invalidSignatureEncoding
    /// A key file or directory has permissions that let other users read or replace keys.
    case insecurePermissions(path: String, mode: UInt32, reason: String)
    /// A key file or directory belongs to another user, who could then read or replace keys.
    case foreignOwner(path: String, owner: UInt32, expected: UInt32)
    /// The key directory holds no key, where one must already exist (a reload of a running service).
    case noKeys(path: String)
    /// A file-system call on the key directory failed; `errno` is the C error number.
    case keyStorage(path: String, operation: String, errno: Int32)
    /// A key file's name does not match the key it holds (the kid in the name is derived from the key).
    case keyFileMismatch(path: String)
    /// A private key file is a symbolic link, which is refused.
    case symbolicLink(path: String)
    /// A private key's name holds a folder, a named pipe, a socket or a device: `kind` says which.
    case notARegularFile(path: String, kind: String)
    /// The signing keys' folder is a file, a named pipe, a socket or a device: `kind` says which.
    case notAFolder(path: String, kind: String)
    /// Two key files hold the same key (one copied beside the other under another time): the key set would publish
    /// one kid twice, with two statuses.
    case duplicateKey(kid: String, paths: [String])
    /// No key with this kid exists in the key directory.
    case unknownKeyID(String)
    /// The active signing key cannot be removed; rotate first.
    case cannotRemoveActiveKey(String)
    /// A key was to be staged for a time that is not after now.
    case stagingTimeNotAhead(signsFrom: Date)
    /// A key was to be staged while another staged key has not started signing yet.
    case keyAlreadyStaged(kid: String, signsFrom: Date)
    /// A key was to be staged where no key signs now: the active key is the oldest when none's time has come, so
    /// the staged key would sign at once, before the time it was published for.
    case noKeySigningBeforeStagedTime(path: String)
    /// A rotation where the clock reads before every key's time (set back, or the folder made on a host whose clock
    /// was ahead): the oldest key signs, and a new key, which must sort after the others, could not sign before
    /// their times.
    case clockBehindEveryKey(kid: String, signsFrom: Date)
    /// A rotation where the system clock reads before the time a key file was last written: it was set back since,
    /// and a key made by an earlier rotation would be taken for one staged ahead.
    case clockBehindKeyFile(path: String, writtenAt: Date)
}

extension CryptoError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .libcrypto(operation, reason):
            return "libcrypto \(operation) failed: \(reason)"
        case let .invalidKeyEncoding(reason):
            return "invalid key encoding: \(reason)"
        case let .unsupportedKey(reason):
            return "unsupported key: \(reason)"
        case .invalidSignatureEncoding:
            return "invalid ECDSA signature encoding"
        case let .insecurePermissions(path, mode, reason):
            return "refusing \(path): mode \(String(mode & 0o7777, radix: 8)) \(reason)"
        case let .foreignOwner(path, owner, expected):
            // Most often the command runs as the wrong user (root on the service's folder): handing the folder to
            // root as "chown it" suggested would lock the service out of its own keys.
            return "refusing \(path): owned by uid \(owner), not by this process's uid \(expected): run this as the user that owns it (the service's user); chown it only if the service now runs as uid \(expected)"
        case let .noKeys(path):
            return "no signing key in \(path)"
        case let .keyStorage(path, operation, errno):
            // Lower-cased as the other file messages say a reason (InsightModel's `FileErrorText`, which this module
            // cannot see).
            let text = String(cString: strerror(errno))
            return "\(operation) \(path) failed: \(text.prefix(1).lowercased() + text.dropFirst()) (errno \(errno))"
        case let .symbolicLink(path):
            return "refusing \(path): it is a symbolic link; a key file must be the file itself, so that nothing outside the key folder decides which key signs"
        case let .notARegularFile(path, kind):
            return kind == "a folder" ? "refusing \(path): it is a folder, not a file" : "refusing \(path): not a regular file (\(kind))"
        case let .notAFolder(path, kind):
            return "refusing \(path): it is \(kind), not the folder that holds the signing keys"
        case let .keyFileMismatch(path):
            return "key file \(path) does not hold the key its name promises"
        case let .duplicateKey(kid, paths):
            return "signing key \(kid) is in more than one file (\(paths.joined(separator: ", "))): a key set may publish a kid once; remove every copy but the oldest"
        case let .unknownKeyID(kid):
            return "no signing key with kid \(kid)"
        case let .cannotRemoveActiveKey(kid):
            return "signing key \(kid) is active; rotate before removing it"
        // The times are the caller's to print (the command line writes them as the key set does).
        case .stagingTimeNotAhead:
            return "a staged key must start signing after now: leave out the time to rotate now"
        case let .keyAlreadyStaged(kid, _):
            return "signing key \(kid) is already staged (signing-keys list shows from when): rotate without a time to make it active now, or wait until its time"
        case let .noKeySigningBeforeStagedTime(path):
            return "no signing key in \(path) signs now, so a staged key would sign at once: rotate without a time first"
        case let .clockBehindKeyFile(path, _):
            return "this clock reads before the time \(path) was last written: it was set back since, and a key made by an earlier rotation would be taken for a staged one; set the clock right and rotate again"
        case let .clockBehindEveryKey(kid, _):
            return "this clock reads before the time of every signing key, the oldest being \(kid) (signing-keys list shows it): a new key would sign only from after their times; set the clock right and rotate again"
        }
    }
}
