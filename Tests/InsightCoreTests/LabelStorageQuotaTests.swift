import InsightCrypto
import Testing
@testable import InsightCore

/// One partner key may store a bounded number of bytes per UTC day with label batches (security probe, 6 December:
/// uploads grew the database at 45 MB/s from one connection).
struct LabelStorageQuotaTests {
    let acme = TenantID("acme")!
    let store = MemoryLabelStore()
    let insights = (0..<6).map { _ in Identifier.make(at: Clock.nowMilliseconds(), random: RandomReserve()) }
    /// 2026-11-21T10:00Z; the evaluations were made on 2026-11-19 (UTC).
    let now = Timestamp.days(fromDate: "2026-11-21")! * 86_400_000 + 36_000_000
    let evaluatedAt = Timestamp.days(fromDate: "2026-11-19")! * 86_400_000 + 3_600_000

    init() {
        for id in insights { store.addInsight(id, tenant: acme, createdAt: evaluatedAt) }
    }

    func item(_ index: Int, _ id: String, fraudType: String = "techSupport") -> LabelDraft {
        LabelDraft(pointer: "/items/\(index)", insightID: id, label: "confirmedFraud", fraudType: fraudType, occurredOn: "2026-11-20",
                   amountBand: nil, violations: [])
    }

    func version(_ id: String, fraudType: FraudType = .techSupport) -> LabelVersion {
        LabelVersion(insightID: id, tenant: acme, content: LabelContent(
            verdict: .confirmedFraud, fraudType: fraudType, occurredOn: "2026-11-20", amountBand: nil), receivedAt: now)
    }

    func submit(
        _ drafts: [LabelDraft], quota: Int64, keyID: String = "k_partner", idempotency: IdempotentRequest? = nil, at time: Int64? = nil
    ) throws(LabelError) -> LabelSubmission {
        try LabelIntake(store: store, quota: LabelStorageQuota(bytesPerDay: quota)).submitAndWait(
            drafts, tenant: acme, keyID: keyID, idempotency: idempotency, now: time ?? now
        ) { results in Array(results.map(\.outcome.rawValue).joined(separator: ",").utf8) }
    }

    func outcomes(_ submission: LabelSubmission) -> [LabelItemOutcome] {
        guard case .processed(let results, _) = submission else { return [] }
        return results.map(\.outcome)
    }

