import InsightCore
import JSONStream

/// Decodes `POST /v1/evaluations` bodies in one pass over the bytes, for the known shape only: unknown fields,
/// duplicate fields, wrong types and missing fields are `contextInvalid` with the field's JSON Pointer. Feature
/// values pass through as `FeatureInput` for the catalogue to check; string, array and object values keep only
/// their kind, so no value can reach an error message.
enum EvaluationRequestDecoder {
    static let maximumFeatures = CategoryCatalogue.maximumClientFeatures
    static let maximumRefLength = 256
    static let maximumRequestIDLength = 128
    /// Levels of nesting a body may have in all; a request needs 4 (`/requestedInsights/0/modelVersion/specific`).
    static let maximumDepth = 8

    /// The strings every request holds that are too long to be stored inline (field names, the insight type),
    /// with the catalogue's feature names: reading them then allocates nothing.
    static func knownStrings(featureNames: [String]) -> JSONKnownStrings {
        JSONKnownStrings(featureNames + ["operationCategory", "requestedInsights", InsightType.isLikelyBeingCoached])
    }

    /// The subject refs and features checked against the category's catalogue (`Evaluator.contextViolations`).
    typealias ContextCheck = @Sendable (OperationCategory, SubjectReferences, [(name: String, value: FeatureInput)]) -> [ContextViolation]

    /// Decodes a request; when it must be refused, `contextCheck` adds the catalogue's view of the subject refs and
    /// features, where those could be read, so that the answer names every problem at once, not the body's first and
    /// the catalogue's on the next try.
    static func decode(
        _ body: [UInt8], knownStrings: JSONKnownStrings = .none, contextCheck: ContextCheck? = nil
    ) throws(ServiceProblem) -> EvaluationRequest {
        var violations: [ContextViolation] = []
        var requestID: String?
        var category: OperationCategory?
        var categoryPresent = false
        var insights: [InsightRequest]?
        var insightsMember: String?
        var subject: SubjectReferences?
        var features: [(name: String, value: FeatureInput)]?
        let seen = try Wire.readObjectBody(body, maximumDepth: maximumDepth, knownStrings: knownStrings, violations: &violations, wrongShape: { .evaluation(.contextInvalid($0)) }) { key, pointer, reader, violations in
            switch key {
            case "requestID":
                if try reader.peekKind() == .null {
                    try reader.readNull()
                } else {
                    requestID = try Wire.readString(&reader, at: "/requestID", maximumLength: maximumRequestIDLength, violations: &violations)
                }
            case "operationCategory":
                categoryPresent = true
                category = try Wire.readEnumeration(&reader, at: "/operationCategory", violations: &violations)
            case "requestedInsights", "requestedEvaluations":
                // `requestedEvaluations` is the public Swift API's name (`InsightContext(operationCategory:
                // requestedEvaluations:)`), which a client mirroring it sends; DESIGN.md's wire name is
                // `requestedInsights`. Either, not both: two lists would leave which one to evaluate to a guess.
                if let insightsMember, insightsMember != key {
                    violations.append(Wire.invalidValue(pointer(), "send requestedInsights or requestedEvaluations, not both"))
                    try reader.skipValue()
                } else {
                    insightsMember = key
                    insights = try decodeInsights(&reader, pointer: "/" + key, violations: &violations)
                }
            case "subject":
                subject = try decodeSubject(&reader, pointer: "/subject", violations: &violations)
            case "features":
                features = try decodeFeatures(&reader, pointer: "/features", violations: &violations)
            default:
                violations.append(Wire.unknownField(pointer()))
                try reader.skipValue()
            }
        }
        if !categoryPresent { violations.append(Wire.missing("/operationCategory")) }
        // A member that is there but unusable already has its own violation at the same pointer.
        if !seen.contains("requestedInsights") && !seen.contains("requestedEvaluations") {
            violations.append(Wire.missing("/requestedInsights"))
        }
        if !seen.contains("features") { violations.append(Wire.missing("/features")) }
        // Every category needs some subject ref (the contract lists `subject` as required): its absence is named as
        // such, not as the refs the category would have wanted inside it.
        if !seen.contains("subject") { violations.append(Wire.missing("/subject")) }
        guard violations.isEmpty, let category, let insights, let subject, let features else {
            // Not when the category or the features were themselves found wrong (sent twice, too many): the
            // catalogue's view of a first copy would not say what the client meant.
            // A subject that is missing, not an object or sent twice is named already; the features are checked
            // all the same.
            let named = Set(violations.map(\.pointer))
            if let contextCheck, let category, let features,
                !named.contains("/operationCategory"), !named.contains("/features") {
                let subjectNamed = subject == nil || violations.contains { $0.pointer == "/subject" && $0.code == "duplicateField" }
                // What the body's reading already named (an empty ref, say, which the catalogue would call missing)
                // keeps its one violation.
                violations += contextCheck(category, subject ?? SubjectReferences(), features).filter { violation in
                    !named.contains(violation.pointer) && !(subjectNamed && violation.pointer.hasPrefix("/subject/"))
                }
            }
            throw .evaluation(.contextInvalid(violations))
        }
        return EvaluationRequest(requestID: requestID, category: category, insights: insights, subject: subject, features: features)
    }

