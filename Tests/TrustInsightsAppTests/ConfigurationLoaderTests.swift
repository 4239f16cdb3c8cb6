import Glibc
import HTTPServer
import Testing
@testable import TrustInsightsApp

@Suite struct ConfigurationLoaderTests {
    private func arguments(_ list: [String]) throws -> ParsedArguments {
        let spec = CommandSpec(name: "serve", abstract: "", options: ConfigurationLoader.options) { _, _ in 0 }
        return try ArgumentParser.parse(list, for: spec, path: ["serve"])
    }

    private func load(
        file: String? = nil, variables: [String: String] = [:], flags: [String] = []
    ) throws -> ServiceConfiguration {
        try ConfigurationLoader.load(arguments: try arguments(flags), variables: variables) { _ in
            file.map { Array($0.utf8) }
        }
    }

    @Test func usesBuiltInDefaultsWithoutAFile() throws {
        #expect(try load() == ServiceConfiguration())
    }

    @Test func layersFileThenEnvironmentThenFlags() throws {
        let file = #"{"port": 9000, "dataDir": "/var/lib/ti", "idleTimeoutSeconds": 5}"#
        let configuration = try load(
            file: file,
            variables: ["TRUST_INSIGHTS_PORT": "9100", "TRUST_INSIGHTS_DATA_DIR": "/srv/ti"],
            flags: ["--port", "9200"])
        #expect(configuration.port == 9200)
        #expect(configuration.dataDir == "/srv/ti")
        #expect(configuration.idleTimeoutSeconds == 5)
    }

    /// A check made after loading (a folder that does not exist) names the flag or variable the operator set.
    @Test func namesWhereASettingTookItsValue() throws {
        let variable = ["TRUST_INSIGHTS_MODELS_DIR": "/nope"]
        #expect(ConfigurationLoader.source(of: "modelsDir", arguments: try arguments([]), variables: [:]) == "modelsDir")
        #expect(ConfigurationLoader.source(of: "modelsDir", arguments: try arguments([]), variables: variable) == "TRUST_INSIGHTS_MODELS_DIR")
        #expect(ConfigurationLoader.source(of: "modelsDir", arguments: try arguments(["--models-dir", "/x"]), variables: variable) == "--models-dir")
        #expect(ConfigurationLoader.source(of: "configDir", arguments: try arguments(["--models-dir", "/x"]), variables: variable) == "configDir")
    }

    /// The send buffer is the operator's to set, and 0 gives the kernel's autotuning back.
    @Test func setsTheSendBufferOrLeavesItToTheKernel() throws {
        #expect(HTTPServerConfiguration(ServiceConfiguration()).sendBufferBytes == 256 * 1024)
        let set = try load(file: #"{"sendBufferBytes": 65536}"#)
        #expect(HTTPServerConfiguration(set).sendBufferBytes == 65536)
        let autotuned = try load(variables: ["TRUST_INSIGHTS_SEND_BUFFER_BYTES": "0"])
        #expect(autotuned.sendBufferBytes == 0)
        #expect(HTTPServerConfiguration(autotuned).sendBufferBytes == nil)
        #expect(throws: CommandLineError.configuration(key: "--send-buffer-bytes", message: "must be between 0 and 67108864")) {
            try load(flags: ["--send-buffer-bytes", "-1"])
        }
    }

    @Test func derivesVariableAndFlagNamesFromKeys() {
        let key = ConfigurationKey.all.first { $0.name == "maxRequestLineBytes" }!
        #expect(key.environmentVariable == "TRUST_INSIGHTS_MAX_REQUEST_LINE_BYTES")
        #expect(key.flag == "max-request-line-bytes")
    }

    @Test func rejectsUnknownKeyInFileNamingIt() {
        #expect(throws: CommandLineError.configuration(key: "config/default.json: prot", message: "unknown key")) {
            try load(file: #"{"prot": 1}"#)
        }
    }

