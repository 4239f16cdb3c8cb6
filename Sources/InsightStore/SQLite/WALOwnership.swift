#if canImport(Glibc)
import Glibc
#endif

/// Whether a database's `-wal` file was written for it. SQLite cannot tell: a WAL's header names no database, and a
/// `-wal` of another folder copied in beside this database (with a backup) is read as this database's pages; where
/// the start's reads find nothing damaged, the service ran on a mix of the two and its stop folded that into the
/// file (regression probe, 7 December: 1,614 of 2,020 evaluations gone).
///
/// The store stamps each database with a random application ID (`PRAGMA application_id`, bytes 68-71 of page 1) once,
/// and never changes it. Page 1 is written whenever the database grows, so a WAL written under load almost always
/// holds it; when the last committed copy of page 1 in the WAL carries another non-zero ID than the database file's
/// own page 1, the WAL is another database's. Where either is 0 (a database from before the stamp, another program's)
/// or the WAL holds no page 1, nothing can be told, and nothing is refused: this check only ever refuses a WAL that
/// cannot be this database's.
///
/// Only frames SQLite itself would read count: those whose salts match the WAL header's and whose running checksum
/// holds (the format of sqlite.org/fileformat2.html, "WAL File Format"), up to the last commit frame.
public enum WALOwnership {
    /// Refuses the database's `-wal` when it cannot be this database's; run before SQLite opens the files, which
    /// would read (and, closing, fold in) the foreign pages.
    public static func check(databasePath: String) throws(StoreError) {
        if let foreign = foreignWAL(databasePath: databasePath) {
            throw .foreignWAL(path: databasePath + "-wal", databaseID: foreign.database, walID: foreign.wal)
        }
    }

    /// The ID in page 1 of the database file and in the last committed page 1 of the WAL, when both are there and
    /// differ; nil otherwise.
    static func foreignWAL(databasePath: String) -> (database: UInt32, wal: UInt32)? {
        guard let database = readApplicationID(fromDatabase: databasePath), database != 0,
              let wal = lastCommittedApplicationID(walPath: databasePath + "-wal"), wal != 0, wal != database
        else { return nil }
        return (database, wal)
    }

    static let headerBytes = 32, frameHeaderBytes = 24, applicationIDOffset = 68

    static func readApplicationID(fromDatabase path: String) -> UInt32? {
        guard let bytes = read(path, offset: 0, count: 100),
              bytes.starts(with: Array("SQLite format 3\0".utf8))
        else { return nil }
        return bigEndian(bytes, at: applicationIDOffset)
    }

    /// The application ID in the last copy of page 1 that a committed, checksum-valid frame of the WAL holds.
    static func lastCommittedApplicationID(walPath: String) -> UInt32? {
        let descriptor = open(walPath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let header = read(descriptor, offset: 0, count: headerBytes) else { return nil }
        let magic = bigEndian(header, at: 0)
        guard magic == 0x377f_0682 || magic == 0x377f_0683 else { return nil }
        let wordsBigEndian = magic == 0x377f_0683
        let pageSize = Int(bigEndian(header, at: 8))
        // SQLite's page sizes: powers of two from 512 to 65536, the last written as 1.
        let pageBytes = pageSize == 1 ? 65536 : pageSize
        guard pageBytes >= 512, pageBytes <= 65536, pageBytes & (pageBytes - 1) == 0 else { return nil }
        var checksum = Checksum()
        header.withUnsafeBytes { checksum.add(UnsafeRawBufferPointer(rebasing: $0[0..<24]), bigEndian: wordsBigEndian) }
        guard checksum.s0 == bigEndian(header, at: 24), checksum.s1 == bigEndian(header, at: 28) else { return nil }
        let salt1 = bigEndian(header, at: 16), salt2 = bigEndian(header, at: 20)

        var committed: UInt32?
        var pending: UInt32?
        var offset = headerBytes
        // One buffer for every frame, read whole: a WAL a long reader let grow holds hundreds of megabytes, and this
        // runs before every start and command.
        var frame = [UInt8](repeating: 0, count: frameHeaderBytes + pageBytes)
        while read(descriptor, into: &frame, offset: offset) {
            let valid = frame.withUnsafeBytes { raw -> Bool in
                guard word(raw, 8) == salt1, word(raw, 12) == salt2 else { return false }
                checksum.add(UnsafeRawBufferPointer(rebasing: raw[0..<8]), bigEndian: wordsBigEndian)
                checksum.add(UnsafeRawBufferPointer(rebasing: raw[frameHeaderBytes...]), bigEndian: wordsBigEndian)
                return checksum.s0 == word(raw, 16) && checksum.s1 == word(raw, 20)
            }
            guard valid else { break }
            if bigEndian(frame, at: 0) == 1 { pending = bigEndian(frame, at: frameHeaderBytes + applicationIDOffset) }
            // A commit frame (the database's size after it, non-zero) makes the transaction's frames count.
            if bigEndian(frame, at: 4) != 0 {
                committed = pending ?? committed
                pending = nil
            }
            offset += frameHeaderBytes + pageBytes
        }
        return committed
    }

    /// SQLite's WAL checksum: 32-bit words, two running sums.
    struct Checksum {
        var s0: UInt32 = 0, s1: UInt32 = 0

        mutating func add(_ bytes: UnsafeRawBufferPointer, bigEndian wordsBigEndian: Bool) {
            var index = 0
            var s0 = self.s0, s1 = self.s1
            while index + 8 <= bytes.count {
                let raw0 = bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self)
                let raw1 = bytes.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self)
                let x0 = wordsBigEndian ? UInt32(bigEndian: raw0) : UInt32(littleEndian: raw0)
                let x1 = wordsBigEndian ? UInt32(bigEndian: raw1) : UInt32(littleEndian: raw1)
                s0 = s0 &+ x0 &+ s1
                s1 = s1 &+ x1 &+ s0
                index += 8
            }
            self.s0 = s0
            self.s1 = s1
        }
    }

    private static func word(_ raw: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    static func bigEndian<C: RandomAccessCollection>(_ bytes: C, at offset: Int) -> UInt32 where C.Element == UInt8, C.Index == Int {
        let start = bytes.startIndex + offset
        return UInt32(bytes[start]) << 24 | UInt32(bytes[start + 1]) << 16 | UInt32(bytes[start + 2]) << 8 | UInt32(bytes[start + 3])
    }

    private static func read(_ path: String, offset: Int, count: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return read(descriptor, offset: offset, count: count)
    }

    /// Fills `buffer` from `offset`; false when the file ends first.
    private static func read(_ descriptor: Int32, into buffer: inout [UInt8], offset: Int) -> Bool {
        let count = buffer.count
        var filled = 0
        while filled < count {
            let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, count - filled, off_t(offset + filled)) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return false }
            filled += got
        }
        return true
    }

    /// `count` bytes from `offset`; nil when the file holds fewer (both callers need them all).
    private static func read(_ descriptor: Int32, offset: Int, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        return read(descriptor, into: &bytes, offset: offset) ? bytes : nil
    }
}
