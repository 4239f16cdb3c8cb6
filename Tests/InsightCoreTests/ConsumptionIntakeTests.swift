import InsightCrypto
import Testing
@testable import InsightCore

struct ConsumptionIntakeTests {
    let acme = TenantID("acme")!
    let other = TenantID("other")!
    let evaluationID = Identifier.make(at: Clock.nowMilliseconds(), random: RandomReserve())
    let insightA = Identifier.make(at: Clock.nowMilliseconds(), random: RandomReserve())
    let insightB = Identifier.make(at: Clock.nowMilliseconds(), random: RandomReserve())
    let createdAt: Int64 = 1_790_000_000_000
    let store = MemoryConsumptionStore()

    init() {
        store.add(evaluationID, tenant: acme, createdAt: createdAt, insightIDs: [insightA, insightB])
    }

    func intake(deadline: Int64 = 600_000) -> ConsumptionIntake { ConsumptionIntake(store: store, deadlineMilliseconds: deadline) }

    @Test func firstReportIsRecordedAndTheSameReportAgainIsAnsweredAsBefore() throws {
        let first = try intake().submitAndWait(ConsumptionReport(status: .usedIncreasedFriction, insightIDsUsed: [insightA, insightB]),
                                        evaluationID: evaluationID, tenant: acme, now: createdAt + 1000)
        guard case .recorded(let record) = first else { Issue.record("expected recorded, got \(first)"); return }
        #expect(record.receivedAt == createdAt + 1000 && !record.late)
        // Same status and the same insights in another order: the stored answer, with its original time.
        let again = try intake().submitAndWait(ConsumptionReport(status: .usedIncreasedFriction, insightIDsUsed: [insightB, insightA]),
                                        evaluationID: evaluationID, tenant: acme, now: createdAt + 5000)
        #expect(again == .repeated(record))
    }

