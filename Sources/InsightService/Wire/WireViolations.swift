import InsightCore
import JSONStream

/// Helpers shared by the hand-written request decoders: JSON Pointer escaping, kind names, and violations that
/// describe what was expected, never what was sent.
enum Wire {
    /// RFC 6901: '~' becomes '~0' and '/' becomes '~1'.
    static func pointer(_ parent: String, _ key: String) -> String {
        // Every well-formed request builds one pointer per member: skip the per-character escape when there is
        // nothing to escape.
        if !key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) {
            return parent + "/" + key
        }
        var escaped = ""
        escaped.reserveCapacity(key.utf8.count)
        for character in key {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.append(character)
            }
        }
        return parent + "/" + escaped
    }

    /// `pointer` ends in the member's escaped name; a name that is not `JSONPointer.isEchoable` is not repeated,
    /// and the violation points at the object that holds it instead.
    static func unknownField(_ pointer: String) -> ContextViolation {
        if let (parent, name) = lastToken(pointer), !JSONPointer.isEchoable(name) {
            return ContextViolation(pointer: parent, code: "unknownField", detail: "holds a field that is not part of this request (\(JSONPointer.unrepeatedNameReason))", member: name)
        }
        return ContextViolation(pointer: pointer, code: "unknownField", detail: "is not a field of this request")
    }

    static func duplicateField(_ pointer: String) -> ContextViolation {
        if let (parent, name) = lastToken(pointer), !JSONPointer.isEchoable(name) {
            return ContextViolation(pointer: parent, code: "duplicateField", detail: "holds a field more than once (\(JSONPointer.unrepeatedNameReason))", member: name)
        }
        return ContextViolation(pointer: pointer, code: "duplicateField", detail: "appears more than once")
    }

    /// Records that the member at `pointer` was sent again. One violation per member: what its first copy was found
    /// to hold (unknown, mistyped, out of range, or a problem inside it) no longer says what the client meant, so
    /// the repeat takes the place of those violations, and a third copy adds nothing. A name that is not repeated
    /// points at its object, which other members' violations share: there only the violation of the same
    /// `member` is replaced (such a member is unknown, so it was skipped unread and has nothing inside it).
    static func recordDuplicate(_ pointer: String, in violations: inout [ContextViolation]) {
        let duplicate = duplicateField(pointer)
        if duplicate.pointer != pointer {
            if let first = violations.firstIndex(where: { $0.pointer == duplicate.pointer && $0.member == duplicate.member }) {
                violations[first] = duplicate
            } else {
                violations.append(duplicate)
            }
            return
        }
        let prefix = pointer + "/"
        guard let first = violations.firstIndex(where: { $0.pointer == pointer || $0.pointer.hasPrefix(prefix) }) else {
            violations.append(duplicate)
            return
        }
        violations[first] = duplicate
        var index = violations.index(after: first)
        while index < violations.endIndex {
            if violations[index].pointer == pointer || violations[index].pointer.hasPrefix(prefix) {
                violations.remove(at: index)
            } else {
                index += 1
            }
        }
    }

    /// A member of a nested object that is not a field of the request: its first copy is unknown, a repeat is a
    /// duplicate, as at the top level. `unknownSeen` is the object's own, empty (and so not allocated) until an
    /// unknown member turns up.
    static func recordUnknown(_ pointer: String, name: String, unknownSeen: inout Set<String>, in violations: inout [ContextViolation]) {
        if unknownSeen.insert(name).inserted {
            violations.append(unknownField(pointer))
        } else {
            recordDuplicate(pointer, in: &violations)
        }
    }

    /// A body read only so far (its depth limit, half a surrogate pair) is still checked to the end: text that is
    /// not JSON at all is `malformed-json` wherever it breaks, not JSON of the wrong shape.
    private static func refuseUnlessJSON(_ body: [UInt8]) throws(ServiceProblem) {
        if let error = JSONReader.firstGrammarError(in: body) { throw .malformedJSON(offset: error.offset) }
    }

    private static func lastToken(_ pointer: String) -> (parent: String, name: String)? {
        guard let slash = pointer.lastIndex(of: "/") else { return nil }
        return (String(pointer[..<slash]), String(pointer[pointer.index(after: slash)...]))
    }

    static func unpairedSurrogate(_ pointer: String) -> ContextViolation {
        ContextViolation(
            pointer: pointer, code: "invalidValue",
            detail: "holds a \\u escape of half a UTF-16 surrogate pair, which JSON's grammar allows but is not Unicode text")
    }

    static func missing(_ pointer: String) -> ContextViolation {
        ContextViolation(pointer: pointer, code: "missingRequired", detail: "is required")
    }

    static func wrongType(_ pointer: String, expected: String, received: JSONValueKind) -> ContextViolation {
        ContextViolation(pointer: pointer, code: "wrongType", detail: "expected \(expected), received \(article(received))")
    }

    static func tooDeep(_ pointer: String, limit: Int) -> ContextViolation {
        ContextViolation(pointer: pointer, code: "tooDeep", detail: "nests deeper than this request allows (\(limit) levels in all)")
    }

    static func invalidValue(_ pointer: String, _ detail: String) -> ContextViolation {
        ContextViolation(pointer: pointer, code: "invalidValue", detail: detail)
    }

    static func article(_ kind: JSONValueKind) -> String {
        switch kind {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .boolean: "a boolean"
        case .null: "null"
        }
    }

    /// Reads the string the reader is at. Half a surrogate pair stops the reading (`readObjectBody` refuses the body
    /// then), but first the violation names this field, not only the top-level member that holds it: a member with a
    /// violation inside is not named again.
    static func readText(
        _ reader: inout JSONReader, at pointer: @autoclosure () -> String, violations: inout [ContextViolation]
    ) throws -> String {
        do {
            return try reader.readString()
        } catch where error.reason == .unpairedSurrogate {
            violations.append(unpairedSurrogate(pointer()))
            throw error
        }
    }

    /// Reads an object inside the body member by member. Half a surrogate pair in a member's *name* stops the reading
    /// before any member holds it, so the violation names the object that holds the member (`/subject`,
    /// `/requestedInsights/0/modelVersion`), not only the body's top-level member; what stops the reading inside a
    /// member's value is named where it is read.
    static func readObject(
        _ reader: inout JSONReader, at pointer: @autoclosure () -> String, violations: inout [ContextViolation],
        member: (_ key: String, _ reader: inout JSONReader, _ violations: inout [ContextViolation]) throws -> Void
    ) throws {
        var inMember = false
        do {
            try reader.readObject { key, reader in
                inMember = true
                try member(key, &reader, &violations)
                inMember = false
            }
        } catch let error as JSONSyntaxError where error.reason == .unpairedSurrogate && !inMember {
            violations.append(unpairedSurrogate(pointer()))
            throw error
        }
    }

    /// Reads a string of 1 to `maximumLength` characters (Unicode code points, as JSON Schema's `maxLength` counts
    /// them); records a violation and returns nil otherwise. The pointer is built only for a violation: a valid
    /// request has no use for it.
    static func readString(
        _ reader: inout JSONReader, at pointer: @autoclosure () -> String, maximumLength: Int, violations: inout [ContextViolation]
    ) throws -> String? {
        let kind = try reader.peekKind()
        guard kind == .string else {
            violations.append(wrongType(pointer(), expected: "a string", received: kind))
            try reader.skipValue()
            return nil
        }
        let text = try readText(&reader, at: pointer(), violations: &violations)
        guard !text.isEmpty, fits(text, maximumLength) else {
            violations.append(invalidValue(pointer(), "must be 1 to \(maximumLength) characters long"))
            return nil
        }
        return text
    }
}

