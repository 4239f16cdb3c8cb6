/// Renders `--help` in the layout of swift-argument-parser tools: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS.
enum HelpFormatter {
    static func usage(for command: CommandSpec, path: [String]) -> String {
        var parts = [path.joined(separator: " ")]
        if !command.subcommands.isEmpty && command.body == nil {
            parts.append("<subcommand>")
        }
        for option in command.options {
            let text = option.kind == .flag ? "--\(option.name)" : "--\(option.name) <\(option.valueName)>"
            parts.append(option.isRequired ? text : "[\(text)]")
        }
        for positional in command.positionals {
            parts.append(positional.isRequired ? "<\(positional.name)>" : "[<\(positional.name)>]")
        }
        return "USAGE: \(parts.joined(separator: " "))\n"
    }

    static func help(for command: CommandSpec, path: [String]) -> String {
        var text = "OVERVIEW: \(command.abstract)\n"
        if let discussion = command.discussion {
            text += "\n\(discussion)\n"
        }
        text += "\n" + usage(for: command, path: path)
        if !command.positionals.isEmpty {
            text += "\nARGUMENTS:\n"
            for positional in command.positionals {
                text += row("<\(positional.name)>", positional.help)
            }
        }
        text += "\nOPTIONS:\n"
        for option in command.options {
            let label = option.kind == .flag ? "--\(option.name)" : "--\(option.name) <\(option.valueName)>"
            var help = option.help
            if let defaultDescription = option.defaultDescription { help += " (default: \(defaultDescription))" }
            text += row(label, help)
        }
        text += row("-h, --help", "Show help information.")
        if !command.subcommands.isEmpty {
            text += "\nSUBCOMMANDS:\n"
            for sub in command.subcommands {
                text += row(sub.name, sub.abstract)
            }
            text += "\n  See '\(path.joined(separator: " ")) <subcommand> --help' for detailed help.\n"
        }
        return text
    }

    private static func row(_ label: String, _ help: String) -> String {
        let padded = label.count < 26 ? label + String(repeating: " ", count: 26 - label.count) : label + "\n" + String(repeating: " ", count: 28)
        return "  \(padded)\(help)\n"
    }
}
