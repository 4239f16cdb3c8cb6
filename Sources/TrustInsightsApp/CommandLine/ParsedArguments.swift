import InsightModel

/// What the parser found for one command, with typed accessors that turn bad values into usage errors.
public struct ParsedArguments: Sendable {
    public var commandPath: [String]
    var values: [String: [String]]
    var flags: Set<String>
    public var positionals: [String]

    public func flag(_ name: String) -> Bool { flags.contains(name) }

    public func value(_ name: String) -> String? { values[name]?.last }

    public func values(_ name: String) -> [String] { values[name] ?? [] }

    public func required(_ name: String) throws(CommandLineError) -> String {
        guard let value = value(name) else { throw .usage("Missing expected argument '--\(name)'") }
        return value
    }

    public func int(_ name: String, in range: ClosedRange<Int>? = nil) throws(CommandLineError) -> Int? {
        guard let text = value(name) else { return nil }
        // Written as the configuration writes numbers (`Int` alone would also take `+5`), so that one number is not
        // valid for one option and refused by the next.
        guard ConfigurationKey.isDecimal(text, fraction: false), let number = Int(text) else {
            throw .usage("The value '\(text)' is invalid for '--\(name)': expected an integer")
        }
        if let range, !range.contains(number) {
            throw .usage("The value '\(text)' is invalid for '--\(name)': expected \(range.lowerBound)...\(range.upperBound)")
        }
        return number
    }

    public func double(_ name: String, in range: ClosedRange<Double>? = nil) throws(CommandLineError) -> Double? {
        guard let text = value(name) else { return nil }
        // Decimal only, as the configuration file writes numbers (JSON's grammar): `Double` would also take
        // `0x1p-1`, `+5` or `5.`, which the configuration refuses. -0 is 0.
        guard ConfigurationKey.isDecimal(text, fraction: true), let parsed = Double(text), parsed.isFinite else {
            throw .usage("The value '\(text)' is invalid for '--\(name)': expected a decimal number\(Self.jsonFormHint(text))")
        }
        let number = parsed == 0 ? 0 : parsed
        if let range, !range.contains(number) {
            throw .usage("The value '\(text)' is invalid for '--\(name)': expected \(range.lowerBound)...\(range.upperBound)")
        }
        return number
    }

    /// `.5` and `5.` are numbers to a person, not to JSON: say how to write them rather than only refuse them.
    static func jsonFormHint(_ text: String) -> String {
        let unsigned = text.hasPrefix("-") ? text.dropFirst() : text[...]
        let written: String
        if unsigned.hasPrefix("."), unsigned.count > 1 {
            written = (text.hasPrefix("-") ? "-0" : "0") + unsigned
        } else if unsigned.hasSuffix("."), unsigned.count > 1 {
            written = String(text.dropLast())
        } else {
            return ""
        }
        guard ConfigurationKey.isDecimal(written, fraction: true) else { return "" }
        return " (write '\(written)': numbers are written as in JSON, with digits on both sides of the point)"
    }

    public func choice(_ name: String, from allowed: [String]) throws(CommandLineError) -> String? {
        guard let text = value(name) else { return nil }
        guard allowed.contains(text) else {
            throw .usage("The value '\(text)' is invalid for '--\(name)': expected one of \(allowed.joined(separator: ", "))")
        }
        return text
    }
}