extension Wire {
    /// Reads one of an enumeration's values. Any other string, empty or however long, gets the same violation,
    /// "must be one of" the values: a length rule would suggest that other strings of that length might do.
    static func readEnumeration<Value: RawRepresentable & CaseIterable>(
        _ reader: inout JSONReader, at pointer: @autoclosure () -> String, violations: inout [ContextViolation]
    ) throws -> Value? where Value.RawValue == String {
        let kind = try reader.peekKind()
        guard kind == .string else {
            violations.append(wrongType(pointer(), expected: "a string", received: kind))
            try reader.skipValue()
            return nil
        }
        guard let value = Value(rawValue: try readText(&reader, at: pointer(), violations: &violations)) else {
            violations.append(invalidValue(pointer(), "must be one of \(Value.allCases.map(\.rawValue).joined(separator: ", "))"))
            return nil
        }
        return value
    }

    /// At most `maximumLength` Unicode code points. The byte count bounds it from above, so ASCII needs no count.
    static func fits(_ text: String, _ maximumLength: Int) -> Bool {
        text.utf8.count <= maximumLength || text.unicodeScalars.count <= maximumLength
    }

    /// Reads a request body that must be exactly one JSON object. Each member's first occurrence goes to `member`
    /// (which records unknown names itself); a repeated member is a `duplicateField` violation and is skipped
    /// unread; a body of another kind is `wrongShape`; broken JSON is `malformed-json`. Returns the names seen.
    /// `pointer` builds the member's JSON Pointer, for a violation only; `knownStrings` are read without allocating.
    /// How deep a request body may nest unless its route says otherwise.
    static let defaultMaximumDepth = 32

