import InsightCrypto
import Synchronization

/// Where keys are kept; the SQLite store implements it.
public protocol APIKeyStore: Sendable {
    /// Every key, and the generation they were read at: one snapshot, so a reload can tell which copy is newer.
    func keyTable() throws -> (generation: Int64, keys: [APIKeyRecord])
    /// A number that changes whenever any key changes, so servers can notice `keys revoke` from the CLI cheaply.
    func keysGeneration() throws -> Int64
}

/// Why a request is not authenticated or not allowed; the service maps each to its status and problem type.
public enum AccessError: Error, Equatable, Sendable {
    /// No `Authorization: Bearer` header, an unknown key, a wrong secret or a revoked key: 401, no detail.
    case unauthenticated
    /// The key is suspended for sustained non-compliance with consumption reporting: 403 `access-revoked`.
    case accessRevoked
    /// The key's role may not use this route: 403.
    case forbiddenRole(required: [KeyRole])
}

/// Checks bearer tokens against an in-memory copy of the key table, refreshed when the table changes.
public final class Authenticator: Sendable {
    private struct Snapshot {
        var generation: Int64
        var keys: [String: APIKeyRecord]
        var checkedAt: Int64
    }

    private let store: any APIKeyStore
    private let snapshot: Mutex<Snapshot>
    private let refreshIntervalMilliseconds: Int64
    private let onChange: (@Sendable (KeyTableChange) -> Void)?

    /// `onChange` hears what each reload of the table changed (never called for one that changed nothing), on the
    /// thread that reloaded it, outside the table's lock.
    public init(
        store: any APIKeyStore, refreshIntervalMilliseconds: Int64 = 1000, onChange: (@Sendable (KeyTableChange) -> Void)? = nil
    ) throws {
        self.store = store
        self.refreshIntervalMilliseconds = refreshIntervalMilliseconds
        self.onChange = onChange
        let table = try store.keyTable()
        let keys = Dictionary(table.keys.map { ($0.keyID, $0) }, uniquingKeysWith: { $1 })
        self.snapshot = Mutex(Snapshot(generation: table.generation, keys: keys, checkedAt: 0))
    }

    /// Authenticates `Authorization` header value at `now` (milliseconds), allowing only `roles`. A suspended key
    /// is refused unless `admittingSuspended`, and then marked so in the principal.
    public func authenticate(
        authorization: String?, roles: Set<KeyRole>, now: Int64, admittingSuspended: Bool = false
    ) throws(AccessError) -> Principal {
        guard let secret = Self.presentedSecret(authorization: authorization) else { throw .unauthenticated }
        refreshIfDue(now: now)
        guard let record = snapshot.withLock({ $0.keys[secret.keyID] }) ?? refreshedAfterMiss(keyID: secret.keyID, now: now) else {
            throw .unauthenticated
        }
        guard ConstantTime.equals(secret.hash, record.secretHash) else { throw .unauthenticated }
        if record.status == .revoked { throw .unauthenticated }
        // The role first: reinstating a suspended key cannot open a route its role never may use, so the answer
        // must not suggest it would.
        guard roles.contains(record.role) else { throw .forbiddenRole(required: KeyRole.allCases.filter { roles.contains($0) }) }
        if record.status == .suspended && !admittingSuspended { throw .accessRevoked }
        return Principal(
            keyID: record.keyID, tenant: record.tenant, role: record.role, environment: record.environment,
            rate: record.rate, burst: record.burst, isSuspended: record.status == .suspended)
    }

    /// The secret an `Authorization` field presents, if it is a Bearer credential of our shape.
    public static func presentedSecret(authorization: String?) -> APIKeySecret? {
        guard let authorization, isBearer(authorization) else { return nil }
        // Bytes, not Characters: this runs on every request, and grapheme breaking showed in its profile.
        let utf8 = authorization.utf8
        var start = utf8.index(utf8.startIndex, offsetBy: 7)
        while start < utf8.endIndex && utf8[start] == UInt8(ascii: " ") { start = utf8.index(after: start) }
        return APIKeySecret(presented: String(authorization[start...]))
    }

