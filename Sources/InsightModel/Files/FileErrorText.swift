import FoundationEssentials
import Glibc

/// Foundation's file errors print as `CocoaError(code: ..., userInfo: [...])`: an operator needs the system's
/// reason ("permission denied"), which the underlying POSIX error holds. Used for the manifest and model files
/// at start-up and reload, and by the `models` commands.
public enum FileErrorText {
    public static func reason(_ error: any Error) -> String {
        let posix = (error as? POSIXError) ?? ((error as? CocoaError)?.underlying as? POSIXError)
        guard let posix else { return "\(error)" }
        let text = String(cString: strerror(posix.code.rawValue))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