    @Test func aDifferentSecondReportIsAConflictAndLeavesTheFirst() throws {
        _ = try intake().submitAndWait(ConsumptionReport(status: .usedUnchangedFriction, insightIDsUsed: [insightA]), evaluationID: evaluationID, tenant: acme, now: createdAt)
        #expect(throws: ConsumptionError.conflict) {
            try intake().submitAndWait(ConsumptionReport(status: .notUsedError, insightIDsUsed: [insightA]), evaluationID: evaluationID, tenant: acme, now: createdAt)
        }
        #expect(throws: ConsumptionError.conflict) {
            try intake().submitAndWait(ConsumptionReport(status: .usedUnchangedFriction, insightIDsUsed: []), evaluationID: evaluationID, tenant: acme, now: createdAt)
        }
        #expect(store.records.withLock { $0[evaluationID]?.report.status } == .usedUnchangedFriction)
    }

    @Test func unknownForeignAndMalformedEvaluationsAreTheSameNotFound() {
        let report = ConsumptionReport(status: .notUsedNotNeeded, insightIDsUsed: [])
        for (id, tenant) in [(evaluationID, other), (Identifier.make(at: Clock.nowMilliseconds(), random: RandomReserve()), acme), ("not-an-id", acme)] {
            #expect(throws: ConsumptionError.evaluationNotFound) { try intake().submitAndWait(report, evaluationID: id, tenant: tenant, now: createdAt) }
        }
        #expect(store.records.withLock { $0.isEmpty })
    }

    @Test func anEvaluationIsReportedOnOnlyFromItsOwnEnvironment() throws {
        let sandboxEvaluation = Identifier.make(at: Clock.nowMilliseconds(), random: RandomReserve())
        store.add(sandboxEvaluation, tenant: acme, environment: .sandbox, createdAt: createdAt, insightIDs: [insightA])
        let report = ConsumptionReport(status: .usedIncreasedFriction, insightIDsUsed: [insightA])
        #expect(throws: ConsumptionError.evaluationNotFound) {
            try intake().submitAndWait(report, evaluationID: sandboxEvaluation, tenant: acme, environment: .production, now: createdAt)
        }
        #expect(throws: ConsumptionError.evaluationNotFound) {
            try intake().submitAndWait(report, evaluationID: evaluationID, tenant: acme, environment: .sandbox, now: createdAt)
        }
        #expect(store.records.withLock { $0.isEmpty })
        let recorded = try intake().submitAndWait(report, evaluationID: sandboxEvaluation, tenant: acme, environment: .sandbox, now: createdAt)
        guard case .recorded = recorded else { Issue.record("expected a recorded report, got \(recorded)"); return }
    }

    @Test func insightsOutsideTheEvaluationOrRepeatedAreRejectedByPointer() {
        let foreign = Identifier.make(at: Clock.nowMilliseconds(), random: RandomReserve())
        #expect(throws: ConsumptionError.invalid([
            ContextViolation(pointer: "/insightIDsUsed/1", code: "unknownInsight", detail: "is not an insight of this evaluation"),
            ContextViolation(pointer: "/insightIDsUsed/2", code: "duplicateInsight", detail: "appears more than once"),
        ])) {
            try intake().submitAndWait(ConsumptionReport(status: .usedReducedFriction, insightIDsUsed: [insightA, foreign, insightA]),
                                evaluationID: evaluationID, tenant: acme, now: createdAt)
        }
        #expect(store.records.withLock { $0.isEmpty })
    }

    @Test func reportsAfterTheDeadlineAreAcceptedAndFlaggedLate() throws {
        let onTime = try intake(deadline: 10_000).submitAndWait(ConsumptionReport(status: .usedEvaluationOnly, insightIDsUsed: [insightA]),
                                                         evaluationID: evaluationID, tenant: acme, now: createdAt + 10_000)
        #expect(onTime.record.late == false)
        let second = Identifier.make(at: Clock.nowMilliseconds(), random: RandomReserve())
        store.add(second, tenant: acme, createdAt: createdAt, insightIDs: [insightA])
        let late = try intake(deadline: 10_000).submitAndWait(ConsumptionReport(status: .usedEvaluationOnly, insightIDsUsed: [insightA]),
                                                       evaluationID: second, tenant: acme, now: createdAt + 10_001)
        #expect(late == .recorded(ConsumptionRecord(evaluationID: second, tenant: acme, report: late.record.report, receivedAt: createdAt + 10_001, late: true)))
    }

    @Test func aConcurrentFirstReportDecidesTheAnswer() throws {
        let winner = ConsumptionRecord(evaluationID: evaluationID, tenant: acme,
                                       report: ConsumptionReport(status: .usedReducedFriction, insightIDsUsed: [insightA]), receivedAt: createdAt, late: false)
        store.intruder.withLock { $0 = winner }
        #expect(throws: ConsumptionError.conflict) {
            try intake().submitAndWait(ConsumptionReport(status: .notUsedError, insightIDsUsed: []), evaluationID: evaluationID, tenant: acme, now: createdAt + 1)
        }
        let same = try intake().submitAndWait(ConsumptionReport(status: .usedReducedFriction, insightIDsUsed: [insightA]), evaluationID: evaluationID, tenant: acme, now: createdAt + 2)
        #expect(same == .repeated(winner))
    }

    /// The same report sent twice in one millisecond, on two loops: both read "no report yet", and the record the
    /// loser reads back equals its own. Only the insert that went in answers 201 and counts for compliance.
    @Test func anIdenticalConcurrentReportIsARepeatNotASecondFirst() throws {
        let report = ConsumptionReport(status: .usedReducedFriction, insightIDsUsed: [insightA])
        store.intruder.withLock {
            $0 = ConsumptionRecord(evaluationID: evaluationID, tenant: acme, report: report, receivedAt: createdAt + 1, late: false)
        }
        let outcome = try intake().submitAndWait(report, evaluationID: evaluationID, tenant: acme, now: createdAt + 1)
        guard case .repeated = outcome else {
            Issue.record("expected a repeat, got \(outcome)")
            return
        }
    }

    @Test func storageFailureIsReportedAsSuch() {
        store.failing.store(true, ordering: .relaxed)
        #expect(throws: ConsumptionError.storageFailed) {
            try intake().submitAndWait(ConsumptionReport(status: .notUsedError, insightIDsUsed: []), evaluationID: evaluationID, tenant: acme, now: createdAt)
        }
    }
}
