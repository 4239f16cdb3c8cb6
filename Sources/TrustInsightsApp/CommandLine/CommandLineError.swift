/// Errors a command reports; each maps to an exit status in `CommandLineTool` (the conventions of
/// swift-argument-parser tools: 64 for usage errors; 2 for an invalid configuration, as the service promises).
public enum CommandLineError: Error, Equatable, Sendable {
    /// The command line itself is wrong; the usage text follows the message.
    case usage(String)
    /// A configuration key has an invalid value; start-up stops with exit status 2.
    case configuration(key: String, message: String)
    /// The command ran and failed for a reason the message states.
    case failure(String)

    var exitStatus: Int32 {
        switch self {
        case .usage: 64
        case .configuration: 2
        case .failure: 1
        }
    }

    var message: String {
        switch self {
        case .usage(let message): message
        case .configuration(let key, let message): "invalid configuration: \(key): \(message)"
        case .failure(let message): message
        }
    }
}
