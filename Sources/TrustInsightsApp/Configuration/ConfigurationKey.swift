/// One setting: its name in the JSON file, the environment variable and the flag derived from that name, and how
/// to parse and check a value. The table below is the single source of truth, also for the docs.
struct ConfigurationKey: Sendable {
    enum Value: Sendable {
        case integer(WritableKeyPath<ServiceConfiguration, Int> & Sendable, ClosedRange<Int>)
        case seconds(WritableKeyPath<ServiceConfiguration, Double> & Sendable, ClosedRange<Double>)
        case text(WritableKeyPath<ServiceConfiguration, String> & Sendable)
        case boolean(WritableKeyPath<ServiceConfiguration, Bool> & Sendable)
    }

    var name: String
    var value: Value
    var help: String

    /// `dataDir` -> `TRUST_INSIGHTS_DATA_DIR`.
    var environmentVariable: String {
        "TRUST_INSIGHTS_" + words.map { $0.uppercased() }.joined(separator: "_")
    }

    /// `dataDir` -> `data-dir`.
    var flag: String { words.joined(separator: "-") }

    private var words: [String] {
        var words: [String] = []
        var current = ""
        for character in name {
            if character.isUppercase, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(Character(character.lowercased()))
        }
        words.append(current)
        return words
    }

    static let all: [ConfigurationKey] = [
        .init(name: "host", value: .text(\.host), help: "Numeric IPv4 or IPv6 address to listen on (0.0.0.0 for all IPv4 interfaces, :: for all interfaces of both families), or localhost for 127.0.0.1; other names are refused."),
        .init(name: "port", value: .integer(\.port, 0...65535), help: "TCP port (0 picks a free one)."),
        .init(name: "dataDir", value: .text(\.dataDir), help: "Folder for the SQLite database and signing keys."),
        .init(name: "modelsDir", value: .text(\.modelsDir), help: "Folder holding manifest.json and the models."),
        .init(name: "configDir", value: .text(\.configDir), help: "Folder holding features/, velocity.json and rate-limits.json."),
        .init(name: "eventLoops", value: .integer(\.eventLoops, 0...256), help: "Event loop threads (0 = one per core)."),
        .init(name: "maxConnections", value: .integer(\.maxConnections, 1...1_000_000), help: "Open connection cap."),
        .init(name: "maxRequestLineBytes", value: .integer(\.maxRequestLineBytes, 64...1_048_576), help: "Longest request line (414 above)."),
        .init(name: "maxHeaderBytes", value: .integer(\.maxHeaderBytes, 256...1_048_576), help: "Largest header block (431 above)."),
        .init(name: "maxHeaderCount", value: .integer(\.maxHeaderCount, 1...10_000), help: "Most header fields (431 above)."),
        .init(name: "maxBodyBytes", value: .integer(\.maxBodyBytes, 4096...1_073_741_824), help: "Default body limit of a route (413 above); at least 4096, below which ordinary evaluations would be refused."),
        .init(name: "maxBufferedBodyBytes", value: .integer(\.maxBufferedBodyBytes, 1_048_576...68_719_476_736), help: "Bytes of bodies over 64 KiB (label batches), and an eighth of it of bodies of 8-64 KiB, all connections may hold at once; a request whose body does not fit is answered 503 server-busy with Retry-After, its body unread."),
        .init(name: "requestTimeoutSeconds", value: .seconds(\.requestTimeoutSeconds, 0.01...3600), help: "From a request's first byte to its last (408 after)."),
        .init(name: "idleTimeoutSeconds", value: .seconds(\.idleTimeoutSeconds, 0.01...86400), help: "Idle keep-alive connections close after this."),
        .init(name: "writeTimeoutSeconds", value: .seconds(\.writeTimeoutSeconds, 0.01...3600), help: "A stalled reader is dropped after this."),
        .init(name: "sendBufferBytes", value: .integer(\.sendBufferBytes, 0...67_108_864), help: "Kernel send buffer of each connection (SO_SNDBUF; 0 = the kernel's autotuning): bounds what clients that stop reading pin in kernel memory."),
        .init(name: "shutdownGraceSeconds", value: .seconds(\.shutdownGraceSeconds, 0...3600), help: "How long SIGTERM waits for in-flight requests."),
        .init(name: "accessLog", value: .boolean(\.accessLog), help: "One JSON line per request on standard error."),
        .init(name: "accessLogRefusedPerSecond", value: .integer(\.accessLogRefusedPerSecond, 0...1_000_000), help: "Most access-log lines of 4xx answers a second (0 = all); the rest are counted in one summary line a second."),
        .init(name: "authorizationCooldownSeconds", value: .seconds(\.authorizationCooldownSeconds, 0...31_536_000), help: "Delay before a person's opt-out takes effect."),
        .init(name: "authorizationOptOutsInMemory", value: .integer(\.authorizationOptOutsInMemory, 0...100_000_000), help: "Most opt-outs held in memory (about 230 bytes each); evaluations of the others read the store."),
        .init(name: "authorizationOptOutFilterBytes", value: .integer(\.authorizationOptOutFilterBytes, 8...268_435_456), help: "Size of the filter marking the opt-outs past authorizationOptOutsInMemory (rounded down to a power of two; 10 bits per opt-out keep needless store reads near 1%)."),
        .init(name: "consumptionDeadlineSeconds", value: .seconds(\.consumptionDeadlineSeconds, 0...31_536_000), help: "A consumption report later than this after its evaluation is flagged late."),
        .init(name: "metricsSuppressionK", value: .integer(\.metricsSuppressionK, 0...1_000_000), help: "Label metrics withhold counts below this (0 = off)."),
        .init(name: "metricsMaturityDays", value: .integer(\.metricsMaturityDays, 0...3650), help: "Label metrics flag evaluations younger than this as immature."),
        .init(name: "commitWindowMicroseconds", value: .integer(\.commitWindowMicroseconds, 0...100_000), help: "Under load, how long the store's writer waits to gather a larger batch (0 = commit at once)."),
        .init(name: "syncEveryCommit", value: .boolean(\.syncEveryCommit), help: "Flush the WAL to disk at every commit, before its answers go: acknowledged writes survive an OS crash or power cut, not only the process's death, at a disk flush per group commit."),
        .init(name: "evaluationHoldMicroseconds", value: .integer(\.evaluationHoldMicroseconds, 100...1_000_000), help: "Retired, and ignored: each event loop commits the evaluation records of its pass itself when the pass ends. Accepted so that files which set it stay valid."),
    ]

