@testable import DetachedThreads
import Glibc
import Synchronization
import Testing

/// Threads carry names an operator can read in `top -H`, `ps -L` and /proc, so the event loops can be told from the
/// store's writer when one of them spins.
@Suite("Thread names")
struct ThreadNameTests {
    @Test(arguments: [
        ("http-loop-0", "http-loop-0"),
        ("exactly-15-byte", "exactly-15-byte"),
        ("a-name-longer-than-fifteen", "a-name-longer-t"),
        // 14 bytes, then a two-byte character that would make 16: cut before it, not through it.
        ("fourteen-bytes\u{E9}x", "fourteen-bytes"),
    ])
    func aSpawnedThreadCarriesItsNameCutToWhatLinuxKeeps(name: String, expected: String) throws {
        let seen = Mutex<String?>(nil)
        let done = Signal()
        DetachedThread.spawn(name: name) {
            seen.withLock { $0 = Self.comm(of: "/proc/thread-self/comm") }
            done.raise()
        }
        #expect(done.wait(timeout: .seconds(10)))
        #expect(seen.withLock { $0 } == expected)
    }

    @Test func theServersEventLoopsAreNamedByNumber() throws {
        let server = try TestServer.start()
        defer { server.stop() }
        // Each loop names itself as its thread starts, which may be just after start() returns. Other suites' servers
        // run in this process at the same time, so the names are looked for, not counted.
        let deadline = ContinuousClock.now + .seconds(10)
        var names = Self.threadNames()
        while !(names.contains("http-loop-0") && names.contains("http-loop-1")) && ContinuousClock.now < deadline {
            usleep(5_000)
            names = Self.threadNames()
        }
        #expect(names.contains("http-loop-0"), "threads: \(names)")
        #expect(names.contains("http-loop-1"), "threads: \(names)")
    }

    /// The names of this process's threads, from /proc/self/task/*/comm.
    static func threadNames() -> [String] {
        guard let directory = opendir("/proc/self/task") else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let task = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard task.first?.isNumber == true, let name = comm(of: "/proc/self/task/\(task)/comm") else { continue }
            names.append(name)
        }
        return names
    }

    /// The first line of a `comm` file, without its newline.
    static func comm(of path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return line.hasSuffix("\n") ? String(line.dropLast()) : line
    }
}
