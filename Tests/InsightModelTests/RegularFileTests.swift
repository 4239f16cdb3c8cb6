import FoundationEssentials
import Glibc
import Testing
import InsightModel

/// `RegularFile.read(atPath:maximumBytes:)`, the reader of catalogues, the manifest and models: the kind and the bound
/// are checked on what was opened, and the bound holds for bytes the size did not announce.
@Suite struct RegularFileTests {
    func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("regular-file-\(UInt64.random(in: 0...UInt64.max))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func readsAFileWholeAndThroughALink() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bytes = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        try bytes.write(to: URL(fileURLWithPath: directory + "/file"))
        #expect(try RegularFile.read(atPath: directory + "/file", maximumBytes: 70_000) == bytes)
        try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: "file")
        #expect(try RegularFile.read(atPath: directory + "/link", maximumBytes: 1 << 20) == bytes)
        FileManager.default.createFile(atPath: directory + "/empty", contents: Data())
        #expect(try RegularFile.read(atPath: directory + "/empty", maximumBytes: 0) == Data())
    }

    @Test func refusesWhatIsNoRegularFileWithoutWaiting() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Opening a pipe nobody writes to would wait for ever if the reader opened it blocking.
        #expect(mkfifo(directory + "/pipe", 0o600) == 0)
        #expect(throws: RegularFileError.notARegularFile(kind: "a named pipe")) {
            try RegularFile.read(atPath: directory + "/pipe", maximumBytes: 1 << 20)
        }
        #expect(throws: RegularFileError.notARegularFile(kind: "a device")) {
            try RegularFile.read(atPath: "/dev/zero", maximumBytes: 1 << 20)
        }
        #expect(throws: RegularFileError.folder) { try RegularFile.read(atPath: directory, maximumBytes: 1 << 20) }
        #expect(RegularFileError.folder.description == "it is a folder, not a file")
    }

    @Test func theSystemsReasonIsGivenInLowerCase() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        FileManager.default.createFile(atPath: directory + "/plain", contents: Data("x".utf8))
        #expect(throws: RegularFileError.system(code: ENOENT)) { try RegularFile.read(atPath: directory + "/none", maximumBytes: 1) }
        #expect(throws: RegularFileError.system(code: ENOTDIR)) {
            try RegularFile.read(atPath: directory + "/plain/inside", maximumBytes: 1)
        }
        try FileManager.default.createSymbolicLink(atPath: directory + "/loop", withDestinationPath: "loop")
        #expect(throws: RegularFileError.system(code: ELOOP)) { try RegularFile.read(atPath: directory + "/loop", maximumBytes: 1) }
        #expect(RegularFileError.system(code: ENOTDIR).description == "not a directory")
    }

    @Test func aFileOverTheBoundIsRefusedByItsSize() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        FileManager.default.createFile(atPath: directory + "/big", contents: Data(count: 2 << 20 + 1))
        #expect(throws: RegularFileError.tooLarge(maximumBytes: 2 << 20)) {
            try RegularFile.read(atPath: directory + "/big", maximumBytes: 2 << 20)
        }
        #expect(RegularFileError.tooLarge(maximumBytes: 16 << 20).description == "larger than 16 MiB, more than a file of this kind holds")
        // A model's bound, as the `models` commands say it (`verify` and `serve` said "1024 MiB").
        #expect(RegularFileError.tooLarge(maximumBytes: 1 << 30).description == "larger than 1 GiB, more than a file of this kind holds")
    }

    /// Files under /proc are regular and report a size of 0, yet hold bytes: what a file that grew after `fstat`
    /// looks like to the reader. They are read whole, and held to the bound by what is read, not by the size.
    @Test func theBoundHoldsForBytesTheSizeDidNotAnnounce() throws {
        let status = try RegularFile.read(atPath: "/proc/self/status", maximumBytes: 1 << 20)
        #expect(String(decoding: status, as: UTF8.self).hasPrefix("Name:"))
        #expect(throws: RegularFileError.tooLarge(maximumBytes: 8)) {
            try RegularFile.read(atPath: "/proc/self/status", maximumBytes: 8)
        }
        #expect(RegularFileError.tooLarge(maximumBytes: 8).description == "larger than 8 bytes, more than a file of this kind holds")
        // Read across more than one growth of the buffer: the whole of a file the size did not announce.
        let maps = try RegularFile.read(atPath: "/proc/self/maps", maximumBytes: 1 << 30)
        #expect(maps.count > 4097 && maps.last == UInt8(ascii: "\n"))
    }
}

/// A socket cannot be opened at all: it is named for what it is, not by the open's "no such device or address".
@Suite struct RegularFileSocketTests {
    @Test func aSocketIsNamedAsOne() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("regular-file-\(UInt32.random(in: 0...UInt32.max)).sock").path
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(descriptor >= 0)
        defer { close(descriptor); unlink(path) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() where index < buffer.count - 1 { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        #expect(throws: RegularFileError.notARegularFile(kind: "a socket")) { try RegularFile.read(atPath: path, maximumBytes: 1 << 20) }
    }
}
