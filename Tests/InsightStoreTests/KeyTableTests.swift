import Testing
import InsightCore
@testable import InsightStore

/// The authenticator reloads keys with the generation they were read at; the two must come from one snapshot.
@Suite struct KeyTableTests {
    @Test func theKeysComeWithTheGenerationTheyWereReadAt() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        let empty = try store.keyTable()
        #expect(empty.keys.isEmpty)
        #expect(empty.generation == (try store.keysGeneration()))

        let secret = try KeyIssuer(store: store).issue(tenant: TenantID("acme")!, role: .client, environment: .sandbox, now: 1)
        let issued = try store.keyTable()
        #expect(issued.keys.map(\.keyID) == [secret.keyID])
        #expect(issued.keys.first?.status == .active)
        #expect(issued.generation > empty.generation)

        try store.setKeyStatus(keyID: secret.keyID, to: .revoked, now: 2)
        let revoked = try store.keyTable()
        #expect(revoked.keys.first?.status == .revoked)
        #expect(revoked.generation > issued.generation)
        #expect(revoked.generation == (try store.keysGeneration()))
        #expect(try store.allKeys() == revoked.keys)
    }

    /// A suspension the server decided from its view of the keys does not overwrite a revoke made since (race
    /// probe, 6 December: a revoke 5-40 ms before the suspension was lost, and the key kept its suspended access).
    @Test func aSuspensionLeavesARevokedKeyRevoked() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        let issuer = KeyIssuer(store: store)
        let revoked = try issuer.issue(tenant: TenantID("acme")!, role: .client, environment: .sandbox, now: 1)
        let active = try issuer.issue(tenant: TenantID("acme")!, role: .client, environment: .sandbox, now: 1)
        try store.setKeyStatus(keyID: revoked.keyID, to: .revoked, now: 2)
        let before = try store.keysGeneration()
        #expect(try store.suspendKeyIfActive(keyID: revoked.keyID, now: 3) == false)
        #expect(try store.keysGeneration() == before)
        #expect(try store.suspendKeyIfActive(keyID: active.keyID, now: 3))
        #expect(try store.suspendKeyIfActive(keyID: active.keyID, now: 4) == false)
        let statuses = Dictionary(uniqueKeysWithValues: try store.allKeys().map { ($0.keyID, $0.status) })
        #expect(statuses == [revoked.keyID: .revoked, active.keyID: .suspended])
    }

    /// Keys shown together are stored together: the first start's demo keys used to go in one transaction each, so
    /// a failure part-way left a tenant with some of them, and a next start that no longer counted as the first.
    @Test func keysStoredTogetherAreStoredAllOrNothing() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore(directory: directory.path)
        let issuer = KeyIssuer(store: store)
        let first = APIKeySecret.generate(environment: .sandbox)
        // The same key twice: the second insert breaks the key ID's uniqueness after the tenant and the first key.
        #expect(throws: (any Error).self) {
            try issuer.record([(.client, first), (.partner, first)], tenant: TenantID("demo")!, environment: .sandbox, now: 1)
        }
        #expect(try store.tenants().isEmpty)
        #expect(try store.allKeys().isEmpty)

        let second = APIKeySecret.generate(environment: .sandbox)
        try issuer.record([(.client, first), (.partner, second)], tenant: TenantID("demo")!, environment: .sandbox, now: 2)
        #expect(try store.tenants() == [TenantID("demo")!])
        #expect(Set(try store.allKeys().map(\.keyID)) == [first.keyID, second.keyID])
    }
}
