import InsightCrypto
import Synchronization
import Testing
@testable import InsightCore

final class InMemoryKeyStore: APIKeyStore, KeyIssuingStore {
    private let state = Mutex<(keys: [APIKeyRecord], generation: Int64)>(([], 0))

    func keyTable() throws -> (generation: Int64, keys: [APIKeyRecord]) { state.withLock { ($0.generation, $0.keys) } }
    func keysGeneration() throws -> Int64 { state.withLock { $0.generation } }
    func insertKeys(_ records: [APIKeyRecord], now: Int64) throws {
        state.withLock { $0.keys += records; $0.generation += 1 }
    }
    func setStatus(_ keyID: String, _ status: KeyStatus) {
        state.withLock { state in
            for index in state.keys.indices where state.keys[index].keyID == keyID { state.keys[index].status = status }
            state.generation += 1
        }
    }
}

/// Runs a caller's action once, just before a generation read or a table read returns: another thread's work,
/// made deterministic.
final class InterleavingKeyStore: APIKeyStore, KeyIssuingStore {
    private let keys = InMemoryKeyStore()
    private let hook = Mutex<(action: (@Sendable () -> Void)?, reads: Int)>((nil, 0))
    private let tableHook = Mutex<(@Sendable () -> Void)?>(nil)

    var generationReads: Int { hook.withLock { $0.reads } }
    func beforeNextGenerationRead(_ action: @escaping @Sendable () -> Void) { hook.withLock { $0.action = action } }
    /// The action runs after the table was read and before the reader gets it: the copy it gets is then stale.
    func afterNextTableRead(_ action: @escaping @Sendable () -> Void) { tableHook.withLock { $0 = action } }
    func setStatus(_ keyID: String, _ status: KeyStatus) { keys.setStatus(keyID, status) }

    func keyTable() throws -> (generation: Int64, keys: [APIKeyRecord]) {
        let table = try keys.keyTable()
        let action = tableHook.withLock { hook in
            defer { hook = nil }
            return hook
        }
        action?()
        return table
    }
    func keysGeneration() throws -> Int64 {
        let action = hook.withLock { state in
            state.reads += 1
            defer { state.action = nil }
            return state.action
        }
        action?()
        return try keys.keysGeneration()
    }
    func insertKeys(_ records: [APIKeyRecord], now: Int64) throws { try keys.insertKeys(records, now: now) }
}

@Suite struct AuthenticatorTests {
    let tenant = TenantID("acme")!

    @Test func acceptsIssuedKeyForItsRole() throws {
        let store = InMemoryKeyStore()
        let secret = try KeyIssuer(store: store).issue(tenant: tenant, role: .client, environment: .sandbox, now: 0)
        let authenticator = try Authenticator(store: store)
        let principal = try authenticator.authenticate(authorization: "Bearer \(secret.revealed)", roles: [.client], now: 0)
        #expect(principal == Principal(keyID: secret.keyID, tenant: tenant, role: .client, environment: .sandbox))
    }

