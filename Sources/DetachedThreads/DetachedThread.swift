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

    /// Tells when a thread's body has returned and been released. A process must not exit while a thread it started
    /// still runs (exit runs the libraries' destructors under it: a `keys create` once crashed so, its store's writer
    /// still closing its connection), so an owner that stops its thread waits for it here.
    public final class Handle: @unchecked Sendable {
        // `finished` and `thread` are read and written only under `signal`'s lock.
        private let signal = Condition()
        private var finished = false
        private var thread: pthread_t?

        fileprivate func started() {
            signal.locked { thread = pthread_self() }
        }

        fileprivate func ended() {
            signal.locked {
                finished = true
                signal.broadcastLocked()
            }
        }

        /// Waits at most `milliseconds` for the body to return and be released (what it captured included); true
        /// once it has. Called on the thread itself (its owner released from inside it), it cannot wait and returns
        /// false at once.
        @discardableResult
        public func waitUntilFinished(milliseconds: Int) -> Bool {
            signal.locked {
                if let thread, pthread_equal(thread, pthread_self()) != 0 { return finished }
                let deadline = Condition.deadline(microsecondsFromNow: milliseconds * 1000)
                while !finished, signal.waitLocked(until: deadline) {}
                return finished
            }
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
            let handle = DetachedThread.runBody(argument!)
            handle.ended()
            return nil
        }, body)
        precondition(result == 0, "pthread_create failed: \(result)")
        pthread_detach(thread)
        return handle
    }

    /// Runs the body and releases it, with everything its closure captured, before returning: the owner's wait
    /// ends at `ended()`, and a capture released after that (the writer's engine, the checkpointer's connection)
    /// closed its SQLite connection on this thread while the owner had moved on. A store so dropped left its
    /// files open for a moment; remounting the data folder read-only then failed as busy (seen in CI under ASan).
    /// Never inlined, so the release stays inside this call rather than being left to the optimiser's placement
    /// next to `ended()`.
    @inline(never)
    private static func runBody(_ argument: UnsafeMutableRawPointer) -> Handle {
        let body = Unmanaged<Body>.fromOpaque(argument).takeRetainedValue()
        // Named from inside: the thread is the only one that touches its own name, so there is no window
        // in which another thread could read it half set.
        _ = clinux_set_thread_name(DetachedThread.truncated(body.name))
        body.handle.started()
        body.run()
        return body.handle
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
