import JSONStream

/// Reads `config/rate-limits.json`. Every key is optional (the defaults of `RateLimitPolicy` apply); unknown keys
/// and out-of-range values are errors naming the JSON path, so a typo cannot silently lift a limit.
extension RateLimitPolicy {
    public struct LoadError: Error, Equatable, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { "rate limits \(path): \(message)" }
    }

    public static func load(json bytes: [UInt8]) throws -> RateLimitPolicy {
        // Text that is not JSON is told so, by its byte, before its shape is judged: `[1,` is no array of the
        // wrong kind but a broken file (lifecycle probe), as the catalogues and the manifest already say.
        if let error = JSONReader.firstGrammarError(in: bytes) { throw LoadError(path: "", message: "not valid JSON: \(error)") }
        var reader = JSONReader(bytes)
        var policy = RateLimitPolicy()
        var formatVersion: Int?
        do {
            try readObject(&reader, path: "") { key, reader in
                switch key {
                case "formatVersion": formatVersion = Int(try readNumber(&reader, path: "/formatVersion", range: 1...1, integer: true))
                case "key": policy.key = try readLimit(&reader, path: "/key")
                case "device": policy.device = try readLimit(&reader, path: "/device")
                case "insightType": policy.insightType = try readLimit(&reader, path: "/insightType")
                case "tenants":
                    try readObject(&reader, path: "/tenants") { tenant, reader in
                        // Escaped as RFC 6901 asks: a name holding `/` read as two levels (configuration probe, 7 December).
                        let path = "/tenants/" + JSONPointer.escape(tenant)
                        guard TenantID(tenant) != nil else {
                            throw LoadError(path: path, message: "not a tenant ID (1 to 64 letters, digits, '-' or '_', as `keys create --tenant` takes)")
                        }
                        policy.tenants[tenant] = try readLimit(&reader, path: path)
                    }
                case "compliance": policy.compliance = try readCompliance(&reader)
                case "labels": policy.labels = try readLabels(&reader)
                default: throw LoadError(path: "/" + JSONPointer.escape(key), message: "unknown key")
                }
            }
            try reader.finish()
        } catch let error as JSONSyntaxError {
            throw LoadError(path: "", message: "not valid JSON: \(error)")
        }
        guard formatVersion != nil else { throw LoadError(path: "/formatVersion", message: "required (1)") }
        return policy
    }

    private static func readLimit(_ reader: inout JSONReader, path: String) throws -> RateLimit {
        var rate: Double?
        var burst: Int?
        try readObject(&reader, path: path) { key, reader in
            switch key {
            case "ratePerSecond": rate = try readNumber(&reader, path: path + "/ratePerSecond", range: 0.0001...1_000_000)
            case "burst": burst = Int(try readNumber(&reader, path: path + "/burst", range: 1...10_000_000, integer: true))
            default: throw LoadError(path: path + "/" + JSONPointer.escape(key), message: "unknown key")
            }
        }
        guard let rate, let burst else { throw LoadError(path: path, message: "ratePerSecond and burst are required") }
        return RateLimit(ratePerSecond: rate, burst: burst)
    }

    private static func readCompliance(_ reader: inout JSONReader) throws -> CompliancePolicy {
        var policy = CompliancePolicy()
        try readObject(&reader, path: "/compliance") { key, reader in
            let path = "/compliance/" + JSONPointer.escape(key)
            switch key {
            case "windowSeconds": policy.windowSeconds = Int(try readNumber(&reader, path: path, range: 60...2_592_000, integer: true))
            case "minimumJudged": policy.minimumJudged = Int(try readNumber(&reader, path: path, range: 1...10_000_000, integer: true))
            case "threshold": policy.threshold = try readNumber(&reader, path: path, range: 0...1)
            case "reducedRateFactor": policy.reducedRateFactor = try readNumber(&reader, path: path, range: 0.001...1)
            case "suspendAfterSeconds":
                policy.suspendAfterSeconds = Int(try readNumber(&reader, path: path, range: 0...31_536_000, integer: true))
            default: throw LoadError(path: path, message: "unknown key")
            }
        }
        return policy
    }

    private static func readLabels(_ reader: inout JSONReader) throws -> LabelStorageQuota {
        var quota = LabelStorageQuota()
        try readObject(&reader, path: "/labels") { key, reader in
            let path = "/labels/" + JSONPointer.escape(key)
            switch key {
            case "storedBytesPerKeyPerDay":
                let range = Double(LabelStorageQuota.minimumBytesPerDay)...Double(LabelStorageQuota.maximumBytesPerDay)
                quota.bytesPerDay = Int64(try readNumber(&reader, path: path, range: range, integer: true))
            default: throw LoadError(path: path, message: "unknown key")
            }
        }
        return quota
    }

    /// An object, each member once: JSON's grammar allows a repeated member, which would silently replace the first.
    private static func readObject(
        _ reader: inout JSONReader, path: String, _ member: (String, inout JSONReader) throws -> Void
    ) throws {
        guard try reader.peekKind() == .object else { throw LoadError(path: path, message: "expected an object") }
        try reader.readObject(eachMemberOnce: { LoadError(path: path + "/" + JSONPointer.escape($0), message: "appears more than once") }, member)
    }

    private static func readNumber(
        _ reader: inout JSONReader, path: String, range: ClosedRange<Double>, integer: Bool = false
    ) throws -> Double {
        guard try reader.peekKind() == .number else { throw LoadError(path: path, message: "expected a number") }
        let number = try reader.readNumber()
        guard range.contains(number), !integer || number == number.rounded() else {
            throw LoadError(path: path, message: "expected \(integer ? "an integer" : "a number") from \(NumberText.render(range.lowerBound)) to \(NumberText.render(range.upperBound))")
        }
        return number
    }
}