    /// A credential of the Bearer scheme, whatever follows (the scheme name is case-insensitive, RFC 9110 §11.1:
    /// ASCII case only).
    public static func isBearer(_ authorization: String) -> Bool {
        let utf8 = authorization.utf8
        guard let index = indexAfterBearerScheme(utf8), index < utf8.endIndex, utf8[index] == UInt8(ascii: " ") else {
            return false
        }
        return utf8.index(after: index) < utf8.endIndex
    }

    /// Whether an `Authorization` field uses the Bearer scheme at all, well-formed or not (`Bearer`, `Bearer<TAB>x`):
    /// such a request presented a token, however malformed, and its 401 says `invalid_token` (RFC 6750 §3.1).
    public static func namesBearerScheme(_ authorization: String) -> Bool {
        let utf8 = authorization.utf8
        guard let index = indexAfterBearerScheme(utf8) else { return false }
        return index == utf8.endIndex || utf8[index] == UInt8(ascii: " ") || utf8[index] == UInt8(ascii: "\t")
    }

    /// Where the scheme name ends, if the field starts with `bearer` in any ASCII case.
    private static func indexAfterBearerScheme(_ utf8: String.UTF8View) -> String.UTF8View.Index? {
        var index = utf8.startIndex
        for expected in "bearer".utf8 {
            // Setting bit 5 lowercases an ASCII letter, and makes no other byte a lowercase letter.
            guard index < utf8.endIndex, utf8[index] | 0x20 == expected else { return nil }
            index = utf8.index(after: index)
        }
        return index
    }

    /// The key ID an `Authorization` field names, whether or not its secret is right: for the access log, so that
    /// refusals can be traced to a key. Nil unless the credential has our shape and the ID a key ID's; never any
    /// part of the secret.
    public static func claimedKeyID(authorization: String?) -> String? {
        guard let keyID = presentedSecret(authorization: authorization)?.keyID, APIKeySecret.isKeyIDShaped(keyID) else {
            return nil
        }
        return keyID
    }

    /// A key created a moment ago by `keys create` is found without waiting for the next refresh. A miss costs one
    /// single-row read of the key table's generation; the table is reloaded only when that moved.
    ///
    /// The snapshot is looked at again after the generation is read: another loop may have reloaded it in between,
    /// and then the generations match although this caller's first look predates the key.
    private func refreshedAfterMiss(keyID: String, now: Int64) -> APIKeyRecord? {
        guard let generation = try? store.keysGeneration() else { return nil }
        let (record, loaded) = snapshot.withLock { ($0.keys[keyID], $0.generation) }
        if let record { return record }
        guard generation != loaded else { return nil }
        refreshIfDue(now: now, force: true)
        return snapshot.withLock { $0.keys[keyID] }
    }

    /// Reloads the key table when its generation moved; a failed check keeps the last good copy.
    public func refreshIfDue(now: Int64, force: Bool = false) {
        let due = snapshot.withLock { state in
            if force || now - state.checkedAt >= refreshIntervalMilliseconds {
                state.checkedAt = now
                return true
            }
            return false
        }
        guard due, let generation = try? store.keysGeneration() else { return }
        let changed = snapshot.withLock { $0.generation != generation }
        guard changed || force, let table = try? store.keyTable() else { return }
        let loaded = Dictionary(table.keys.map { ($0.keyID, $0) }, uniquingKeysWith: { $1 })
        // Two loops can reload at once; the slower must not put back an older table (a revoked key, say). The table
        // comes with the generation it was read at, so equal generations mean equal tables.
        let change = snapshot.withLock { state -> KeyTableChange? in
            guard table.generation >= state.generation else { return nil }
            let change = onChange == nil || table.generation == state.generation ? nil : KeyTableChange(from: state.keys, to: loaded)
            state.generation = table.generation
            state.keys = loaded
            return change
        }
        if let change, !change.isEmpty { onChange?(change) }
    }
}
