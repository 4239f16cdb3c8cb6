/// Parses a command line against a tree of `CommandSpec`s and runs the chosen command.
public struct CommandLineTool: Sendable {
    public var root: CommandSpec

    public init(root: CommandSpec) { self.root = root }

    /// The value names of options that take a file or folder.
    static let pathValueNames: Set<String> = ["file", "csv", "model.json", "directory", "dir"]

    /// Runs `arguments` (without the program name) and returns the process exit status. A command that succeeded
    /// but could not write its standard output exits 1: what it printed (a key's secret, an export) is lost.
    public func run(_ arguments: [String], environment: CommandEnvironment) -> Int32 {
        let status = runCommand(arguments, environment: environment)
        guard status == 0, let fault = environment.standardOutputFault() else { return status }
        if command(named: arguments).standardOutputIsInformational { return status }
        environment.printError("Error: cannot write standard output: \(fault)")
        return 1
    }

    /// The command `arguments` name: the deepest subcommand their leading words spell.
    private func command(named arguments: [String]) -> CommandSpec {
        var command = root
        for word in arguments {
            guard let sub = command.subcommands.first(where: { $0.name == word }) else { break }
            command = sub
        }
        return command
    }

    private func runCommand(_ arguments: [String], environment: CommandEnvironment) -> Int32 {
        var path = [root]
        // `--version` alone is what most tools answer; here it is the `version` command.
        let versionAsked = arguments == ["--version"] && root.subcommands.contains { $0.name == "version" }
        var remaining = (versionAsked ? ["version"] : arguments)[...]
        while let next = remaining.first, let sub = path.last!.subcommands.first(where: { $0.name == next }) {
            path.append(sub)
            remaining = remaining.dropFirst()
        }
        let command = path.last!
        let commandPath = path.map(\.name)
        // `help models import` is `models import --help`, as git and swift have it; a name that is no command is a
        // usage error, not the top-level help with exit status 0.
        if remaining.first == "help" && command.subcommands.count > 0 {
            var target = path
            for name in remaining.dropFirst() {
                guard let sub = target.last!.subcommands.first(where: { $0.name == name }) else {
                    environment.printError("Error: Unknown command '\(name)'")
                    environment.standardError(HelpFormatter.help(for: target.last!, path: target.map(\.name)))
                    return 64
                }
                target.append(sub)
            }
            environment.standardOutput(HelpFormatter.help(for: target.last!, path: target.map(\.name)))
            return 0
        }
        if remaining.contains("--help") || remaining.contains("-h") {
            environment.standardOutput(HelpFormatter.help(for: command, path: commandPath))
            return 0
        }
        guard let body = command.body else {
            if let unknown = remaining.first {
                environment.printError("Error: Unknown command '\(unknown)'")
            } else {
                environment.printError("Error: Missing subcommand")
            }
            environment.standardError(HelpFormatter.help(for: command, path: commandPath))
            return 64
        }
        do {
            let parsed = try ArgumentParser.parse(Array(remaining), for: command, path: commandPath)
            return try body(parsed, environment)
        } catch let error as CommandLineError {
            printError(error.message, environment)
            if case .usage = error {
                environment.standardError(HelpFormatter.usage(for: command, path: commandPath))
            }
            return error.exitStatus
        } catch {
            printError("\(error)", environment)
            return 1
        }
    }

    /// Each line of a message as a line of its own starting `Error: `. A message quotes what files and arguments
    /// hold (a manifest's category), and a line break there started a line of any content, such as a forged JSON log
    /// line in the stream `serve` logs to (regression probe, 6 December).
    private func printError(_ message: String, _ environment: CommandEnvironment) {
        // By line breaks of every kind: "\r\n" is one Character, which a split on "\n" never finds.
        for line in message.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            environment.printError("Error: \(line)")
        }
    }
}

enum ArgumentParser {
    static func parse(_ arguments: [String], for command: CommandSpec, path: [String]) throws(CommandLineError) -> ParsedArguments {
        var parsed = ParsedArguments(commandPath: path, values: [:], flags: [], positionals: [])
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("--") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = command.options.first(where: { $0.name == name }) else {
                throw .usage("Unknown option '--\(name)'")
            }
            switch option.kind {
            case .flag:
                if inlineValue != nil { throw .usage("The flag '--\(name)' does not take a value") }
                parsed.flags.insert(name)
            case .value, .repeatedValue:
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw .usage("Missing value for '--\(name) <\(option.valueName)>'") }
                    value = arguments[index]
                    index += 1
                }
                // An empty path names no file: said as the usage error it is, rather than a system error about ''.
                if value.isEmpty && CommandLineTool.pathValueNames.contains(option.valueName) {
                    throw .usage("The option '--\(name) <\(option.valueName)>' needs a path, and was given an empty one")
                }
                if option.kind == .value, parsed.values[name] != nil {
                    throw .usage("The option '--\(name)' was given more than once")
                }
                parsed.values[name, default: []].append(value)
            }
        }
        for option in command.options where option.isRequired && parsed.values[option.name] == nil {
            throw .usage("Missing expected argument '--\(option.name) <\(option.valueName)>'")
        }
        let required = command.positionals.filter(\.isRequired).count
        if parsed.positionals.count < required {
            throw .usage("Missing expected argument '<\(command.positionals[parsed.positionals.count].name)>'")
        }
        if parsed.positionals.count > command.positionals.count {
            throw .usage("Unexpected argument '\(parsed.positionals[command.positionals.count])'")
        }
        return parsed
    }
}
