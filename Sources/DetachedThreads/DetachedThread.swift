import CLinux
import Glibc

/// Starts detached POSIX threads for work that lives as long as its owner (event loops, the signal waiter, the
/// store's writer and checkpointer); Foundation's Thread is not in FoundationEssentials, and Dispatch's pool is
/// the wrong place for loops that block for good.
public enum DetachedThread {
    private final class Body: @unchecked Sendable {
        // Handed over to exactly one new thread, which is the only one to touch it.
        let name: String
        let run: () -> Void
        let handle: Handle
        init(name: String, handle: Handle, _ run: @escaping () -> Void) {
            self.name = name
            self.handle = handle
            self.run = run
        }
    }

    /// Tells when a thread's body has returned. A process must not exit while a thread it started still runs (exit
    /// runs the libraries' destructors under it: a `keys create` once crashed so, its store's writer still closing
    /// its connection), so an owner that stops its thread waits for it here.
    public final class Handle: @unchecked Sendable {
        // `finished` and `thread` are read and written only under `mutex`.
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        private var finished = false
        private var thread: pthread_t?

        init() {
            pthread_mutex_init(mutex, nil)
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            pthread_cond_init(condition, &attributes)
            pthread_condattr_destroy(&attributes)
        }

        deinit {
            pthread_cond_destroy(condition)
            pthread_mutex_destroy(mutex)
            condition.deallocate()
            mutex.deallocate()
        }

        fileprivate func started() {
            pthread_mutex_lock(mutex)
            thread = pthread_self()
            pthread_mutex_unlock(mutex)
        }

        fileprivate func ended() {
            pthread_mutex_lock(mutex)
            finished = true
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }

        /// Waits at most `milliseconds` for the body to return; true once it has. Called on the thread itself (its
        /// owner released from inside it), it cannot wait and returns false at once.
        @discardableResult
        public func waitUntilFinished(milliseconds: Int) -> Bool {
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            if let thread, pthread_equal(thread, pthread_self()) != 0 { return finished }
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let nanoseconds = Int(now.tv_nsec) + milliseconds * 1_000_000
            var deadline = timespec(tv_sec: now.tv_sec + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
            while !finished {
                if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
            }
            return finished
        }
    }

    /// Linux keeps at most 15 bytes of a thread's name (16 with the terminating zero) and refuses longer ones.
    public static let maximumNameLength = 15

    /// Starts `run` on a new thread named `name`, which `top -H`, `ps -L`, `/proc/<pid>/task/*/comm`, perf and gdb
    /// show, so an operator can tell the event loops from the store's writer. A longer name is cut to
    /// `maximumNameLength` bytes.
    @discardableResult
    public static func spawn(name: String, _ run: @escaping () -> Void) -> Handle {
        let handle = Handle()
        let body = Unmanaged.passRetained(Body(name: name, handle: handle, run)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { argument in
            let body = Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue()
            // Named from inside: the thread is the only one that touches its own name, so there is no window
            // in which another thread could read it half set.
            _ = clinux_set_thread_name(DetachedThread.truncated(body.name))
            body.handle.started()
            body.run()
            body.handle.ended()
            return nil
        }, body)
        precondition(result == 0, "pthread_create failed: \(result)")
        pthread_detach(thread)
        return handle
    }

    /// `name` cut to at most `maximumNameLength` bytes of UTF-8 without splitting a character.
    static func truncated(_ name: String) -> String {
        guard name.utf8.count > maximumNameLength else { return name }
        var result = ""
        for character in name {
            guard result.utf8.count + character.utf8.count <= maximumNameLength else { break }
            result.append(character)
        }
        return result
    }
}
