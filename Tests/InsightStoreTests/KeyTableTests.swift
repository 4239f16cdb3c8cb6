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
}