    private static func decodeInsights(_ reader: inout JSONReader, pointer: String, violations: inout [ContextViolation]) throws -> [InsightRequest]? {
        let kind = try reader.peekKind()
        guard kind == .array else {
            violations.append(Wire.wrongType(pointer, expected: "an array of insight requests", received: kind))
            try reader.skipValue()
            return nil
        }
        var result: [InsightRequest] = []
        result.reserveCapacity(4)
        var tooMany = false
        // Only this array's own violations say its items were there but wrong; a violation elsewhere in the body
        // must not hide that it is empty, or the answer would depend on the order of the members.
        let before = violations.count
        try reader.readArray { index, reader in
            // Items past the limit are checked all the same, so that every problem is reported at once, as API.md
            // says (an unknown field in the ninth went unnamed; evaluation probe, 6 December); the body's 64 KiB
            // bounds their number and the answer lists the first 32 problems.
            if index >= Evaluator.maximumInsights { tooMany = true }
            // The pointer is built only for a violation, by a closure written in place so its context is not allocated.
            if let insight = try decodeInsight(&reader, pointer: { pointer + "/" + String(index) }, violations: &violations),
               !tooMany {
                result.append(insight)
            }
        }
        if tooMany || result.isEmpty && violations.count == before {
            // First of all problems, the items' own and those of members before this one: with more than the 32 an
            // answer lists, it must not be the one cut off, or a client mending every listed problem is refused
            // again (regression probes, 6 December).
            violations.insert(Wire.invalidValue(pointer, "must hold 1 to \(Evaluator.maximumInsights) insight requests"), at: 0)
        }
        return result
    }

    private static func decodeInsight(_ reader: inout JSONReader, pointer: () -> String, violations: inout [ContextViolation]) throws -> InsightRequest? {
        let kind = try reader.peekKind()
        guard kind == .object else {
            violations.append(Wire.wrongType(pointer(), expected: "an object", received: kind))
            try reader.skipValue()
            return nil
        }
        var insightType: String?
        var schema: String?
        var version: ModelVersionRequest? = .current
        // Fields seen so far, as bits: a set of strings per insight showed up in profiles.
        var seen: UInt8 = 0
        var unknownSeen: Set<String> = []
        let before = violations.count
        try Wire.readObject(&reader, at: pointer(), violations: &violations) { key, reader, violations in
            let bit: UInt8 = switch key {
            case "insightType": 1
            case "schema": 2
            case "modelVersion": 4
            default: 0
            }
            guard bit != 0, seen & bit == 0 else {
                if bit == 0 {
                    Wire.recordUnknown(Wire.pointer(pointer(), key), name: key, unknownSeen: &unknownSeen, in: &violations)
                } else {
                    Wire.recordDuplicate(Wire.pointer(pointer(), key), in: &violations)
                }
                try reader.skipValue()
                return
            }
            seen |= bit
            switch bit {
            case 1: insightType = try Wire.readString(&reader, at: Wire.pointer(pointer(), key), maximumLength: 64, violations: &violations)
            case 2: schema = try Wire.readString(&reader, at: Wire.pointer(pointer(), key), maximumLength: 64, violations: &violations)
            default: version = try decodeModelVersion(&reader, pointer: { Wire.pointer(pointer(), key) }, violations: &violations)
            }
        }
        if seen & 1 == 0 { violations.append(Wire.missing(pointer() + "/insightType")) }
        if seen & 2 == 0 { violations.append(Wire.missing(pointer() + "/schema")) }
        guard violations.count == before, let insightType, let schema, let version else { return nil }
        return InsightRequest(insightType: insightType, schema: schema, modelVersion: version)
    }

