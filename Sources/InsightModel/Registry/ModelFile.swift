import FoundationEssentials

/// The bounds and errors of the manifest and model files, read as the service reads them (`RegularFile`).
enum ModelFile {
    /// A model the registry could not read, with the path it looked at.
    struct Unreadable: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "\(reason) (looked for \(path))" }
    }

    /// More than any manifest holds (the shipped one is a few KiB), as for the configuration files: a manifest padded
    /// to hundreds of MiB was read whole at every start and reload (configuration probe, 7 December).
    static let manifestMaximumBytes = 16 << 20

    /// A model's bound: the most `models import` reads from a source file (1 GiB), which no tree model of this service
    /// comes near.
    static let modelMaximumBytes = 1 << 30

    static func read(_ url: URL, maximumBytes: Int = modelMaximumBytes) throws(RegularFileError) -> Data {
        try RegularFile.read(atPath: url.path, maximumBytes: maximumBytes)
    }
}

extension ModelManifest {
    /// The bytes of the manifest at `path`, read as the registry reads them: a regular file of at most 16 MiB, so a
    /// command that lists it refuses what `serve` refuses (`models list` read a padded manifest whole, and a named
    /// pipe held it; regression probe, 7 December).
    public static func fileBytes(atPath path: String) throws -> Data {
        try ModelFile.read(URL(fileURLWithPath: AbsolutePath.of(path)), maximumBytes: ModelFile.manifestMaximumBytes)
    }

    /// The bytes of a model the manifest lists, read as the registry reads them (a regular file of at most 1 GiB):
    /// `models list` read a 2 GiB model whole that `serve` refused unread (file-reading probe, 7 December).
    public static func modelBytes(atPath path: String) throws -> Data {
        try ModelFile.read(URL(fileURLWithPath: AbsolutePath.of(path)))
    }
}
