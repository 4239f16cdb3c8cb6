import FoundationEssentials
import Glibc

/// The system's reason for a failed file operation, as every message of ours says it after `cannot read <path>:`
/// or `cannot write <path>:`: the system's text with its first letter lower-cased ("permission denied").
///
/// Foundation's file errors print as `CocoaError(code: ..., userInfo: [...])`: an operator needs the system's
/// reason, which the underlying POSIX error holds.
public enum FileErrorText {
    public static func reason(_ error: any Error) -> String {
        let posix = (error as? POSIXError) ?? ((error as? CocoaError)?.underlying as? POSIXError)
        guard let posix else { return "\(error)" }
        return reason(code: posix.code.rawValue)
    }

    /// The text of the C error number `code`. Messages once said it as the system does ("Permission denied") after
    /// some paths and lower-cased after others, from several copies of this function.
    public static func reason(code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