    static func readObjectBody(
        _ body: [UInt8], maximumDepth: Int = defaultMaximumDepth, knownStrings: JSONKnownStrings = .none, violations: inout [ContextViolation],
        wrongShape: ([ContextViolation]) -> ServiceProblem,
        member: (_ key: String, _ pointer: () -> String, _ reader: inout JSONReader, _ violations: inout [ContextViolation]) throws -> Void
    ) throws(ServiceProblem) -> Set<String> {
        var reader = JSONReader(body, maximumDepth: maximumDepth, knownStrings: knownStrings)
        // Sized for the largest request body's members, so it does not grow while it fills.
        var seen = Set<String>(minimumCapacity: 8)
        var found = violations
        do {
            let kind = try reader.peekKind()
            guard kind == .object else {
                // Only a body that is JSON is of the wrong shape; `[1,` or `tru` is not JSON at all. JSON that nests
                // too deep or holds half a surrogate pair is JSON all the same (RFC 8259 §8.2): read no further.
                do {
                    try reader.skipValue()
                    try reader.finish()
                } catch let error as JSONSyntaxError where error.reason == .tooDeep || error.reason == .unpairedSurrogate {
                    try refuseUnlessJSON(body)
                }
                throw wrongShape([wrongType("", expected: "an object", received: kind)])
            }
            try reader.readObject { key, reader in
                do {
                    guard seen.insert(key).inserted else {
                        recordDuplicate(Wire.pointer("", key), in: &found)
                        try reader.skipValue()
                        return
                    }
                    // A closure written in place, not kept in a variable, so its context is not allocated.
                    try member(key, { Wire.pointer("", key) }, &reader, &found)
                } catch let error as JSONSyntaxError where error.reason == .tooDeep || error.reason == .unpairedSurrogate {
                    // Valid JSON may nest deeper than a request ever needs, and its grammar allows `\ud800` alone
                    // (RFC 8259 §8.2), which no string can hold: say which member did, and stop. A member already
                    // found wrong (an unknown field, a wrong type) keeps its one violation; a name that is not
                    // repeated was such a member, and its violation names only the object that holds it.
                    let pointer = Wire.pointer("", key)
                    let alreadyFound = !JSONPointer.isEchoable(String(pointer.dropFirst()))
                        || found.contains { $0.pointer == pointer || $0.pointer.hasPrefix(pointer + "/") }
                    let violation = error.reason == .tooDeep ? tooDeep(pointer, limit: maximumDepth) : unpairedSurrogate(pointer)
                    try refuseUnlessJSON(body)
                    throw wrongShape(alreadyFound ? found : found + [violation])
                }
            }
            try reader.finish()
        } catch let problem as ServiceProblem {
            throw problem
        } catch let error as JSONSyntaxError where error.reason == .unpairedSurrogate {
            // Half a pair in a member's name, the one place outside a member it can be: the name cannot be
            // repeated, so the violation names the body, after what the members before it were found to be.
            try refuseUnlessJSON(body)
            throw wrongShape(found + [unpairedSurrogate("")])
        } catch let error as JSONSyntaxError {
            throw .malformedJSON(offset: error.offset)
        } catch {
            throw .malformedJSON(offset: 0)
        }
        violations = found
        return seen
    }
}
