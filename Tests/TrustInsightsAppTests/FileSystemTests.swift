import Foundation
import Glibc
import Testing
@testable import TrustInsightsApp

/// Configuration files are read with `FileSystem.readFile`: a named pipe given in place of one held start-up in
/// `open` until something wrote to it, and SIGTERM (blocked for the signal thread) could not stop it.
@Suite struct FileSystemTests {
    @Test func aPipeWithoutAWriterReadsAsEmptyAtOnce() throws {
        let path = NSTemporaryDirectory() + "config-fifo-" + UUID().uuidString
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let start = ContinuousClock.now
        #expect(try FileSystem.readFile(atPath: path) == [])
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    /// What `--config <(generate-config)` hands the service: a pipe whose writer is there but slow. Its reads must
    /// wait for the data, not find the pipe empty (or fail with EAGAIN) because the file was opened without blocking.
    @Test func aPipeWithAWriterIsReadToItsEnd() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let content = Array(#"{"port": 9}"#.utf8)
        let writeEnd = ends[1]
        let writer = Thread {
            usleep(200_000)
            _ = content.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
            close(writeEnd)
        }
        writer.start()
        #expect(try FileSystem.readFile(atPath: "/proc/self/fd/\(ends[0])") == content)
    }
}
