import HTTPServer
import JSONStream

#if canImport(Glibc)
import Glibc
#endif

/// Layers the configuration: built-in defaults, then the JSON file, then `TRUST_INSIGHTS_*` variables, then flags.
/// Any invalid or unknown key stops start-up with a message naming it (exit status 2).
struct ConfigurationLoader {
    static let defaultFile = "config/default.json"

    /// The flags `serve` accepts: `--config` plus one per configuration key.
    static var options: [OptionSpec] {
        [.value("config", "file", help: "Configuration file. Env: TRUST_INSIGHTS_CONFIG.", default: defaultFile)]
            + ConfigurationKey.all.map { .value($0.flag, "value", help: "\($0.help) Env: \($0.environmentVariable).") }
    }

    /// The configuration file these arguments and variables name (the default when none does).
    static func filePath(arguments: ParsedArguments, variables: [String: String]) -> String {
        arguments.value("config") ?? variables["TRUST_INSIGHTS_CONFIG"] ?? defaultFile
    }

    /// - Parameter fileReader: returns a file's bytes, or nil if it does not exist.
    static func load(
        arguments: ParsedArguments,
        variables: [String: String],
        fileReader: (String) throws -> [UInt8]?
    ) throws(CommandLineError) -> ServiceConfiguration {
        var configuration = ServiceConfiguration()
        let explicitFile = arguments.value("config") ?? variables["TRUST_INSIGHTS_CONFIG"]
        if explicitFile == "" {
            throw .configuration(key: arguments.value("config") != nil ? "--config" : "TRUST_INSIGHTS_CONFIG", message: "is empty: name a configuration file")
        }
        let path = explicitFile ?? defaultFile
        // Where the host came from, so an address the listener cannot take is traced to its layer.
        var hostSource = "host"
        let bytes: [UInt8]?
        do {
            bytes = try fileReader(path)
        } catch let error as FileSystemError {
            throw .configuration(key: path, message: "cannot be read: \(error.reasonText)")
        } catch {
            throw .configuration(key: path, message: "cannot be read")
        }
        if let bytes {
            let defaultHost = configuration.host
            try applyFile(bytes, path: path, to: &configuration)
            if configuration.host != defaultHost { hostSource = "\(path): host" }
        } else if explicitFile != nil {
            // Said as every other reader says it.
            throw .configuration(key: path, message: "no such file")
        }
        for key in ConfigurationKey.all {
            if let text = variables[key.environmentVariable] {
                try key.apply(text: text, to: &configuration, source: key.environmentVariable)
                if key.name == "host" { hostSource = key.environmentVariable }
            }
        }
        for key in ConfigurationKey.all {
            if let text = arguments.value(key.flag) {
                try key.apply(text: text, to: &configuration, source: "--\(key.flag)")
                if key.name == "host" { hostSource = "--\(key.flag)" }
            }
        }
        // The listener takes numeric addresses only; said here, with the other settings' errors, rather than as a
        // failure to listen after the data folder has been opened.
        guard let host = ListenHost(configuration.host) else {
            throw .configuration(
                key: hostSource, message: "expected a numeric IPv4 or IPv6 address such as 127.0.0.1, 0.0.0.0, ::1 or ::, or localhost")
        }
        if let reason = host.unusableReason {
            throw .configuration(key: hostSource, message: "\(host) \(reason)")
        }
        return configuration
    }

    /// Where the setting `name` took its value, by the loader's precedence: its flag, then its environment variable,
    /// else the name itself (the configuration file's member, or the default). A check made after loading (a
    /// folder that does not exist) names what the operator set, not a member their file may not even hold.
    static func source(of name: String, arguments: ParsedArguments, variables: [String: String]) -> String {
        guard let key = ConfigurationKey.all.first(where: { $0.name == name }) else { return name }
        if arguments.value(key.flag) != nil { return "--\(key.flag)" }
        if variables[key.environmentVariable] != nil { return key.environmentVariable }
        return name
    }

    /// `TRUST_INSIGHTS_*` variables that name no setting: most likely a misspelt one, which the service reports
    /// at start (a warning, not a refusal: the environment is shared with whatever else runs alongside).
    static func unknownVariables(in variables: [String: String]) -> [String] {
        let known = Set(ConfigurationKey.all.map(\.environmentVariable) + ["TRUST_INSIGHTS_CONFIG"])
        return variables.keys.filter { $0.hasPrefix("TRUST_INSIGHTS_") && !known.contains($0) }.sorted()
    }

    static func applyFile(_ bytes: [UInt8], path: String, to configuration: inout ServiceConfiguration) throws(CommandLineError) {
        // Not JSON is told by its byte before the shape is judged: `[1,` is a broken file, not an array.
        if let error = JSONReader.firstGrammarError(in: bytes) { throw .configuration(key: path, message: "not valid JSON (\(error))") }
        var reader = JSONReader(bytes)
        do {
            guard try reader.peekKind() == .object else { throw CommandLineError.configuration(key: path, message: "must be a JSON object") }
            var seen = Set<String>()
            try reader.readObject { name, reader in
                guard seen.insert(name).inserted else { throw CommandLineError.configuration(key: "\(path): \(name)", message: "appears twice") }
                guard let key = ConfigurationKey.all.first(where: { $0.name == name }) else {
                    throw CommandLineError.configuration(key: "\(path): \(name)", message: "unknown key")
                }
                try applyJSONValue(of: key, from: &reader, to: &configuration, source: "\(path): \(name)")
            }
            try reader.finish()
        } catch let error as CommandLineError {
            throw error
        } catch {
            throw .configuration(key: path, message: "not valid JSON (\(error))")
        }
    }

    private static func applyJSONValue(
        of key: ConfigurationKey, from reader: inout JSONReader, to configuration: inout ServiceConfiguration, source: String
    ) throws {
        let kind = try reader.peekKind()
        switch key.value {
        case .integer(let path, let range):
            guard kind == .number else { throw CommandLineError.configuration(key: source, message: "expected an integer") }
            configuration[keyPath: path] = try ConfigurationKey.integer(try reader.readNumber(), in: range, source: source)
        case .seconds(let path, let range):
            guard kind == .number else { throw CommandLineError.configuration(key: source, message: "expected a number of seconds") }
            let number = try reader.readNumber()
            try ConfigurationKey.check(number, in: range, source: source)
            configuration[keyPath: path] = number
        case .text(let path):
            guard kind == .string else { throw CommandLineError.configuration(key: source, message: "expected a string") }
            let text = try reader.readString()
            try ConfigurationKey.checkText(text, source: source)
            configuration[keyPath: path] = text
        case .boolean(let path):
            guard kind == .boolean else { throw CommandLineError.configuration(key: source, message: "expected true or false") }
            configuration[keyPath: path] = try reader.readBool()
        }
    }
}
