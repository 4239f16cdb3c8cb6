#if canImport(Glibc)
import Glibc
#endif

/// Standard input, output and error that were closed when the process started. Each is reopened on /dev/null
/// before anything else opens a file, so no database, key or lock file can take descriptor 0, 1 or 2 and receive
/// what the command prints.
public struct ClosedStandardStreams: Sendable {
    public var standardOutputWasClosed: Bool

    /// Every stream open, as a process started normally has them.
    public static let allOpen = ClosedStandardStreams(standardOutputWasClosed: false)

    public static func reserve() -> ClosedStandardStreams {
        var closed = ClosedStandardStreams(standardOutputWasClosed: false)
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
            if opened >= 0 && opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
            if descriptor == 1 { closed.standardOutputWasClosed = true }
        }
        return closed
    }
}
