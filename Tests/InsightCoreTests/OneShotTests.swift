import Dispatch
import Synchronization
import Testing
@testable import InsightCore

/// The one-shot that carries a write's outcome from the store's writer to the event loop that holds the answer.
@Suite struct OneShotTests {
    /// What the callbacks saw, in order.
    private final class Seen<Value: Sendable>: Sendable {
        private let values = Mutex<[Value]>([])
        var all: [Value] { values.withLock { $0 } }
        func append(_ value: Value) { values.withLock { $0.append(value) } }
    }

    private final class Counter: Sendable {
        private let value = Atomic<Int>(0)
        var count: Int { value.load(ordering: .relaxed) }
        func add() { value.add(1, ordering: .relaxed) }
    }

    @Test func aCallbackRegisteredBeforeTheValueRunsOnFulfil() {
        let shot = OneShot<Int>()
        let seen = Seen<Int>()
        shot.whenFulfilled { value in seen.append(value) }
        #expect(seen.all.isEmpty)
        shot.fulfil(7)
        #expect(seen.all == [7])
    }

    @Test func aCallbackRegisteredAfterTheValueRunsAtOnce() {
        let shot = OneShot(3)
        let seen = Seen<Int>()
        shot.whenFulfilled { value in seen.append(value) }
        #expect(seen.all == [3])
    }

    @Test func everyCallbackRunsOnceInTheOrderRegistered() {
        let shot = OneShot<Int>()
        let seen = Seen<String>()
        for name in ["a", "b", "c", "d"] {
            shot.whenFulfilled { value in seen.append("\(name)\(value)") }
        }
        shot.fulfil(1)
        shot.fulfil(2)
        #expect(seen.all == ["a1", "b1", "c1", "d1"])
    }

    @Test func onlyTheFirstValueCounts() {
        let shot = OneShot<Int>()
        shot.fulfil(1)
        shot.fulfil(2)
        #expect(shot.wait() == 1)
    }

    @Test func waitBlocksUntilAnotherThreadFulfils() {
        let shot = OneShot<String>()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { shot.fulfil("durable") }
        #expect(shot.wait() == "durable")
    }

    @Test func manyThreadsRacingToRegisterAndFulfilEachCallbackRunsOnce() async {
        for _ in 0..<200 {
            let shot = OneShot<Int>()
            let runs = Counter()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask { shot.whenFulfilled { _ in runs.add() } }
                }
                group.addTask { shot.fulfil(1) }
            }
            #expect(runs.count == 4)
        }
    }
}
