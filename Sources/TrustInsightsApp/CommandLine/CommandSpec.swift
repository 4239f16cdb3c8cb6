/// Declares one command of the `trust-insights` tool: its options, positional arguments and either a body to run
/// or subcommands. A tree of these values is the whole command line; `CommandLineTool` parses against it.
public struct CommandSpec: Sendable {
    public typealias Body = @Sendable (ParsedArguments, CommandEnvironment) throws -> Int32

    public var name: String
    public var abstract: String
    public var discussion: String?
    public var options: [OptionSpec]
    public var positionals: [PositionalSpec]
    public var subcommands: [CommandSpec]
    public var body: Body?
    /// What the command prints on standard output only informs (a service, whose log is on standard error): a
    /// failure to write it is warned about when it happens, and does not make a clean run exit 1.
    public var standardOutputIsInformational = false

    public init(
        name: String,
        abstract: String,
        discussion: String? = nil,
        options: [OptionSpec] = [],
        positionals: [PositionalSpec] = [],
        subcommands: [CommandSpec] = [],
        body: Body? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.options = options
        self.positionals = positionals
        self.subcommands = subcommands
        self.body = body
    }
}

/// A named option: `--name value`, `--name=value`, or a bare `--name` flag.
public struct OptionSpec: Sendable {
    public enum Kind: Sendable { case flag, value, repeatedValue }

    public var name: String
    public var valueName: String
    public var help: String
    public var kind: Kind
    public var isRequired: Bool
    public var defaultDescription: String?

    public static func flag(_ name: String, help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: "", help: help, kind: .flag, isRequired: false, defaultDescription: nil)
    }

    public static func value(
        _ name: String, _ valueName: String, help: String, required: Bool = false, default defaultValue: String? = nil
    ) -> OptionSpec {
        OptionSpec(
            name: name, valueName: valueName, help: help, kind: .value, isRequired: required,
            defaultDescription: defaultValue)
    }

    public static func repeated(_ name: String, _ valueName: String, help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, kind: .repeatedValue, isRequired: false, defaultDescription: nil)
    }
}

/// A positional argument, in declaration order.
public struct PositionalSpec: Sendable {
    public var name: String
    public var help: String
    public var isRequired: Bool

    public init(_ name: String, help: String, required: Bool = true) {
        self.name = name
        self.help = help
        self.isRequired = required
    }
}