    /// Parses a textual value (from the environment or a flag) into the configuration.
    func apply(text: String, to configuration: inout ServiceConfiguration, source: String) throws(CommandLineError) {
        switch value {
        case .integer(let path, let range):
            // Read as the file reads it: any number with a whole value (`1e3`, `1000.0`), not only digits.
            guard Self.isDecimal(text, fraction: true), let value = Double(text) else {
                throw .configuration(key: source, message: "expected an integer")
            }
            configuration[keyPath: path] = try Self.integer(value, in: range, source: source)
        case .seconds(let path, let range):
            guard Self.isDecimal(text, fraction: true), let number = Double(text), number.isFinite else {
                throw .configuration(key: source, message: "expected a number of seconds")
            }
            try Self.check(number, in: range, source: source)
            configuration[keyPath: path] = number
        case .text(let path):
            try Self.checkText(text, source: source)
            configuration[keyPath: path] = text
        case .boolean(let path):
            switch text.lowercased() {
            case "true", "1", "yes", "on": configuration[keyPath: path] = true
            case "false", "0", "no", "off": configuration[keyPath: path] = false
            default: throw .configuration(key: source, message: "expected true or false (also 1/0, yes/no, on/off)")
            }
        }
    }

    /// Whether `text` is a number as the configuration file writes one (JSON's grammar): `Double` and `Int` alone
    /// would also take `0x10`, `+5`, `5.` or `nan`, which the file refuses, so a flag or variable must not mean more.
    static func isDecimal(_ text: String, fraction: Bool) -> Bool {
        var bytes = Substring(text).utf8[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let leading = bytes.first
        let integerDigits = digits()
        guard integerDigits > 0, leading != UInt8(ascii: "0") || integerDigits == 1 else { return false }
        guard fraction else { return bytes.isEmpty }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    /// A number written in any JSON form whose value is whole and well inside `Int`, as an integer setting takes it.
    static func wholeNumber(_ number: Double) -> Int? {
        guard number == number.rounded(), abs(number) < 1e15 else { return nil }
        return Int(number)
    }

    /// `number` as an integer setting within `range`: a whole value too large for an exact integer (`1e15`, `1e300`)
    /// is out of range, as it is, not "not an integer".
    static func integer(_ number: Double, in range: ClosedRange<Int>, source: String) throws(CommandLineError) -> Int {
        guard number.isFinite, number == number.rounded() else {
            throw .configuration(key: source, message: "expected an integer")
        }
        guard let whole = wholeNumber(number) else {
            throw .configuration(key: source, message: "must be between \(range.lowerBound) and \(range.upperBound)")
        }
        try check(whole, in: range, source: source)
        return whole
    }

    /// A text setting names a path or an address, which the system reads up to a NUL: `"127.0.0.1\u0000x"` listened
    /// on 127.0.0.1 and a data folder with one made the folder named by its first part.
    static func checkText(_ text: String, source: String) throws(CommandLineError) {
        guard !text.isEmpty else { throw .configuration(key: source, message: "must not be empty") }
        guard !text.utf8.contains(0) else {
            throw .configuration(key: source, message: "must not contain a NUL character (\\u0000)")
        }
    }

    static func check<T: Comparable>(_ number: T, in range: ClosedRange<T>, source: String) throws(CommandLineError) {
        guard range.contains(number) else {
            throw .configuration(key: source, message: "must be between \(range.lowerBound) and \(range.upperBound)")
        }
    }
}
