/// Work a handler leaves for its event loop to run at the end of the loop's pass: after every connection that was
/// ready has been handled and before the server's `afterEachPass`, as swift-nio's `EventLoop.execute` runs tasks after
/// a round of I/O. Work of one kind from many requests then runs back to back with its code and tables still in
/// the cache. The evaluation route signs its answers this way, and the service's `afterEachPass` then commits the
/// pass's records (docs/BENCHMARKS.md).
///
/// A task runs on the loop's thread, so it must not block; one that answers its request settles the gate of the
/// response its handler returned. Only that thread may enqueue: the queue is reached through the `RequestContext`
/// a handler is given, and a handler called without one (`loopTasks == nil`, as outside a server) runs the work
/// itself.
public final class LoopTasks: @unchecked Sendable {
    private var tasks: [() -> Void] = []
    private var running: [() -> Void] = []

    init() {}

    public func enqueue(_ task: @escaping () -> Void) {
        tasks.append(task)
    }

    var isEmpty: Bool { tasks.isEmpty }

    /// Runs the queued tasks in the order they came, and any they queue in turn.
    func runAll() {
        while !tasks.isEmpty {
            // Swapped, not copied, so both arrays keep their storage from one pass to the next.
            swap(&tasks, &running)
            for task in running { task() }
            running.removeAll(keepingCapacity: true)
        }
    }
}
