import InsightCore
import JSONStream

/// Decodes `POST /v1/labels` bodies: `{"items": [...]}` with 1 to 1000 items. The batch's own shape is checked
/// here (a wrong shape is `invalid-request` for the whole batch); each item becomes a `LabelDraft` whose shape
/// problems stay with that item, so one bad item never sinks the others. Unknown fields' values are skipped unread.
enum LabelBatchDecoder {
    static let maximumFieldLength = 64

    static func decode(_ body: [UInt8]) throws(ServiceProblem) -> [LabelDraft] {
        var violations: [ContextViolation] = []
        var drafts: [LabelDraft]?
        let seen = try Wire.readObjectBody(body, violations: &violations, wrongShape: ServiceProblem.invalidRequest) { key, pointer, reader, violations in
            guard key == "items" else {
                violations.append(Wire.unknownField(pointer()))
                try reader.skipValue()
                return
            }
            drafts = try decodeItems(&reader, violations: &violations)
        }
        if !seen.contains("items") { violations.append(Wire.missing("/items")) }
        guard violations.isEmpty, let drafts else { throw .invalidRequest(violations) }
        return drafts
    }

    private static func decodeItems(_ reader: inout JSONReader, violations: inout [ContextViolation]) throws -> [LabelDraft]? {
        let kind = try reader.peekKind()
        guard kind == .array else {
            violations.append(Wire.wrongType("/items", expected: "an array of labels", received: kind))
            try reader.skipValue()
            return nil
        }
        var drafts: [LabelDraft] = []
        drafts.reserveCapacity(64)
        var count = 0
        try reader.readArray { index, reader in
            count += 1
            guard index < LabelIntake.maximumItems else {
                try reader.skipValue()
                return
            }
            drafts.append(try decodeItem(&reader, pointer: "/items/" + String(index), batchViolations: &violations))
        }
        guard (1...LabelIntake.maximumItems).contains(count) else {
            violations.append(Wire.invalidValue("/items", "must hold 1 to \(LabelIntake.maximumItems) labels"))
            return nil
        }
        return drafts
    }

    /// As `Wire.recordDuplicate`, within the item's cap on listed reasons.
    private static func recordDuplicate(_ pointer: String, in draft: inout LabelDraft) {
        Wire.recordDuplicate(pointer, in: &draft.violations)
        if draft.violations.count > LabelRejection.maximumListed {
            draft.violations.removeLast()
            draft.unlistedViolations += 1
        }
    }

    /// `batchViolations` receives only what stops the reading of the whole batch (half a surrogate pair in a field).
    private static func decodeItem(
        _ reader: inout JSONReader, pointer: String, batchViolations: inout [ContextViolation]
    ) throws -> LabelDraft {
        var draft = LabelDraft(pointer: pointer)
        let kind = try reader.peekKind()
        guard kind == .object else {
            draft.record(Wire.wrongType(pointer, expected: "an object", received: kind))
            try reader.skipValue()
            return draft
        }
        // Fields seen so far, as bits, to catch duplicates without a set per item.
        var seen: UInt8 = 0
        // Unknown names seen so far: a repeated one is reported as repeated, as at the top level. Empty (and so not
        // allocated) unless the item holds an unknown field.
        var unknownSeen: Set<String> = []
        // The member being read, and how many of the item's violations came before it: half a surrogate pair stops
        // the whole batch, and the answer names what this member was already found to be, as the other routes do.
        var reading: (key: String, recordedBefore: Int)?
        do {
            try readMembers(&reader, pointer: pointer, draft: &draft, seen: &seen, unknownSeen: &unknownSeen,
                            reading: &reading, batchViolations: &batchViolations)
        } catch let error as JSONSyntaxError where error.reason == .unpairedSurrogate || error.reason == .tooDeep {
            // Both stop the whole batch (valid JSON all the same, RFC 8259 §8.2): the answer names the member whose
            // value did, as the other routes do, rather than only `/items`.
            let stopped = { (memberPointer: String) in
                error.reason == .tooDeep
                    ? Wire.tooDeep(memberPointer, limit: Wire.defaultMaximumDepth) : Wire.unpairedSurrogate(memberPointer)
            }
            if !batchViolations.contains(where: { $0.pointer == pointer || $0.pointer.hasPrefix(pointer + "/") }) {
                if let reading {
                    // A repeated, unknown or wrongly typed member keeps its one violation; its value is not also
                    // reported as holding half a pair or nesting too deep (JSON probe, 6 December).
                    let recorded = draft.violations.dropFirst(reading.recordedBefore)
                    batchViolations += recorded.isEmpty ? [stopped(Wire.pointer(pointer, reading.key))] : Array(recorded)
                } else {
                    // In a member's name: the name cannot be repeated back, so the item that holds it is named.
                    batchViolations.append(stopped(pointer))
                }
            }
            throw error
        }
        return draft
    }

    private static func readMembers(
        _ reader: inout JSONReader, pointer: String, draft: inout LabelDraft, seen: inout UInt8, unknownSeen: inout Set<String>,
        reading: inout (key: String, recordedBefore: Int)?, batchViolations: inout [ContextViolation]
    ) throws {
        try reader.readObject { key, reader in
            // Cleared only once the member is read: a member whose value stops the reader stays named here.
            reading = (key, draft.violations.count)
            try readMember(key, &reader, pointer: pointer, draft: &draft, seen: &seen, unknownSeen: &unknownSeen,
                           batchViolations: &batchViolations)
            reading = nil
        }
    }

    private static func readMember(
        _ key: String, _ reader: inout JSONReader, pointer: String, draft: inout LabelDraft, seen: inout UInt8,
        unknownSeen: inout Set<String>, batchViolations: inout [ContextViolation]
    ) throws {
        let bit: UInt8
        switch key {
        case "insightID": bit = 1
        case "label": bit = 2
        case "fraudType": bit = 4
        case "occurredOn": bit = 8
        case "amountBand": bit = 16
        default:
            let fieldPointer = Wire.pointer(pointer, key)
            if unknownSeen.insert(key).inserted {
                draft.record(Wire.unknownField(fieldPointer))
            } else {
                recordDuplicate(fieldPointer, in: &draft)
            }
            try reader.skipValue()
            return
        }
        // Pointers are built only for problems: this loop runs for every field of up to 1000 items.
        guard seen & bit == 0 else {
            recordDuplicate(pointer + "/" + key, in: &draft)
            // Two insightIDs name no one insight: echoing either would tell a back office matching results by
            // ID that the other was not the one refused.
            if bit == 1 { draft.insightID = nil }
            try reader.skipValue()
            return
        }
        seen |= bit
        draft.sentFields.insert(LabelDraft.Fields(rawValue: bit))
        var text: String?
        switch try reader.peekKind() {
        case .string:
            let value = try Wire.readText(&reader, at: Wire.pointer(pointer, key), violations: &batchViolations)
            // No field holds more than 64 characters, so a longer value is not kept. It becomes the empty
            // string, which no vocabulary, date or identifier accepts: the field's own check then says what
            // the field must be, as the contract states it, rather than a length rule the contract never names.
            text = Wire.fits(value, maximumFieldLength) ? value : ""
        case .null where bit == 16:
            try reader.readNull()
            return
        case let kind:
            draft.record(Wire.wrongType(pointer + "/" + key, expected: "a string", received: kind))
            try reader.skipValue()
        }
        switch bit {
        case 1: draft.insightID = text
        case 2: draft.label = text
        case 4: draft.fraudType = text
        case 8: draft.occurredOn = text
        default: draft.amountBand = text
        }
    }
}