    @Test func rejectsOutOfRangeEnvironmentValueNamingTheVariable() {
        #expect(throws: CommandLineError.configuration(key: "TRUST_INSIGHTS_PORT", message: "must be between 0 and 65535")) {
            try load(variables: ["TRUST_INSIGHTS_PORT": "70000"])
        }
    }

    /// A flag or variable takes numbers as the file writes them: `Double("0x10")` is 16, which nobody means by a
    /// number of seconds.
    @Test func takesNumbersFromFlagsAndVariablesAsJSONWritesThem() throws {
        for text in ["0x10", "+5", "5.", ".5", "05", "1e", "nan", "inf", " 5", "5 ", "1_000", ""] {
            #expect(throws: CommandLineError.configuration(key: "--authorization-cooldown-seconds", message: "expected a number of seconds"), "\(text)") {
                try load(flags: ["--authorization-cooldown-seconds", text])
            }
        }
        for text in ["0x10", "+5", "05", "5.5", "1e-1", "5.", "1e", "1e400", ""] {
            #expect(throws: CommandLineError.configuration(key: "TRUST_INSIGHTS_PORT", message: "expected an integer"), "\(text)") {
                try load(variables: ["TRUST_INSIGHTS_PORT": text])
            }
        }
        // A whole number in any form JSON writes is an integer, in a variable or flag as in the file (before, the
        // file took `1e3` and a variable refused it).
        for text in ["8080.0", "8.08e3", "80800e-1"] {
            #expect(try load(variables: ["TRUST_INSIGHTS_PORT": text]).port == 8080, "\(text)")
            #expect(try load(file: #"{"port": \#(text)}"#).port == 8080, "\(text)")
        }
        #expect(try load(flags: ["--max-connections", "1e3"]).maxConnections == 1000)
        #expect(try load(flags: ["--authorization-cooldown-seconds", "2.5e1"]).authorizationCooldownSeconds == 25)
        #expect(try load(flags: ["--authorization-cooldown-seconds", "0.25"]).authorizationCooldownSeconds == 0.25)
        #expect(try load(variables: ["TRUST_INSIGHTS_PORT": "0"]).port == 0)
        #expect(throws: CommandLineError.configuration(key: "TRUST_INSIGHTS_PORT", message: "must be between 0 and 65535")) {
            try load(variables: ["TRUST_INSIGHTS_PORT": "-1"])
        }
        // A whole value too large for an exact integer is out of range, not "not an integer" (as it was from 1e15 up).
        for text in ["1e15", "1000000000000000", "1e300", "-1e18"] {
            #expect(throws: CommandLineError.configuration(key: "--max-body-bytes", message: "must be between 4096 and 1073741824"), "\(text)") {
                try load(flags: ["--max-body-bytes", text])
            }
            #expect(throws: CommandLineError.configuration(key: "config/default.json: port", message: "must be between 0 and 65535"), "\(text)") {
                try load(file: #"{"port": \#(text)}"#)
            }
        }
    }

    /// A file that could not be read says why (a signal during the wait for a named pipe's writer, say), not only that.
    @Test func aConfigurationFileThatCannotBeReadSaysWhy() throws {
        let arguments = try arguments(["--config", "cfg.fifo"])
        #expect(throws: CommandLineError.configuration(key: "cfg.fifo", message: "cannot be read: stopped by a signal")) {
            try ConfigurationLoader.load(arguments: arguments, variables: [:]) { path in
                throw FileSystemError(path: path, code: EINTR, reason: "stopped by a signal")
            }
        }
    }

    /// Paths and addresses are read by the system up to a NUL, so a value holding one named something else.
    @Test func refusesATextSettingHoldingANulCharacter() {
        #expect(throws: CommandLineError.configuration(key: "config/default.json: host", message: "must not contain a NUL character (\\u0000)")) {
            try load(file: #"{"host": "127.0.0.1\u0000x"}"#)
        }
        #expect(throws: CommandLineError.configuration(key: "--data-dir", message: "must not contain a NUL character (\\u0000)")) {
            try load(flags: ["--data-dir", "data\u{0}y"])
        }
    }

    /// A cooldown above zero stays one when kept in milliseconds.
    @Test func roundsTheCooldownUpToWholeMilliseconds() throws {
        #expect(try load(flags: ["--authorization-cooldown-seconds", "0.0004"]).authorizationCooldownMilliseconds == 1)
        #expect(try load(flags: ["--authorization-cooldown-seconds", "0"]).authorizationCooldownMilliseconds == 0)
        #expect(try load().authorizationCooldownMilliseconds == 86_400_000)
    }

    @Test func rejectsWrongTypeInFile() {
        #expect(throws: CommandLineError.configuration(key: "config/default.json: port", message: "expected an integer")) {
            try load(file: #"{"port": "8080"}"#)
        }
        #expect(throws: CommandLineError.configuration(key: "config/default.json: port", message: "expected an integer")) {
            try load(file: #"{"port": 80.5}"#)
        }
    }

    @Test func rejectsMalformedFile() {
        #expect(throws: CommandLineError.self) { try load(file: #"{"port": 8080,}"#) }
        // Broken text that opens no object is told as not JSON, by its byte, not as JSON of the wrong shape.
        for text in ["[1,", "[", "[] x"] {
            let error = #expect(throws: CommandLineError.self) { try load(file: text) }
            guard case .configuration(_, let message)? = error else { Issue.record("\(text): \(String(describing: error))"); continue }
            #expect(message.hasPrefix("not valid JSON"), "\(text): \(message)")
        }
        #expect(throws: CommandLineError.configuration(key: "config/default.json", message: "must be a JSON object")) {
            try load(file: "[1]")
        }
    }

    @Test func rejectsBadFlagValue() {
        #expect(throws: CommandLineError.configuration(key: "--access-log", message: "expected true or false (also 1/0, yes/no, on/off)")) {
            try load(flags: ["--access-log=maybe"])
        }
    }

    /// Addresses that parse but no TCP client can reach were accepted: bind refused some only after the data folder
    /// was opened (exit 1, restarted by systemd), and took the others with nobody able to connect (found by a probe).
    @Test func refusesAnAddressNoClientCouldConnectTo() throws {
        for (host, reason) in [
            ("224.0.0.1", "224.0.0.1 is a multicast address"), ("239.255.255.250", "239.255.255.250 is a multicast address"),
            ("255.255.255.255", "255.255.255.255 is the broadcast address"), ("ff02::1", "ff02::1 is a multicast address"),
            ("::ffff:127.0.0.1", "::ffff:127.0.0.1 is an IPv4-mapped address, on which an IPv6 listener takes no IPv4 client: listen on 127.0.0.1 instead"),
            ("[::ffff:0.0.0.0]", "::ffff:0.0.0.0 is an IPv4-mapped address"), ("fe80::1", "fe80::1 is a link-local address"),
            ("febf::1", "febf::1 is a link-local address"),
        ] {
            #expect {
                try load(flags: ["--host", host])
            } throws: { error in
                guard case .configuration(let key, let message) = error as? CommandLineError else { return false }
                return key == "--host" && message.hasPrefix(reason)
            }
        }
        for usable in ["223.255.255.255", "240.0.0.1", "fec0::1", "::fffe:0:1", "2001:db8::1", "127.0.0.1", "::1"] {
            #expect(try load(flags: ["--host", usable]).host == usable)
        }
    }

    @Test func refusesAHostThatIsNotANumericAddress() throws {
        for host in ["not-an-ip", "localhost.localdomain", "127.0.0.256", "::1::", "[127.0.0.1]", "fe80::1%eth0"] {
            #expect(throws: CommandLineError.configuration(
                key: "TRUST_INSIGHTS_HOST", message: "expected a numeric IPv4 or IPv6 address such as 127.0.0.1, 0.0.0.0, ::1 or ::, or localhost"), "\(host)") {
                try load(variables: ["TRUST_INSIGHTS_HOST": host])
            }
        }
        // The error names the layer the value came from.
        let message = "expected a numeric IPv4 or IPv6 address such as 127.0.0.1, 0.0.0.0, ::1 or ::, or localhost"
        #expect(throws: CommandLineError.configuration(key: "config/default.json: host", message: message)) {
            try load(file: #"{"host": "example.com"}"#)
        }
        #expect(throws: CommandLineError.configuration(key: "--host", message: message)) {
            try load(file: #"{"host": "::1"}"#, flags: ["--host", "example.com"])
        }
        #expect(throws: CommandLineError.configuration(key: "TRUST_INSIGHTS_CONFIG", message: "is empty: name a configuration file")) {
            try load(variables: ["TRUST_INSIGHTS_CONFIG": ""])
        }
        #expect(try load(flags: ["--host", "0.0.0.0"]).host == "0.0.0.0")
        #expect(try load(flags: ["--host", "::"]).host == "::")
        #expect(try load(variables: ["TRUST_INSIGHTS_HOST": "[::1]"]).host == "[::1]")
        #expect(try load(variables: ["TRUST_INSIGHTS_HOST": "localhost"]).host == "localhost")
        // Host names compare without regard to case (RFC 4343); the fully qualified form is the same name.
        for spelling in ["LOCALHOST", "LocalHost", "localhost."] {
            #expect(try load(variables: ["TRUST_INSIGHTS_HOST": spelling]).host == spelling)
            #expect(ListenHost(spelling)?.description == "127.0.0.1", "\(spelling)")
        }
    }

    @Test func namesTheVariablesThatAreNoSetting() {
        let variables = ["TRUST_INSIGHTS_PROT": "1", "TRUST_INSIGHTS_PORT": "1", "TRUST_INSIGHTS_CONFIG": "x", "PATH": "/bin"]
        #expect(ConfigurationLoader.unknownVariables(in: variables) == ["TRUST_INSIGHTS_PROT"])
    }

    @Test func shippedDefaultFileIsValid() throws {
        let root = String(#filePath).split(separator: "/").dropLast(3).joined(separator: "/")
        let bytes = try #require(try FileSystem.readFile(atPath: "/" + root + "/config/default.json"))
        var configuration = ServiceConfiguration()
        try ConfigurationLoader.applyFile(bytes, path: "config/default.json", to: &configuration)
        #expect(configuration == ServiceConfiguration())
    }
}

