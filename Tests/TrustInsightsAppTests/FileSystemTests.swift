import Foundation
import Glibc
import Testing
@testable import TrustInsightsApp

/// Configuration files are read with `FileSystem.readFile`, named pipes included: a pipe nobody wrote to held
/// start-up in `open` beyond SIGTERM (which `serve` blocks for its signal thread), so only SIGKILL ended it.
@Suite(.serialized) struct FileSystemTests {
    private func fifo() -> String {
        let path = NSTemporaryDirectory() + "config-fifo-" + UUID().uuidString
        #expect(mkfifo(path, 0o600) == 0)
        return path
    }

    /// A device that never ends is refused at the limit rather than read until memory runs out; `models score` and
    /// `models import` say so naming the file.
    @Test func aReadStopsAtItsLimit() throws {
        let error = #expect(throws: FileSystemError.self) { try FileSystem.readFile(atPath: "/dev/zero", maximumBytes: 1 << 20) }
        #expect(error?.code == EFBIG)
        #expect(try FileSystem.readFile(atPath: "/dev/null", maximumBytes: 0) == [])
    }

    /// Configuration files are bounded by default: `--config /dev/zero`, or a velocity.json linked to it, grew until
    /// the allocator failed and `serve` crashed with a backtrace (command-line probe, 6 December).
    /// A regular file is judged by its size before it is read: a sparse 1 TiB file is refused at once, one of exactly
    /// the bound read whole.
    @Test func aRegularFileIsJudgedByItsSize() throws {
        let path = NSTemporaryDirectory() + "sparse-config-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data("12345678".utf8)))
        #expect(try FileSystem.readFile(atPath: path, maximumBytes: 8)?.count == 8)
        #expect(truncate(path, 1 << 40) == 0)
        let error = #expect(throws: FileSystemError.self) { try FileSystem.readFile(atPath: path) }
        #expect(error?.code == EFBIG)
    }

    @Test func aConfigurationFileIsBoundedByDefault() throws {
        let error = #expect(throws: FileSystemError.self) { try FileSystem.readFile(atPath: "/dev/zero") }
        #expect(error?.code == EFBIG)
        #expect(error?.description == "/dev/zero: larger than 16 MiB, more than a file of this kind holds (a device or a pipe that never ends?)")
    }

    /// A folder or a socket in place of a configuration file is named for what it is, as the catalogues and the
    /// manifest name it ("Is a directory", "No such device or address"; regression probe, 7 December).
    @Test func aFolderOrASocketIsNamedForWhatItIs() throws {
        let folder = NSTemporaryDirectory() + "config-folder-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let error = #expect(throws: FileSystemError.self) { try FileSystem.readFile(atPath: folder) }
        #expect(error?.reasonText == "it is a folder, not a file")
        let path = folder + "/velocity.json"
        let socket = try #require(BoundUnixSocket(path: path))
        defer { socket.close() }
        let socketError = #expect(throws: FileSystemError.self) { try FileSystem.readFile(atPath: path) }
        #expect(socketError?.reasonText == "not a regular file (a socket)")
    }

    /// SIGTERM blocked and pending in this thread, as `serve` has it while it reads its configuration.
    @Test func aPipeNobodyWritesToGivesWayToAPendingSIGTERM() throws {
        let path = fifo()
        defer { unlink(path) }
        var terminate = sigset_t()
        sigemptyset(&terminate)
        sigaddset(&terminate, SIGTERM)
        var previous = sigset_t()
        #expect(pthread_sigmask(SIG_BLOCK, &terminate, &previous) == 0)
        defer {
            // Take the signal back off this thread before unblocking it.
            var taken: Int32 = 0
            var pending = sigset_t()
            if sigpending(&pending) == 0, sigismember(&pending, SIGTERM) == 1 { sigwait(&terminate, &taken) }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        #expect(pthread_kill(pthread_self(), SIGTERM) == 0)
        let start = ContinuousClock.now
        let error = #expect(throws: FileSystemError.self) { try FileSystem.readFile(atPath: path) }
        #expect(error?.description.contains("stopped by a signal") == true, "\(String(describing: error))")
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    /// A producer that opens the pipe after the reader did (`mkfifo p; produce > p &`) is waited for, not taken for
    /// an empty file.
    @Test func aPipeWhoseWriterComesLaterIsWaitedFor() throws {
        let path = fifo()
        defer { unlink(path) }
        let content = Array(#"{"port": 9}"#.utf8)
        let writer = Thread {
            usleep(300_000)
            let fd = open(path, O_WRONLY)
            guard fd >= 0 else { return }
            _ = content.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        #expect(try FileSystem.readFile(atPath: path) == content)
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