    @Test func rejectsWrongSecretMissingHeaderAndOtherSchemes() throws {
        let store = InMemoryKeyStore()
        let secret = try KeyIssuer(store: store).issue(tenant: tenant, role: .client, environment: .sandbox, now: 0)
        let authenticator = try Authenticator(store: store)
        let forged = String(secret.revealed.dropLast()) + (secret.revealed.last == "A" ? "B" : "A")
        for header in [nil, "", "Bearer", "Basic abc", "Bearer \(forged)", "Bearer ti_sandbox_knope_x"] as [String?] {
            #expect(throws: AccessError.unauthenticated) {
                try authenticator.authenticate(authorization: header, roles: [.client], now: 0)
            }
        }
    }

    /// The scheme name is matched in ASCII case only (RFC 9110 §11.1), and spaces after it are skipped.
    @Test func readsTheBearerSchemeInAnyASCIICase() throws {
        for header in ["Bearer x", "bearer x", "BEARER x", "bEaReR x", "Bearer    x"] {
            #expect(Authenticator.isBearer(header), "\(header)")
        }
        for header in ["Bearer", "Bearer ", "Bearerx y", "Bearer\tx", "Bearer\u{0}x", "Béarer x", "B\u{0}arer x", "Basic x", "Bearar x"] {
            #expect(!Authenticator.isBearer(header), "\(header)")
        }
        // Malformed Bearer credentials still name the scheme: their 401 says invalid_token.
        for header in ["Bearer", "bearer", "Bearer\tx", "Bearer  ", "BEARER x y"] {
            #expect(Authenticator.namesBearerScheme(header), "\(header)")
        }
        for header in ["", "Bearerx", "Bearer\u{0}x", "Béarer x", "Basic x", "Bear"] {
            #expect(!Authenticator.namesBearerScheme(header), "\(header)")
        }
        let store = InMemoryKeyStore()
        let secret = try KeyIssuer(store: store).issue(tenant: tenant, role: .client, environment: .sandbox, now: 0)
        let authenticator = try Authenticator(store: store)
        for header in ["bearer \(secret.revealed)", "BEARER   \(secret.revealed)"] {
            #expect(try authenticator.authenticate(authorization: header, roles: [.client], now: 0).role == .client)
        }
    }

    @Test func refusesOtherRoles() throws {
        let store = InMemoryKeyStore()
        let secret = try KeyIssuer(store: store).issue(tenant: tenant, role: .partner, environment: .production, now: 0)
        let authenticator = try Authenticator(store: store)
        #expect(throws: AccessError.forbiddenRole(required: [.client])) {
            try authenticator.authenticate(authorization: "Bearer \(secret.revealed)", roles: [.client], now: 0)
        }
    }

    /// Reinstating a suspended key cannot open a route its role never may use, so such a route answers `forbidden`,
    /// not `access-revoked` (which tells the app an operator's reinstatement would help).
    @Test func refusesOtherRolesBeforeSuspension() throws {
        let store = InMemoryKeyStore()
        let secret = try KeyIssuer(store: store).issue(tenant: tenant, role: .client, environment: .sandbox, now: 0)
        let authenticator = try Authenticator(store: store, refreshIntervalMilliseconds: 1000)
        store.setStatus(secret.keyID, .suspended)
        #expect(throws: AccessError.forbiddenRole(required: [.partner])) {
            try authenticator.authenticate(authorization: "Bearer \(secret.revealed)", roles: [.partner], now: 1000)
        }
        #expect(throws: AccessError.accessRevoked) {
            try authenticator.authenticate(authorization: "Bearer \(secret.revealed)", roles: [.client, .partner], now: 1000)
        }
    }

    @Test func noticesRevocationAndSuspensionAfterRefresh() throws {
        let store = InMemoryKeyStore()
        let secret = try KeyIssuer(store: store).issue(tenant: tenant, role: .client, environment: .sandbox, now: 0)
        let authenticator = try Authenticator(store: store, refreshIntervalMilliseconds: 1000)
        store.setStatus(secret.keyID, .suspended)
        #expect(throws: AccessError.accessRevoked) {
            try authenticator.authenticate(authorization: "Bearer \(secret.revealed)", roles: [.client], now: 1000)
        }
        // The routes that admit suspended keys get the principal, marked; an active key's is not.
        let suspended = try authenticator.authenticate(
            authorization: "Bearer \(secret.revealed)", roles: [.client], now: 1000, admittingSuspended: true)
        #expect(suspended.isSuspended)
        store.setStatus(secret.keyID, .revoked)
        #expect(throws: AccessError.unauthenticated) {
            try authenticator.authenticate(authorization: "Bearer \(secret.revealed)", roles: [.client], now: 2000)
        }
        #expect(throws: AccessError.unauthenticated) {
            try authenticator.authenticate(
                authorization: "Bearer \(secret.revealed)", roles: [.client], now: 2000, admittingSuspended: true)
        }
        store.setStatus(secret.keyID, .active)
        let active = try authenticator.authenticate(
            authorization: "Bearer \(secret.revealed)", roles: [.client], now: 3000, admittingSuspended: true)
        #expect(!active.isSuspended)
    }

    /// Two loops meet a new key at once: one misses, and before it reads the generation the other has already
    /// reloaded the table. The generation then matches the snapshot, yet the key is there and must be found.
    @Test func findsAKeyAnotherCallerLoadedWhileThisOneWasCheckingTheGeneration() throws {
        let store = InterleavingKeyStore()
        let authenticator = try Authenticator(store: store, refreshIntervalMilliseconds: 60_000)
        let secret = try KeyIssuer(store: store).issue(tenant: tenant, role: .client, environment: .sandbox, now: 0)
        store.beforeNextGenerationRead {
            _ = try? authenticator.authenticate(authorization: "Bearer \(secret.revealed)", roles: [.client], now: 1)
        }
        let principal = try authenticator.authenticate(authorization: "Bearer \(secret.revealed)", roles: [.client], now: 1)
        #expect(principal.keyID == secret.keyID)
        // The outer miss, the inner miss and the inner reload's check: the outer caller did not reload again.
        #expect(store.generationReads == 3)
    }

    /// Two loops reload at once and the slower one read the table first: it must not put back the older copy, in
    /// which a key since revoked is only suspended.
    @Test func aSlowerReloadDoesNotPutBackAnOlderTable() throws {
        let store = InterleavingKeyStore()
        let secret = try KeyIssuer(store: store).issue(tenant: tenant, role: .client, environment: .sandbox, now: 0)
        let authenticator = try Authenticator(store: store, refreshIntervalMilliseconds: 1000)
        let header = "Bearer \(secret.revealed)"
        store.setStatus(secret.keyID, .suspended)
        store.afterNextTableRead {
            store.setStatus(secret.keyID, .revoked)
            #expect(throws: AccessError.unauthenticated) {
                try authenticator.authenticate(authorization: header, roles: [.client], now: 4000)
            }
        }
        #expect(throws: AccessError.unauthenticated) {
            try authenticator.authenticate(authorization: header, roles: [.client], now: 2000)
        }
        #expect(throws: AccessError.unauthenticated) {
            try authenticator.authenticate(authorization: header, roles: [.client], now: 4500)
        }
    }

    @Test func parsesOnlyTokensOfTheIssuedShape() throws {
        let issued = APIKeySecret.generate(environment: .production)
        #expect(APIKeySecret(presented: issued.revealed)?.keyID == issued.keyID)
        #expect(APIKeySecret(presented: issued.revealed)?.hash == issued.hash)
        #expect(issued.hash == SHA256.hash(Array(issued.revealed.utf8)))
        let sandbox = APIKeySecret.generate(environment: .sandbox)
        #expect(APIKeySecret(presented: sandbox.revealed)?.keyID == sandbox.keyID)
        // The random part is everything after the third underscore, underscores included.
        #expect(APIKeySecret(presented: "ti_sandbox_k0123456789abcdef_a_b_c")?.keyID == "k0123456789abcdef")
        for token in [
            "", "ti", "ti_sandbox", "ti_sandbox_k0123456789abcdef", "ti_sandbox_k0123456789abcdef_",
            "tx_sandbox_k0123456789abcdef_secret", "ti_staging_k0123456789abcdef_secret",
            "ti__k0123456789abcdef_secret", "ti_sandbox_k0123456789abcde_secret", "ti_sandbox_x0123456789abcdef_secret",
            "ti_sandbox_k0123456789abcdef0_secret", "TI_sandbox_k0123456789abcdef_secret",
            "ti_sandbox_k0123456789abcdef_" + String(repeating: "a", count: 200),
            "ti_sandbox_\u{1D55C}0123456789abcd_secret", " ti_sandbox_k0123456789abcdef_s",
            "ti_sandboxx_k0123456789abcdef_secret", "ti_sandbo_k0123456789abcdef_secret", "ti_production_k0123456789abcdef",
        ] {
            #expect(APIKeySecret(presented: token) == nil, "\(token)")
        }
    }

    @Test func secretNeverAppearsInDescriptions() throws {
        let secret = APIKeySecret.generate(environment: .production)
        // base64url may put underscores inside the random part, so it is what follows the known prefix: the last
        // underscore-separated piece could be a single character that the redacted text happens to contain.
        let prefix = "ti_production_\(secret.keyID)_"
        #expect(secret.revealed.hasPrefix(prefix))
        let random = String(secret.revealed.dropFirst(prefix.count))
        #expect(random.count == 43)
        for text in [String(describing: secret), String(reflecting: secret), "\(secret)"] {
            #expect(!text.contains(random))
        }
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains(random))
    }
}

@Suite struct TimestampTests {
    @Test func formatsRFC3339WithMilliseconds() {
        #expect(Timestamp.iso8601(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
        #expect(Timestamp.iso8601(milliseconds: 1_795_221_683_744) == "2026-11-21T00:41:23.744Z")
        #expect(Timestamp.iso8601(milliseconds: 951_782_400_000) == "2000-02-29T00:00:00.000Z")
        #expect(Timestamp.iso8601(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(Timestamp.iso8601(milliseconds: 253_402_300_799_999) == "9999-12-31T23:59:59.999Z")
        #expect(Timestamp.iso8601(milliseconds: 253_402_300_800_000) == "10000-01-01T00:00:00.000Z")
    }

    @Test func parsesStrictDates() {
        #expect(Timestamp.days(fromDate: "1970-01-02") == 1)
        #expect(Timestamp.days(fromDate: "2024-02-29") != nil)
        for bad in ["2023-02-29", "2026-13-01", "2026-1-01", "2026-01-32", "20260101", "2026-01-01T00:00:00Z", ""] {
            #expect(Timestamp.days(fromDate: bad) == nil)
        }
        #expect(Timestamp.day(milliseconds: 1_795_221_683_744) == "2026-11-21")
    }
}
