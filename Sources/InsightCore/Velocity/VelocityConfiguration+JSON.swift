import JSONStream

/// Reads `config/velocity.json`. Unknown keys, unknown kinds, duplicate names and rules over missing counters are
/// errors naming the JSON path, so a typo cannot silently disable a rule.
extension VelocityConfiguration {
    public struct LoadError: Error, Equatable, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { "velocity configuration \(path): \(message)" }
    }

    /// Bounds on the file's lists: every counter is read and every rule checked on each evaluation, and every rule
    /// that fires names itself in each insight's reason codes, so 20,000 rules made an answer of 3 MB (velocity
    /// probe, 6 December). Far above any real set (the shipped file has 6 and 4).
    public static let maxCounters = 64
    public static let maxRules = 128

    public static func load(json bytes: [UInt8]) throws -> VelocityConfiguration {
        // Not JSON is told by its byte before the shape is judged (see RateLimitPolicy.load).
        if let error = JSONReader.firstGrammarError(in: bytes) { throw LoadError(path: "", message: "not valid JSON: \(error)") }
        var reader = JSONReader(bytes)
        var counters: [Counter] = []
        var rules: [Rule] = []
        var limits = Limits()
        var formatVersion: Int?
        do {
            try readObject(&reader, path: "") { key, reader in
                switch key {
                case "formatVersion": formatVersion = try readInteger(&reader, path: "/formatVersion", range: 1...1)
                case "counters":
                    try readArray(&reader, path: "/counters") { index, reader in
                        guard index < maxCounters else {
                            throw LoadError(path: "/counters/\(index)", message: "at most \(maxCounters) counters (each is read on every evaluation)")
                        }
                        counters.append(try readCounter(&reader, path: "/counters/\(index)"))
                    }
                case "rules":
                    try readArray(&reader, path: "/rules") { index, reader in
                        guard index < maxRules else {
                            throw LoadError(path: "/rules/\(index)", message: "at most \(maxRules) rules (each that fires is a reason code in every insight of an answer)")
                        }
                        rules.append(try readRule(&reader, path: "/rules/\(index)"))
                    }
                case "limits": limits = try readLimits(&reader)
                default: throw LoadError(path: "/" + JSONPointer.escape(key), message: "unknown key")
                }
            }
            try reader.finish()
        } catch let error as JSONSyntaxError {
            throw LoadError(path: "", message: "not valid JSON: \(error)")
        }
        guard formatVersion != nil else { throw LoadError(path: "/formatVersion", message: "required (1)") }
        // A counter feeds the computed feature of exactly its name, and a rule names its counter exactly: two names
        // that differ only in letter case would read as one to a person editing the file.
        var names = Set<String>()
        for (index, counter) in counters.enumerated() where !names.insert(counter.name.lowercased()).inserted {
            let exact = counters[..<index].contains { $0.name == counter.name }
            throw LoadError(
                path: "/counters/\(index)/name", message: exact ? "duplicate counter name" : "duplicate counter name (differs from another only in letter case)")
        }
        // A rule's name is its reason code: two of one name could not be told apart in an answer, nor could two that
        // differ only in letter case by a reader.
        var ruleNames = Set<String>()
        for (index, rule) in rules.enumerated() where !ruleNames.insert(rule.name.lowercased()).inserted {
            let exact = rules[..<index].contains { $0.name == rule.name }
            throw LoadError(path: "/rules/\(index)/name", message: exact ? "duplicate rule name" : "duplicate rule name (differs from another only in letter case)")
        }
        for (index, rule) in rules.enumerated() {
            guard let counter = counters.first(where: { $0.name == rule.counter }) else {
                throw LoadError(path: "/rules/\(index)/counter", message: "no counter of that name")
            }
            // Counts saturate at the per-subject caps: a threshold above the cap is a rule that never fires.
            let (cap, limit) = counter.kind.isDistinct
                ? (limits.maxDistinctPerSubject, "maxDistinctPerSubject") : (limits.maxEventsPerSubject, "maxEventsPerSubject")
            if rule.atLeast > cap {
                throw LoadError(
                    path: "/rules/\(index)/atLeast",
                    message: "can never be reached: \(counter.kind.rawValue) counts stop at /limits/\(limit) (\(cap))")
            }
        }
        return VelocityConfiguration(counters: counters, rules: rules, limits: limits)
    }

    private static func readCounter(_ reader: inout JSONReader, path: String) throws -> Counter {
        var name: String?
        var kind: CounterKind?
        var window: Int?
        try readObject(&reader, path: path) { key, reader in
            switch key {
            case "name": name = try readName(&reader, path: path + "/name")
            case "kind":
                let text = try readString(&reader, path: path + "/kind")
                guard let value = CounterKind(rawValue: text) else {
                    throw LoadError(path: path + "/kind", message: "expected one of \(CounterKind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                kind = value
            case "windowSeconds": window = try readInteger(&reader, path: path + "/windowSeconds", range: 1...31_536_000)
            default: throw LoadError(path: path + "/" + JSONPointer.escape(key), message: "unknown key")
            }
        }
        guard let name else { throw LoadError(path: path + "/name", message: "required") }
        guard let kind else { throw LoadError(path: path + "/kind", message: "required") }
        guard let window else { throw LoadError(path: path + "/windowSeconds", message: "required") }
        return Counter(name: name, kind: kind, windowSeconds: window)
    }

    private static func readRule(_ reader: inout JSONReader, path: String) throws -> Rule {
        var name: String?
        var counter: String?
        var atLeast: Int?
        var raiseTo: RiskLevel?
        try readObject(&reader, path: path) { key, reader in
            switch key {
            case "name": name = try readName(&reader, path: path + "/name")
            case "counter": counter = try readString(&reader, path: path + "/counter")
            case "atLeast": atLeast = try readInteger(&reader, path: path + "/atLeast", range: 1...1_000_000)
            case "raiseTo":
                let text = try readString(&reader, path: path + "/raiseTo")
                guard let level = RiskLevel(rawValue: text), level != .unknown else {
                    throw LoadError(path: path + "/raiseTo", message: "expected medium or high")
                }
                raiseTo = level
            default: throw LoadError(path: path + "/" + JSONPointer.escape(key), message: "unknown key")
            }
        }
        // Named by the member missing, as a counter's are.
        guard let name else { throw LoadError(path: path + "/name", message: "required") }
        guard let counter else { throw LoadError(path: path + "/counter", message: "required") }
        guard let atLeast else { throw LoadError(path: path + "/atLeast", message: "required") }
        guard let raiseTo else { throw LoadError(path: path + "/raiseTo", message: "required (medium or high)") }
        return Rule(name: name, counter: counter, atLeast: atLeast, raiseTo: raiseTo)
    }

    private static func readLimits(_ reader: inout JSONReader) throws -> Limits {
        var limits = Limits()
        try readObject(&reader, path: "/limits") { key, reader in
            let path = "/limits/" + JSONPointer.escape(key)
            switch key {
            // At least 64 per shard of the tracker's 16: below that the shards' split of the bound is most of it.
            case "maxTrackedAccounts": limits.maxTrackedAccounts = try readInteger(&reader, path: path, range: 1024...100_000_000)
            case "maxTrackedCounterparties": limits.maxTrackedCounterparties = try readInteger(&reader, path: path, range: 1024...100_000_000)
            case "maxEventsPerSubject": limits.maxEventsPerSubject = try readInteger(&reader, path: path, range: 1...1_000_000)
            case "maxDistinctPerSubject": limits.maxDistinctPerSubject = try readInteger(&reader, path: path, range: 1...100_000)
            default: throw LoadError(path: path, message: "unknown key")
            }
        }
        return limits
    }

    /// An object, each member once: JSON's grammar allows a repeated member, which would silently replace (or, for
    /// an array, extend) the first.
    private static func readObject(
        _ reader: inout JSONReader, path: String, _ member: (String, inout JSONReader) throws -> Void
    ) throws {
        guard try reader.peekKind() == .object else { throw LoadError(path: path, message: "expected an object") }
        try reader.readObject(eachMemberOnce: { LoadError(path: path + "/" + JSONPointer.escape($0), message: "appears more than once") }, member)
    }

    private static func readArray(_ reader: inout JSONReader, path: String, _ element: (Int, inout JSONReader) throws -> Void) throws {
        guard try reader.peekKind() == .array else { throw LoadError(path: path, message: "expected an array") }
        try reader.readArray(element)
    }

    private static func readString(_ reader: inout JSONReader, path: String) throws -> String {
        guard try reader.peekKind() == .string else { throw LoadError(path: path, message: "expected a string") }
        return try reader.readString()
    }

    private static func readName(_ reader: inout JSONReader, path: String) throws -> String {
        let name = try readString(&reader, path: path)
        guard !name.isEmpty, name.utf8.count <= 64, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw LoadError(path: path, message: "expected 1 to 64 ASCII letters and digits")
        }
        return name
    }

    private static func readInteger(_ reader: inout JSONReader, path: String, range: ClosedRange<Int>) throws -> Int {
        guard try reader.peekKind() == .number else { throw LoadError(path: path, message: "expected an integer") }
        let number = try reader.readNumber()
        guard number == number.rounded(), number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            throw LoadError(path: path, message: "expected an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(number)
    }
}