    @Test func aBatchThatWouldPassTheDaysQuotaIsRefusedWholeUntilTheNextUTCDay() throws {
        let one = LabelStorageQuota.storedBytes(of: version(insights[0]))
        // Room for exactly three labels.
        let quota = one * 3
        #expect(outcomes(try submit([item(0, insights[0]), item(1, insights[1])], quota: quota)) == [.accepted, .accepted])
        // Two more would make four: refused, and neither is stored.
        #expect(throws: LabelError.storageQuotaExceeded(bytesPerDay: quota, retryAfterSeconds: 50_400)) {
            try submit([item(0, insights[2]), item(1, insights[3])], quota: quota)
        }
        #expect(store.versions.count == 2)
        // One fits exactly.
        #expect(outcomes(try submit([item(0, insights[2])], quota: quota)) == [.accepted])
        #expect(throws: LabelError.self) { try submit([item(0, insights[3])], quota: quota) }
        // The next UTC day the tally starts again.
        let tomorrow = (LabelStorageQuota.day(of: now) + 1) * 86_400_000
        #expect(outcomes(try submit([item(0, insights[3])], quota: quota, at: tomorrow)) == [.accepted])
        #expect(store.versions.count == 4)
    }

    @Test func eachKeyHasItsOwnTally() throws {
        let quota = LabelStorageQuota.storedBytes(of: version(insights[0]))
        #expect(outcomes(try submit([item(0, insights[0])], quota: quota, keyID: "k_one")) == [.accepted])
        #expect(throws: LabelError.self) { try submit([item(0, insights[1])], quota: quota, keyID: "k_one") }
        #expect(outcomes(try submit([item(0, insights[1])], quota: quota, keyID: "k_two")) == [.accepted])
    }

    @Test func aBatchThatStoresNothingIsAnsweredOverTheQuota() throws {
        let quota = LabelStorageQuota.storedBytes(of: version(insights[0]))
        _ = try submit([item(0, insights[0])], quota: quota)
        let unknown = Identifier.make(at: Clock.nowMilliseconds(), random: RandomReserve())
        // A duplicate and an unknown insight store nothing, so the partner still learns what became of them.
        #expect(outcomes(try submit([item(0, insights[0]), item(1, unknown)], quota: quota)) == [.duplicate, .notFound])
        // A revision stores a version: refused.
        #expect(throws: LabelError.self) { try submit([item(0, insights[0], fraudType: "romance")], quota: quota) }
    }

    @Test func anIdempotentAnswerCountsAndItsReplayIsFree() throws {
        let key = IdempotencyKey("batch-1")!
        let body = Array("body".utf8)
        let request = IdempotentRequest(key: key, keyDigest: "hmac " + key.rawValue, body: body)
        let first = try submit([item(0, insights[0])], quota: 1 << 20, idempotency: request)
        let record = IdempotencyRecord(
            tenant: acme, environment: .production, keyDigest: request.keyDigest, bodyHash: request.bodyHash,
            response: first.response, createdAt: now)
        let stored = LabelStorageQuota.storedBytes(of: version(insights[0])) + LabelStorageQuota.storedBytes(of: record)
        #expect(try store.transactionState { try $0.storedLabelBytes(keyID: "k_partner", day: LabelStorageQuota.day(of: now)) }.bytesByDay.values.reduce(0, +) == stored)
        // With the quota now spent, the same request again gets its stored answer; a new keyed batch of only unknown
        // insights would store its answer, so it is refused, and keeps no record (tomorrow it is processed afresh).
        let replay = try submit([item(0, insights[0])], quota: stored, idempotency: request)
        #expect(replay == .replayed(response: first.response))
        let other = IdempotencyKey("batch-2")!
        let unknown = Identifier.make(at: Clock.nowMilliseconds(), random: RandomReserve())
        #expect(throws: LabelError.self) {
            try submit([item(0, unknown)], quota: stored, idempotency: IdempotentRequest(key: other, keyDigest: "hmac batch-2", body: body))
        }
        #expect(store.idempotencyRecords == 1)
    }

    /// Rows are counted by the pages they take: small ones by their share of a page, one just over half a page by a
    /// page of its own (which its bytes alone undercounted 1.9 times), a long one by its overflow pages.
    @Test func theEstimateCountsThePagesRowsTake() {
        let small = LabelStorageQuota.bytesInPages(row: 200)
        #expect(small >= 200 && small <= 210)
        #expect(LabelStorageQuota.bytesInPages(row: 2100) == 4096)
        #expect(LabelStorageQuota.bytesInPages(row: 1900) == 2048)
        let megabyte = LabelStorageQuota.bytesInPages(row: 1_000_000)
        #expect(megabyte > 1_000_000 && megabyte <= 1_000_000 + 1_000_000 / 1000 + 8192)
        let label = LabelStorageQuota.storedBytes(of: version(String(repeating: "i", count: 36)))
        #expect(label >= 150 && label <= 260)
        for size in [0, 1900, 2100, 60_000] {
            let record = IdempotencyRecord(
                tenant: acme, environment: .sandbox, keyDigest: "hmac " + String(repeating: "0", count: 64),
                bodyHash: Array(repeating: 0, count: 32), response: Array(repeating: 0, count: size), createdAt: now)
            #expect(LabelStorageQuota.storedBytes(of: record) >= Int64(size + 32 + 71))
        }
    }

    /// A clock stepped back across midnight judges the batch against the tally of the day it returns to, though a
    /// batch was stored after midnight (which drops older days' tallies), and against the day it left: no fresh
    /// quota for the step, no refusal of a batch that fits both, and Retry-After waits for the end of the latest day
    /// that refuses it.
    @Test func aClockSteppedBackAcrossMidnightGrantsNoFreshQuota() throws {
        let one = LabelStorageQuota.storedBytes(of: version(insights[0]))
        let quota = one * 3
        let midnight = (LabelStorageQuota.day(of: now) + 1) * 86_400_000
        // Before midnight the key fills its quota; after it, stores one label (the new day's first batch).
        _ = try submit([item(0, insights[0]), item(1, insights[1]), item(2, insights[2])], quota: quota, at: midnight - 20_000)
        #expect(outcomes(try submit([item(0, insights[3])], quota: quota, at: midnight + 5_000)) == [.accepted])
        // Stepped back to 23:59:45: the day it returns to is full, until its end; the day it left has room.
        #expect(throws: LabelError.storageQuotaExceeded(bytesPerDay: quota, retryAfterSeconds: 15)) {
            try submit([item(0, insights[4])], quota: quota, at: midnight - 15_000)
        }
        // Once the day it left is full too, the wait runs to that day's end.
        #expect(outcomes(try submit([item(0, insights[4]), item(1, insights[5])], quota: quota, at: midnight + 6_000)) == [.accepted, .accepted])
        let another = Identifier.make(at: Clock.nowMilliseconds(), random: RandomReserve())
        store.addInsight(another, tenant: acme, createdAt: evaluatedAt)
        #expect(throws: LabelError.storageQuotaExceeded(bytesPerDay: quota, retryAfterSeconds: 86_414)) {
            try submit([item(0, another)], quota: quota, at: midnight - 14_000)
        }

        // A batch that fits both days is taken after a step back, and counts on both: a step back of 59 minutes
        // does not give the key a second day's quota.
        let fresh = MemoryLabelStore()
        for id in insights { fresh.addInsight(id, tenant: acme, createdAt: evaluatedAt) }
        let intake = LabelIntake(store: fresh, quota: LabelStorageQuota(bytesPerDay: quota))
        let encode: @Sendable ([LabelItemResult]) -> [UInt8] = { _ in [] }
        _ = try intake.submitAndWait([item(0, insights[0]), item(1, insights[1])], tenant: acme, idempotency: nil, now: midnight + 5_000, encode: encode)
        _ = try intake.submitAndWait([item(0, insights[2])], tenant: acme, idempotency: nil, now: midnight - 59 * 60_000, encode: encode)
        #expect(fresh.versions.count == 3)
        #expect(throws: LabelError.storageQuotaExceeded(bytesPerDay: quota, retryAfterSeconds: 86_400 + 59 * 60 - 1)) {
            try intake.submitAndWait([item(0, insights[3])], tenant: acme, idempotency: nil, now: midnight - 59 * 60_000 + 1_000, encode: encode)
        }
        // Before the last hour, tomorrow's tally is not counted, but the wait still runs past it: at midnight it
        // would refuse the batch again.
        #expect(throws: LabelError.storageQuotaExceeded(bytesPerDay: quota, retryAfterSeconds: 86_400 + 2 * 3_600)) {
            try intake.submitAndWait(
                [item(0, insights[3]), item(1, insights[4]), item(2, insights[5])], tenant: acme, idempotency: nil,
                now: midnight - 2 * 3_600_000, encode: encode)
        }
    }

    /// A clock set a day ahead and then mended leaves a tally for tomorrow: it counts only in the last hour of today,
    /// where a step back across midnight lands, so a mended clock does not hold the key back until tomorrow's end.
    @Test func tomorrowsTallyCountsOnlyInTheLastHourOfToday() throws {
        let quota = LabelStorageQuota.storedBytes(of: version(insights[0])) * 2
        let tomorrow = (LabelStorageQuota.day(of: now) + 1) * 86_400_000
        _ = try submit([item(0, insights[0]), item(1, insights[1])], quota: quota, at: tomorrow + 3_600_000)
        // Mended to today, 10:00: tomorrow's tally is not counted.
        #expect(outcomes(try submit([item(0, insights[2])], quota: quota)) == [.accepted])
        // At 23:00:01 it is, until its own end.
        #expect(throws: LabelError.storageQuotaExceeded(bytesPerDay: quota, retryAfterSeconds: 86_400 + 3_599)) {
            try submit([item(0, insights[3])], quota: quota, at: tomorrow - 3_599_000)
        }
    }

    /// A clock set months ahead and then mended leaves a tally on a day far off: it does not hold the key back until
    /// that day, and the next stored batch drops it.
    @Test func aTallyFarAheadOfTheClockDoesNotCount() throws {
        let quota = LabelStorageQuota.storedBytes(of: version(insights[0])) * 2
        let ahead = now + 157 * 86_400_000
        #expect(outcomes(try submit([item(0, insights[0]), item(1, insights[1])], quota: quota, at: ahead)) == [.accepted, .accepted])
        #expect(throws: LabelError.self) { try submit([item(0, insights[2])], quota: quota, at: ahead + 1_000) }
        #expect(outcomes(try submit([item(0, insights[2])], quota: quota)) == [.accepted])
        let days = try store.transactionState { _ in store.state.withLock { Array(($0.storedBytes["k_partner"] ?? [:]).keys) } }
        #expect(days == [LabelStorageQuota.day(of: now)])
    }

    @Test func retryAfterIsTheWholeSecondsToTheNextUTCDayRoundedUp() {
        let midnight = Timestamp.days(fromDate: "2026-11-21")! * 86_400_000
        #expect(LabelStorageQuota.secondsUntilNextDay(from: midnight) == 86_400)
        #expect(LabelStorageQuota.secondsUntilNextDay(from: midnight - 1) == 1)
        #expect(LabelStorageQuota.secondsUntilNextDay(from: midnight + 1) == 86_400)
        #expect(LabelStorageQuota.secondsUntilNextDay(from: -1) == 1)
    }

    @Test func theSettingIsReadFromRateLimitsWithItsBounds() throws {
        let policy = try RateLimitPolicy.load(json: Array(#"{"formatVersion": 1, "labels": {"storedBytesPerKeyPerDay": 33554432}}"#.utf8))
        #expect(policy.labels.bytesPerDay == 33_554_432)
        #expect(try RateLimitPolicy.load(json: Array(#"{"formatVersion": 1}"#.utf8)).labels.bytesPerDay == LabelStorageQuota.defaultBytesPerDay)
        #expect(throws: RateLimitPolicy.LoadError(path: "/labels/storedBytesPerKeyPerDay", message: "expected an integer from 16777216 to 1099511627776")) {
            try RateLimitPolicy.load(json: Array(#"{"formatVersion": 1, "labels": {"storedBytesPerKeyPerDay": 1000}}"#.utf8))
        }
        #expect(throws: RateLimitPolicy.LoadError(path: "/labels/bytesPerDay", message: "unknown key")) {
            try RateLimitPolicy.load(json: Array(#"{"formatVersion": 1, "labels": {"bytesPerDay": 33554432}}"#.utf8))
        }
    }
}
