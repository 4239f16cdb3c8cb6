import Foundation
import Testing
@testable import InsightStore
@testable import TrustInsightsApp

/// `syncEveryCommit` is what a deployment that must not lose an acknowledged write to a power cut sets (durability
/// probe, 6 December: answers went up to 183 ms before the WAL's next flush, which only a process's death survives).
@Suite struct SyncEveryCommitTests {
    private static func synchronousMode(_ service: LiveService) throws -> Int {
        try service.runtime.store.writer.withConnection { connection in
            let statement = try connection.statement("PRAGMA synchronous")
            _ = try statement.step()
            return Int(statement.int64(0))
        }
    }

    @Test func theWriterFlushesEveryCommitOnlyWhenAsked() throws {
        // SQLite's values: 1 NORMAL (the WAL reaches the disk at checkpoints), 2 FULL (at every commit).
        #expect(try Self.synchronousMode(try LiveService()) == 1)
        let syncing = try LiveService { $0.syncEveryCommit = true }
        #expect(try Self.synchronousMode(syncing) == 2)
        // And the service still answers: an evaluation's record is committed (flushed) before its answer.
        let evaluated = try syncing.evaluate(key: try syncing.key(tenant: "acme", role: .client))
        #expect(try syncing.count("SELECT count(*) FROM evaluation WHERE evaluation_id = '\(evaluated.evaluationID)'") == 1)
    }
}
