/// Feature names as text on one line: what a model may hold, and how a message shows a name that is not yet checked.
public enum FeatureNameText {
    /// Whether `name` holds a character that changes how the text around it is laid out (`isLayoutControl`): the
    /// rule `train` applies to a CSV header, and the model validator to every model.
    public static func holdsControlCharacter(_ name: String) -> Bool {
        name.unicodeScalars.contains(where: isLayoutControl)
    }

    /// A C0 or C1 control character; U+2028 or U+2029, which are line breaks too (Unicode's line and paragraph
    /// separators); or a direction control: a bidirectional embedding, override or isolate (U+202A to U+202E, U+2066
    /// to U+2069), which reorders the text after it on the line (a name holding U+202E printed the rest of a message
    /// backwards, the trick of "Trojan Source"), or a direction mark (U+200E, U+200F, U+061C), which moves the
    /// punctuation around it. Other format characters (a zero-width joiner in an emoji) leave the line as it is.
    static func isLayoutControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true
        default: return [.control, .lineSeparator, .paragraphSeparator].contains(scalar.properties.generalCategory)
        }
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
            } else if isLayoutControl(scalar) {
                text += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    /// A name as a message quotes it, between single quotes: `printable`, and one over 64 bytes cut to its first 48
    /// characters with its length, so that a header of one 200 MB name does not become a 200 MB message. Names a
    /// file gave are quoted before any rule has refused them (a repeated header name is found first): written as
    /// they stand, `a\u{2028}b` printed two lines (regression probes, 7 December).
    public static func quoted(_ name: String) -> String {
        let utf8 = name.utf8
        guard utf8.count > 64 else { return "'\(printable(name))'" }
        // Cut by code points, not Characters: a name of one letter and 100,000 combining marks is one Character.
        let cut = String(String.UnicodeScalarView(name.unicodeScalars.prefix(48)))
        return "'\(printable(cut))...' (\(utf8.count) bytes)"
    }
}
