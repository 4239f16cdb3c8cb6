import Glibc

/// Starts detached POSIX threads for work that lives as long as its owner (event loops, the signal waiter, the
/// store's writer and checkpointer); Foundation's Thread is not in FoundationEssentials, and Dispatch's pool is
/// the wrong place for loops that block for good.
public enum DetachedThread {
    private final class Body: @unchecked Sendable {
        // Handed over to exactly one new thread, which is the only one to touch it.
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    public static func spawn(_ run: @escaping () -> Void) {
        let body = Unmanaged.passRetained(Body(run)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { argument in
            let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
            body.run()
            return nil
        }, body)
        precondition(result == 0, "pthread_create failed: \(result)")
        pthread_detach(thread)
    }
}
