#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import InsightModel

/// The first failure to write standard output (a full disk, a closed pipe or descriptor), kept so a command that
/// printed its result into nothing does not exit 0: `keys create > /dev/full` would otherwise leave a live key whose
/// secret nobody saw.
final class StandardOutputFault: Sendable {
    private let first = Mutex<String?>(nil)

    var description: String? { first.withLock { $0 } }

    func record(errorNumber: Int32) {
        let text = FileErrorText.reason(code: errorNumber)
        first.withLock { if $0 == nil { $0 = text } }
    }
}
