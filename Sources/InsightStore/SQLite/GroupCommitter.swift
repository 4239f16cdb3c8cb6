#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Batches writes from many threads into one transaction, and returns to each caller only after its write is
/// committed (the service answers only after that). The first waiting thread becomes the leader, takes every
/// queued write, runs them in one transaction and wakes the others; no extra thread is needed.
///
/// Each write runs inside its own SAVEPOINT, so one failing write is rolled back alone and reported to its own
/// caller while the rest of the batch commits.
public final class GroupCommitter: Sendable {
    public typealias Write = (SQLiteConnection) throws -> Void

    private final class Ticket: @unchecked Sendable {
        let write: Write
        var result: Result<Void, any Error>?
        init(_ write: @escaping Write) { self.write = write }
    }

    private struct State {
        var queue: [Ticket] = []
        var leaderActive = false
        var batchesCommitted = 0
    }

    private let connection: SQLiteConnection
    private let connectionLock = Mutex(())
    private let state = Mutex(State())
    private let condition = Condition()
    public let maximumBatch: Int

    public init(connection: SQLiteConnection, maximumBatch: Int = 512) {
        self.connection = connection
        self.maximumBatch = maximumBatch
    }

    /// Runs `write` in the next group transaction and returns once it is committed (or throws its error).
    public func perform(_ write: @escaping Write) throws {
        let ticket = Ticket(write)
        let becomeLeader: Bool = state.withLock { state in
            state.queue.append(ticket)
            if state.leaderActive { return false }
            state.leaderActive = true
            return true
        }
        if becomeLeader {
            lead()
        } else {
            condition.wait(until: { state.withLock { _ in ticket.result != nil } })
        }
        try ticket.result!.get()
    }

    /// Runs `body` with exclusive use of the write connection (migrations, maintenance).
    public func withConnection<T>(_ body: (SQLiteConnection) throws -> T) rethrows -> T {
        try connectionLock.withLock { _ in try body(connection) }
    }

    public var batchesCommitted: Int { state.withLock { $0.batchesCommitted } }

    private func lead() {
        while true {
            let batch: [Ticket] = state.withLock { state in
                let taken = Array(state.queue.prefix(maximumBatch))
                state.queue.removeFirst(taken.count)
                if taken.isEmpty { state.leaderActive = false }
                return taken
            }
            if batch.isEmpty { return }
            let outcomes = commit(batch)
            state.withLock { state in
                for (ticket, outcome) in zip(batch, outcomes) { ticket.result = outcome }
                state.batchesCommitted += 1
            }
            condition.broadcast()
        }
    }

    private func commit(_ batch: [Ticket]) -> [Result<Void, any Error>] {
        connectionLock.withLock { _ in
            var outcomes: [Result<Void, any Error>] = []
            outcomes.reserveCapacity(batch.count)
            do {
                try connection.execute("BEGIN IMMEDIATE")
            } catch {
                return Array(repeating: .failure(error), count: batch.count)
            }
            for ticket in batch {
                do {
                    try connection.execute("SAVEPOINT item")
                    do {
                        try ticket.write(connection)
                        try connection.execute("RELEASE item")
                        outcomes.append(.success(()))
                    } catch {
                        try? connection.execute("ROLLBACK TO item")
                        try? connection.execute("RELEASE item")
                        outcomes.append(.failure(error))
                    }
                } catch {
                    outcomes.append(.failure(error))
                }
            }
            defer { connection.resetActiveStatements() }
            do {
                try connection.execute("COMMIT")
                return outcomes
            } catch {
                try? connection.execute("ROLLBACK")
                return Array(repeating: .failure(error), count: batch.count)
            }
        }
    }
}

/// A condition variable over pthreads: waiters re-check their predicate after every broadcast.
final class Condition: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var cond = pthread_cond_t()

    init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&cond, nil)
    }

    deinit {
        pthread_cond_destroy(&cond)
        pthread_mutex_destroy(&mutex)
    }

    func wait(until predicate: () -> Bool) {
        pthread_mutex_lock(&mutex)
        while !predicate() {
            pthread_cond_wait(&cond, &mutex)
        }
        pthread_mutex_unlock(&mutex)
    }

    func broadcast() {
        pthread_mutex_lock(&mutex)
        pthread_cond_broadcast(&cond)
        pthread_mutex_unlock(&mutex)
    }
}
