import FoundationEssentials

/// A path made absolute by putting the working folder before it as text, nothing folded. FoundationEssentials'
/// `URL(fileURLWithPath:)` folds a relative path's `..` as text (`linked/../x` becomes the working folder's `x`),
/// where the system takes `..` after following `linked`: a catalogue, manifest or model named that way was read
/// from another folder than the one `ls` shows (probe of 6 December). An absolute path is kept as it is, so a
/// `URL` made from the result names what the system reaches.
public enum AbsolutePath {
    public static func of(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// `path` without its `.` components and repeated or trailing slashes, nothing else folded (`..` is left to the
    /// system): two spellings that differ only there read the same to an operator, so a message or log line that
    /// compares them need not name both.
    public static func spelling(of path: String) -> String {
        (path.hasPrefix("/") ? "/" : "") + path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }
}
