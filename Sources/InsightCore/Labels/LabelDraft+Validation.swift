/// An item that passed every check that needs no stored data.
struct ValidLabel: Sendable, Equatable {
    var insightID: String
    var content: LabelContent
    var occurredOnDay: Int64
}

extension LabelDraft {
    /// The insight ID if it has the shape the service issues; only such an ID is repeated in the answer.
    var wellFormedInsightID: String? {
        insightID.flatMap(Identifier.canonical)
    }

    /// Checks the item's values against the vocabularies and the calendar: required fields, known values, a real
    /// date no later than `today` (days since the epoch, UTC). Messages name fields and allowed values, never the
    /// value sent.
    func validated(today: Int64) -> Result<ValidLabel, LabelRejection> {
        var violations = self.violations
        var unlisted = unlistedViolations
        // The same bound as the decoder's: these checks add up to five problems to the ones it recorded.
        func add(_ violation: ContextViolation) {
            if violations.count < LabelRejection.maximumListed { violations.append(violation) } else { unlisted += 1 }
        }
        func require(_ value: String?, _ field: String, _ bit: Fields) -> String? {
            guard value == nil else { return value }
            // A field that was sent is not missing: its problem is listed, or counted past the bound.
            guard !sentFields.contains(bit) else { return nil }
            let fieldPointer = pointer + "/" + field
            // Nothing is "required" inside an item that is not an object; its own violation says so.
            if !violations.contains(where: { $0.pointer == fieldPointer || ($0.pointer == pointer && $0.code == "wrongType") }) {
                add(ContextViolation(pointer: fieldPointer, code: "missingRequired", detail: "is required"))
            }
            return nil
        }
        func invalid(_ field: String, _ detail: String) {
            add(ContextViolation(pointer: pointer + "/" + field, code: "invalidValue", detail: detail))
        }
        var insightID: String?
        if let text = require(self.insightID, "insightID", .insightID) {
            insightID = Identifier.canonical(text)
            if insightID == nil { invalid("insightID", "must be an insightID from an evaluation") }
        }
        var verdict: LabelVerdict?
        if let text = require(label, "label", .label) {
            verdict = LabelVerdict(rawValue: text)
            if verdict == nil { invalid("label", "must be one of \(LabelVerdict.allCases.map(\.rawValue).joined(separator: ", "))") }
        }
        var fraudType: FraudType?
        if let text = require(self.fraudType, "fraudType", .fraudType) {
            fraudType = FraudType(rawValue: text)
            if fraudType == nil { invalid("fraudType", "must be one of \(FraudType.allCases.map(\.rawValue).joined(separator: ", "))") }
        }
        var day: Int64?
        if let text = require(occurredOn, "occurredOn", .occurredOn) {
            day = Timestamp.days(fromDate: text, before1970: true)
            if let known = day, known > today {
                invalid("occurredOn", "is in the future")
                day = nil
            } else if day == nil {
                invalid("occurredOn", "must be a date as YYYY-MM-DD")
            }
        }
        var band: AmountBand?
        if let text = amountBand {
            band = AmountBand(rawValue: text)
            if band == nil { invalid("amountBand", "must be one of \(AmountBand.allCases.map(\.rawValue).joined(separator: ", "))") }
        }
        guard violations.isEmpty, unlisted == 0, let insightID, let verdict, let fraudType, let day, let occurredOn else {
            return .failure(LabelRejection(violations, unlisted: unlisted))
        }
        return .success(ValidLabel(
            insightID: insightID, content: LabelContent(verdict: verdict, fraudType: fraudType, occurredOn: occurredOn, amountBand: band),
            occurredOnDay: day))
    }
}
