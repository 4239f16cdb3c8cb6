import FoundationEssentials
import Glibc

/// Serialises the read, check and write of a manifest between `models import --register` runs: without it, two
/// runs read the same manifest and the second to write drops the first's entry. An exclusive `flock` on the
/// manifest's folder itself (Linux locks directories too), so no lock file is left behind, and a folder reached
/// through a symbolic link is the same lock. Released when the descriptor closes, however the process ends.
enum ManifestFolderLock {
    static func withLock<Result>(
        folder: String, _ body: () throws(ModelRegistryError) -> Result
    ) throws(ModelRegistryError) -> Result {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ModelRegistryError(file: folder, reason: "cannot open the manifest's folder to lock it: \(FileErrorText.reason(code: errno))")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw ModelRegistryError(file: folder, reason: "cannot lock the manifest's folder: \(FileErrorText.reason(code: errno))")
            }
        }
        return try body()
    }
}
