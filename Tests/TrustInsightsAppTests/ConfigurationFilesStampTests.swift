import Foundation
import Testing

@testable import TrustInsightsApp

/// The files SIGHUP does not reload, and how their changes since start are told (regression probe, 6 December).
@Suite struct ConfigurationFilesStampTests {
    @Test func anEditWhoseTimeWasSetBackStillCounts() throws {
        let folder = NSTemporaryDirectory() + "trust-insights-stamp-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/velocity.json"
        try "{\"a\": 1}".write(toFile: path, atomically: false, encoding: .utf8)
        var original = stat()
        #expect(stat(path, &original) == 0)
        var stamp = ConfigurationFilesStamp()
        stamp.note(path)
        stamp.note(folder + "/absent.json")
        #expect(stamp.changedFiles().isEmpty)
        // The same size, and the modification time put back as `touch -r` does: the change time still moves.
        usleep(20_000)
        try "{\"a\": 2}".write(toFile: path, atomically: false, encoding: .utf8)
        var times = [original.st_atim, original.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        #expect(stamp.changedFiles() == [path])
        // A file that was absent and now exists counts too.
        try "{}".write(toFile: folder + "/absent.json", atomically: false, encoding: .utf8)
        #expect(stamp.changedFiles() == [path, folder + "/absent.json"])
    }

    /// Writing into a FIFO moves its times: one given as the configuration file is not watched.
    @Test func aPipeIsNotWatched() throws {
        let folder = NSTemporaryDirectory() + "trust-insights-stamp-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = folder + "/config.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        var stamp = ConfigurationFilesStamp()
        stamp.note(fifo)
        #expect(chmod(fifo, 0o644) == 0)
        #expect(stamp.changedFiles().isEmpty)
    }
}
