#if canImport(Glibc)
import Glibc
#endif

/// The process's open-file limit, against the connection cap. Every connection is a descriptor: with the soft limit
/// below `maxConnections`, `accept` fails with EMFILE before the cap is reached, so the cap's reclaim of idle
/// connections never runs and a new client (a health probe included) waits in the backlog until the idle timeout
/// frees a descriptor (HTTP probe, 6 December: 56 s, under `ulimit -Sn 200` and 250 keep-alive clients).
struct OpenFileLimit {
    /// Descriptors kept for the service's own files beyond those open when the cap is fitted: SQLite's readers,
    /// signing-key and model files read on a reload, the files a command-line check opens.
    static let reserve = 64
    /// Below this many connections `serve` refuses to start (unless `maxConnections` is set lower still).
    static let fewestConnections = 16

    var soft: Int
    /// The soft limit before `raised()` lifted it, if it did: on the `listening` line, so an operator who set a limit
    /// sees that it was not the one in force.
    var raisedFrom: Int?

    /// Lifts the soft limit to the hard one, as Go's runtime and nginx's `worker_rlimit_nofile` do: the soft limit
    /// a shell or a container runtime hands down (often 1024) is no choice of the operator's, and the hard limit is
    /// what the operator (systemd's `LimitNOFILE`, docker's `--ulimit`) allows.
    static func raised() -> OpenFileLimit? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        let before = limit.rlim_cur
        var raisedFrom: Int?
        if limit.rlim_cur < limit.rlim_max {
            var wanted = limit
            wanted.rlim_cur = limit.rlim_max
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &wanted) == 0 {
                limit.rlim_cur = limit.rlim_max
                raisedFrom = Self.count(before)
            }
        }
        return OpenFileLimit(soft: Self.count(limit.rlim_cur), raisedFrom: raisedFrom)
    }

    /// The most connections the limit leaves room for, given the descriptors the process has open now.
    func connectionRoom(openDescriptors: Int) -> Int {
        max(0, soft - openDescriptors - Self.reserve)
    }

    /// Descriptors open in this process now (`/proc/self/fd`); nil where `/proc` cannot be read.
    static func openDescriptors() -> Int? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let isDot = withUnsafeBytes(of: entry.pointee.d_name) { $0[0] == UInt8(ascii: ".") }
            if !isDot { count += 1 }
        }
        // The directory's own descriptor, open while it is read.
        return max(0, count - 1)
    }

    /// RLIM_INFINITY is all ones, above `Int.max`.
    private static func count(_ value: rlim_t) -> Int {
        value > rlim_t(Int.max) ? Int.max : Int(value)
    }
}
