import Foundation
import Testing
@testable import TrustInsightsApp
import InsightCore

/// The server logs what it picks up from the key table: `keys revoke` and `keys create` from the command line took
/// effect within a second and left no line in the server's log (operations probe, 7 December).
@Suite struct KeyTableChangeLogTests {
    @Test func aKeyAddedAndARevokedOneAreLoggedByKeyID() throws {
        let service = try LiveService()
        let key = try service.key()
        let keyID = String(key.split(separator: "_")[2])
        func evaluate() throws -> Int {
            try service.client().request("POST", "/v1/evaluations", headers: [
                ("Authorization", "Bearer \(key)"), ("Content-Type", "application/json"),
            ], body: Requests.payment()).status
        }
        #expect(try evaluate() == 200)
        #expect(service.logs.lines.contains { $0.contains("\"api keys changed\"") && $0.contains(#""added":"\#(keyID)""#) }, "\(service.logs.lines)")
        try service.runtime.store.setKeyStatus(keyID: keyID, to: .revoked, now: Clock.nowMilliseconds())
        let deadline = Date().addingTimeInterval(5)
        var status = 200
        while status == 200 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
            status = try evaluate()
        }
        #expect(status == 401)
        let revoked = service.logs.lines.filter { $0.contains("\"api keys changed\"") && $0.contains(#""nowRevoked":"\#(keyID)""#) }
        #expect(revoked.count == 1, "\(service.logs.lines)")
        // Never a secret: the line names key IDs only.
        #expect(!service.logs.lines.contains { $0.contains(key) })
    }

    @Test func theFieldsNameEachKindOfChangeAndCapTheirLists() {
        func record(_ keyID: String, _ status: KeyStatus, rate: Double? = nil) -> APIKeyRecord {
            APIKeyRecord(
                keyID: keyID, tenant: TenantID("acme")!, role: .client, environment: .sandbox, secretHash: [1],
                status: status, createdAt: 0, rate: rate)
        }
        let old = ["k1": record("k1", .active), "k2": record("k2", .active), "k3": record("k3", .suspended), "k4": record("k4", .active)]
        let new = ["k1": record("k1", .revoked), "k3": record("k3", .active), "k4": record("k4", .active, rate: 2), "k5": record("k5", .active)]
        let change = KeyTableChange(from: old, to: new)
        #expect(change.added == ["k5"] && change.removed == ["k2"] && change.updated == ["k4"])
        #expect(change.statusChanges == [
            .init(keyID: "k1", from: .active, to: .revoked), .init(keyID: "k3", from: .suspended, to: .active),
        ])
        let fields = ServiceRuntime.fields(of: change).map { "\($0.0)=\(text($0.1))" }
        #expect(fields == ["added=k5", "removed=k2", "nowActive=k3", "nowRevoked=k1", "settingsChanged=k4"])
        #expect(KeyTableChange(from: old, to: old).isEmpty)
        let many = Dictionary(uniqueKeysWithValues: (10..<35).map { ("k\($0)", record("k\($0)", .active)) })
        let listed = ServiceRuntime.fields(of: KeyTableChange(from: [:], to: many)).map { text($0.1) }
        #expect(listed == [(10..<30).map { "k\($0)" }.joined(separator: ",") + " and 5 more"])
    }

    private func text(_ value: EventLog.Value) -> String {
        if case .text(let text) = value { return text }
        return "\(value)"
    }
}