    /// `"current"` or `{"specific": "2026.09.1"}`; `null` is the member left out (`current`), as for every optional
    /// member of the request (a client that writes its absent optionals as `null` is not refused for it).
    private static func decodeModelVersion(_ reader: inout JSONReader, pointer: () -> String, violations: inout [ContextViolation]) throws -> ModelVersionRequest? {
        switch try reader.peekKind() {
        case .null:
            try reader.readNull()
            return .current
        case .string:
            let text = try Wire.readText(&reader, at: pointer(), violations: &violations)
            guard text == "current" else {
                violations.append(Wire.invalidValue(pointer(), "must be \"current\" or {\"specific\": \"<version>\"}"))
                return nil
            }
            return .current
        case .object:
            // Besides `{"specific": "<version>"}`, the forms Swift's synthesized Codable gives the public API's enum
            // (`current`, `specific(versionNumber:)`): `{"current": {}}` and `{"specific": {"versionNumber": "..."}}`,
            // which a client encoding that enum sends (names probe, 6 December).
            var member: String?
            var result: ModelVersionRequest?
            var unknownSeen: Set<String> = []
            try Wire.readObject(&reader, at: pointer(), violations: &violations) { key, reader, violations in
                let fieldPointer = Wire.pointer(pointer(), key)
                guard key == "specific" || key == "current" else {
                    Wire.recordUnknown(fieldPointer, name: key, unknownSeen: &unknownSeen, in: &violations)
                    try reader.skipValue()
                    return
                }
                guard member == nil else {
                    if key == member {
                        Wire.recordDuplicate(fieldPointer, in: &violations)
                    } else {
                        violations.append(Wire.invalidValue(fieldPointer, "send one of current or specific, not both"))
                    }
                    result = nil
                    try reader.skipValue()
                    return
                }
                member = key
                result = key == "specific"
                    ? try decodeSpecificVersion(&reader, pointer: fieldPointer, violations: &violations).map { .specific($0) }
                    : try decodeEmptyObject(&reader, pointer: fieldPointer, violations: &violations) ? .current : nil
            }
            if member == nil { violations.append(Wire.missing(pointer() + "/specific")) }
            return result
        default:
            let kind = try reader.peekKind()
            violations.append(Wire.wrongType(pointer(), expected: "\"current\" or {\"specific\": \"<version>\"}", received: kind))
            try reader.skipValue()
            return nil
        }
    }

    /// A `specific` version: `"2026.09.1"`, or `{"versionNumber": "2026.09.1"}` as Swift's Codable writes
    /// `specific(versionNumber:)`.
    private static func decodeSpecificVersion(_ reader: inout JSONReader, pointer: String, violations: inout [ContextViolation]) throws -> String? {
        switch try reader.peekKind() {
        case .string:
            return try Wire.readString(&reader, at: pointer, maximumLength: 64, violations: &violations)
        case .object:
            var version: String?
            var sawVersion = false
            var unknownSeen: Set<String> = []
            try Wire.readObject(&reader, at: pointer, violations: &violations) { key, reader, violations in
                let fieldPointer = Wire.pointer(pointer, key)
                if key == "versionNumber", !sawVersion {
                    sawVersion = true
                    version = try Wire.readString(&reader, at: fieldPointer, maximumLength: 64, violations: &violations)
                } else {
                    if key == "versionNumber" {
                        Wire.recordDuplicate(fieldPointer, in: &violations)
                        version = nil
                    } else {
                        Wire.recordUnknown(fieldPointer, name: key, unknownSeen: &unknownSeen, in: &violations)
                    }
                    try reader.skipValue()
                }
            }
            if !sawVersion { violations.append(Wire.missing(pointer + "/versionNumber")) }
            return version
        default:
            let kind = try reader.peekKind()
            violations.append(Wire.wrongType(pointer, expected: "a version string or {\"versionNumber\": \"<version>\"}", received: kind))
            try reader.skipValue()
            return nil
        }
    }