@Suite struct CommandLineToolTests {
    final class Capture: @unchecked Sendable {
        var output = ""
        var error = ""
    }

    private func run(_ arguments: [String]) -> (Int32, Capture) {
        let capture = Capture()
        let environment = CommandEnvironment(
            standardOutput: { capture.output += $0 }, standardError: { capture.error += $0 }, variables: [:], isInteractive: false)
        return (CommandLineTool(root: RootCommand.spec).run(arguments, environment: environment), capture)
    }

    @Test func printsHelpForEveryCommand() {
        for path in [["--help"], ["serve", "--help"], ["version", "--help"]] {
            let (status, capture) = run(path)
            #expect(status == 0)
            #expect(capture.output.contains("USAGE: trust-insights"))
        }
        // Every setting names its environment variable, the configuration file's own included.
        let (_, serve) = run(["serve", "--help"])
        #expect(serve.output.contains("Env: TRUST_INSIGHTS_CONFIG."))
        for key in ConfigurationKey.all {
            #expect(serve.output.contains("Env: \(key.environmentVariable)."), "\(key.name)")
        }
    }

    /// Logs are JSON lines: a start that fails says why in one too, beside the `Error:` line for a person.
    @Test func aFailedStartIsLoggedAsAJSONLineToo() throws {
        let (status, capture) = run(["serve", "--port", "70000"])
        #expect(status == 2)
        let lines = capture.error.split(separator: "\n").map(String.init)
        let json = try #require(lines.first { $0.hasPrefix("{") && $0.contains(#""event":"start-up failed""#) }, "\(capture.error)")
        #expect(json.contains(#""level":"error""#) && json.contains(#""exitStatus":2"#) && json.contains("--port"))
        #expect(lines.contains { $0.hasPrefix("Error: invalid configuration: --port") }, "\(capture.error)")
    }

    @Test func unknownCommandIsAUsageError() {
        let (status, capture) = run(["frobnicate"])
        #expect(status == 64)
        #expect(capture.error.contains("Unknown command 'frobnicate'"))
    }

    @Test func unknownOptionIsAUsageError() {
        let (status, capture) = run(["version", "--nope"])
        #expect(status == 64)
        #expect(capture.error.contains("Unknown option '--nope'"))
    }

    @Test func versionPrintsVersion() {
        let (status, capture) = run(["version"])
        #expect(status == 0)
        #expect(capture.output == "trust-insights \(RootCommand.version)\n")
    }
}
