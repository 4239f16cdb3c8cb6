import Dispatch
import Synchronization
import Testing
@testable import InsightCore

/// The one-shot that carries a write's outcome from the store's writer to the event loop that holds the answer.
@Suite struct OneShotTests {
    private final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .relaxed) }
        func set() { value.store(true, ordering: .relaxed) }
    }

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

    /// Something a callback captures, which says when it goes.
    private final class Witness: Sendable {
        let flag: Flag
        init(_ flag: Flag) { self.flag = flag }
        deinit { flag.set() }
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

    /// The callbacks that ran go with the one-shot, on the thread that lets go of it last (for an evaluation, the
    /// event loop that made them), not on the thread that fulfilled it.
    @Test func callbacksThatRanAreKeptUntilTheOneShotGoes() {
        let flag = Flag()
        var shot: OneShot<Bool>? = OneShot<Bool>()
        do {
            let witness = Witness(flag)
            shot!.whenFulfilled { _ in _ = witness }
        }
        shot!.fulfil(true)
        #expect(!flag.isSet)
        shot = nil
        #expect(flag.isSet)
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