    /// `{}`, the payload Swift's Codable writes for a case without associated values (`{"current": {}}`).
    private static func decodeEmptyObject(_ reader: inout JSONReader, pointer: String, violations: inout [ContextViolation]) throws -> Bool {
        guard try reader.peekKind() == .object else {
            let kind = try reader.peekKind()
            violations.append(Wire.wrongType(pointer, expected: "an empty object", received: kind))
            try reader.skipValue()
            return false
        }
        var empty = true
        var unknownSeen: Set<String> = []
        try Wire.readObject(&reader, at: pointer, violations: &violations) { key, reader, violations in
            empty = false
            Wire.recordUnknown(Wire.pointer(pointer, key), name: key, unknownSeen: &unknownSeen, in: &violations)
            try reader.skipValue()
        }
        return empty
    }

    /// Nil when `subject` is not an object.
    private static func decodeSubject(_ reader: inout JSONReader, pointer: String, violations: inout [ContextViolation]) throws -> SubjectReferences? {
        var subject = SubjectReferences()
        let kind = try reader.peekKind()
        guard kind == .object else {
            violations.append(Wire.wrongType(pointer, expected: "an object", received: kind))
            try reader.skipValue()
            return nil
        }
        var seen: UInt8 = 0
        var unknownSeen: Set<String> = []
        try Wire.readObject(&reader, at: pointer, violations: &violations) { key, reader, violations in
            guard let kind = SubjectRefKind(rawValue: key) else {
                Wire.recordUnknown(Wire.pointer(pointer, key), name: key, unknownSeen: &unknownSeen, in: &violations)
                try reader.skipValue()
                return
            }
            let bit: UInt8 = switch kind {
            case .accountRef: 1
            case .deviceRef: 2
            case .counterpartyRef: 4
            }
            guard seen & bit == 0 else {
                Wire.recordDuplicate(Wire.pointer(pointer, key), in: &violations)
                try reader.skipValue()
                return
            }
            seen |= bit
            if try reader.peekKind() == .null {
                try reader.readNull()
                return
            }
            let value = try Wire.readString(&reader, at: Wire.pointer(pointer, key), maximumLength: maximumRefLength, violations: &violations)
            switch kind {
            case .accountRef: subject.accountRef = value
            case .deviceRef: subject.deviceRef = value
            case .counterpartyRef: subject.counterpartyRef = value
            }
        }
        return subject
    }

    private static func decodeFeatures(_ reader: inout JSONReader, pointer: String, violations: inout [ContextViolation]) throws -> [(name: String, value: FeatureInput)]? {
        let kind = try reader.peekKind()
        guard kind == .object else {
            violations.append(Wire.wrongType(pointer, expected: "an object of feature names to values", received: kind))
            try reader.skipValue()
            return nil
        }
        var features: [(name: String, value: FeatureInput)] = []
        features.reserveCapacity(24)
        var tooMany = false
        try Wire.readObject(&reader, at: pointer, violations: &violations) { name, reader, violations in
            if features.count >= maximumFeatures {
                tooMany = true
                try reader.skipValue()
                return
            }
            do {
                switch try reader.peekKind() {
                case .number: features.append((name, .number(try reader.readNumber())))
                case .boolean: features.append((name, .boolean(try reader.readBool())))
                case .null:
                    try reader.readNull()
                    features.append((name, .null))
                case .string:
                    _ = try reader.readString()
                    features.append((name, .wrongType("string")))
                case .array:
                    try reader.skipValue()
                    features.append((name, .wrongType("array")))
                case .object:
                    try reader.skipValue()
                    features.append((name, .wrongType("object")))
                }
            } catch let error as JSONSyntaxError where error.reason == .tooDeep || error.reason == .unpairedSurrogate {
                // The body is read no further, so the catalogue never sees these features: the value that stopped
                // the reading is named here, at its own feature's pointer, and a repeated name as a repeat, as
                // in the rest of the body. (Whether the name is in the category's catalogue is not known yet.)
                let featurePointer = Wire.pointer(pointer, name)
                if features.contains(where: { $0.name == name }) {
                    Wire.recordDuplicate(featurePointer, in: &violations)
                } else if JSONPointer.isEchoable(name) {
                    violations.append(
                        error.reason == .tooDeep
                            ? Wire.tooDeep(featurePointer, limit: maximumDepth) : Wire.unpairedSurrogate(featurePointer))
                }
                throw error
            }
        }
        if tooMany { violations.append(Wire.invalidValue(pointer, "must hold at most \(maximumFeatures) features")) }
        return features
    }
}
