import FoundationEssentials
import Glibc

/// Reads a manifest or a model as the service does: only a regular file (or a link to one). A named pipe or a
/// device would block a reload until something writes to it, and Foundation refuses one as "permission denied",
/// which sent an operator looking at modes that were fine (models probe, 5 December).
enum ModelFile {
    struct NotARegularFile: Error, CustomStringConvertible {
        var kind: String
        var description: String { "not a regular file (\(kind))" }
    }

    /// A model the registry could not read, with the path it looked at.
    struct Unreadable: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "\(reason) (looked for \(path))" }
    }

    struct TooLarge: Error, CustomStringConvertible {
        var maximumBytes: Int
        var description: String { "larger than \(maximumBytes >> 20) MiB, more than a file of this kind holds" }
    }

    /// More than any manifest holds (the shipped one is a few KiB), as for the configuration files: a manifest padded
    /// to hundreds of MiB was read whole at every start and reload (configuration probe, 7 December).
    static let manifestMaximumBytes = 16 << 20

    /// `maximumBytes` bounds a regular file by its size before it is read.
    static func read(_ url: URL, maximumBytes: Int = Int.max) throws -> Data {
        var status = stat()
        if stat(url.path, &status) == 0 {
            if status.st_mode & S_IFMT == S_IFREG && Int(status.st_size) > maximumBytes { throw TooLarge(maximumBytes: maximumBytes) }
            switch status.st_mode & S_IFMT {
            case S_IFREG, S_IFDIR: break  // a folder gets the system's own "is a directory"
            case S_IFIFO: throw NotARegularFile(kind: "a named pipe")
            case S_IFSOCK: throw NotARegularFile(kind: "a socket")
            case S_IFCHR, S_IFBLK: throw NotARegularFile(kind: "a device")
            default: throw NotARegularFile(kind: "of an unknown kind")
            }
        }
        return try Data(contentsOf: url)
    }
}

extension ModelManifest {
    /// The bytes of the manifest at `path`, read as the registry reads them: a regular file of at most 16 MiB, so a
    /// command that lists it refuses what `serve` refuses (`models list` read a padded manifest whole, and a named
    /// pipe held it; regression probe, 7 December).
    public static func fileBytes(atPath path: String) throws -> Data {
        try ModelFile.read(URL(fileURLWithPath: AbsolutePath.of(path)), maximumBytes: ModelFile.manifestMaximumBytes)
    }
}
