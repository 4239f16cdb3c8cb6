import Foundation
import Testing
import InsightCore

/// A partner key's label batches may store `labels.storedBytesPerKeyPerDay` per UTC day; past it a batch is refused
/// whole with a 429 until the next day, and every other key goes on (security probe, 6 December: keyed batches of
/// rejected items stored 6.6 bytes per byte sent, about 45 MB/s from one connection).
@Suite(.serialized) struct LabelStorageQuotaAPITests {
    /// The smallest quota a setting may give.
    static let quota = LabelStorageQuota.minimumBytesPerDay

    @Test func aKeyPastItsDailyQuotaIsRefusedWholeWhileOtherKeysAndFreeAnswersGoOn() throws {
        let config = try LiveService.configFolder(rateLimits: #"{"formatVersion": 1, "labels": {"storedBytesPerKeyPerDay": \#(Self.quota)}}"#)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let service = try LiveService { $0.configDir = config }
        let client = try service.key()
        let flooder = try service.key(role: .partner)
        let neighbour = try service.key(role: .partner)
        let insightID = try service.evaluate(key: client).insightIDs[0]
        let today = Timestamp.day(milliseconds: Clock.nowMilliseconds())
        // 100 items that each name eleven unknown fields: every one is rejected with ten pointers listed, an answer
        // several times the body's size, all of it kept for the batch's Idempotency-Key.
        let unknown = (0..<11).map { #", "field\#($0)": 1"# }.joined()
        let item = #"{"insightID": "\#(insightID)", "label": "confirmedFraud", "fraudType": "techSupport", "occurredOn": "\#(today)"\#(unknown)}"#
        let body = #"{"items": [\#(Array(repeating: item, count: 100).joined(separator: ", "))]}"#

        let first = try service.post("/v1/labels", key: flooder, body: body, headers: [("Idempotency-Key", "flood-0")])
        #expect(first.status == 200)
        let tally = try service.count("SELECT bytes FROM label_storage_use")
        // The answer by the pages it takes: its overflow pages and a share of a leaf, and its keys' index entries.
        #expect(tally > first.body.count && tally < first.body.count + first.body.count / 100 + 8192, "\(tally) bytes counted for an answer of \(first.body.count)")
        // The day's earlier batches, as if sent: 100 bytes of room left, less than any batch that stores anything.
        try service.executeInDatabase("UPDATE label_storage_use SET bytes = \(Self.quota - 100)")

        let refusal = try service.post("/v1/labels", key: flooder, body: body, headers: [("Idempotency-Key", "flood-1")])
        #expect(refusal.status == 429)
        #expect(try jsonObject(refusal)["type"] as? String == "https://trust-insights.dev/problems/label-storage-quota-exceeded")
        #expect(refusal.header("Content-Type") == "application/problem+json")
        let retryAfter = try #require(refusal.header("Retry-After").flatMap { Int($0) })
        #expect((1...86_400).contains(retryAfter))
        // The refused batch left nothing, its record included: the same key and batch are processed another day.
        #expect(try service.count("SELECT count(*) FROM idempotency") == 1)
        #expect(try service.count("SELECT bytes FROM label_storage_use") == Int(Self.quota - 100))

        // Answers that store nothing still come: a replay, and the same items without a key.
        let replay = try service.post("/v1/labels", key: flooder, body: body, headers: [("Idempotency-Key", "flood-0")])
        #expect(replay.status == 200)
        #expect(replay.header("Idempotent-Replayed") == "true")
        #expect(try service.post("/v1/labels", key: flooder, body: body).status == 200)
        // A label would be stored: refused too.
        let label = #"{"items": [{"insightID": "\#(insightID)", "label": "confirmedFraud", "fraudType": "techSupport", "occurredOn": "\#(today)"}]}"#
        #expect(try service.post("/v1/labels", key: flooder, body: label).status == 429)
        #expect(try service.count("SELECT count(*) FROM label") == 0)
        // Another partner key of the same tenant has its own tally.
        let labelled = try service.post("/v1/labels", key: neighbour, body: label)
        #expect(labelled.status == 200)
        #expect(try service.count("SELECT count(*) FROM label") == 1)
    }
}
