#if canImport(Glibc)
import Glibc
#endif

/// Starts the detached POSIX thread a group committer writes on; Foundation's Thread is not in
/// FoundationEssentials.
enum WriterThread {
    private final class Body: @unchecked Sendable {
        // Handed over to exactly one new thread, which is the only one to touch it.
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    static func spawn(_ run: @escaping () -> Void) {
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
