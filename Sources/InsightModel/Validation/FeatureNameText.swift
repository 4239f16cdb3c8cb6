/// Feature names as text on one line: what a model may hold, and how a message shows a name that is not yet checked.
public enum FeatureNameText {
    /// A C0 or C1 control character, or U+2028 and U+2029, which are line breaks too (Unicode's line and paragraph
    /// separators): the rule `train` applies to a CSV header, and the model validator to every model.
    public static func holdsControlCharacter(_ name: String) -> Bool {
        name.unicodeScalars.contains { [.control, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory) }
    }

    /// `name` with each such character written `\u{A}`, for a message about names a file or an option gave before
    /// they were checked: written as they stand, a line break forged a second line of output. A backslash is written
    /// `\\`, so a name holding the text `\u{A}` does not read as one holding a line break.
    public static func printable(_ name: String) -> String {
        guard holdsControlCharacter(name) || name.utf8.contains(UInt8(ascii: "\\")) else { return name }
        var text = ""
        for scalar in name.unicodeScalars {
            if scalar == "\\" {
                text += "\\\\"
            } else if [.control, .lineSeparator, .paragraphSeparator].contains(scalar.properties.generalCategory) {
                text += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }
}
