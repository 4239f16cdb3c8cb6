import Foundation
import Testing
@testable import InsightCore

@Suite("Catalogue request validation")
struct CatalogueValidationTests {
    private func reasons(_ result: Result<FeatureVector, FeatureValidationFailure>) -> [String: FeatureViolationReason] {
        guard case .failure(let failure) = result else { return [:] }
        return Dictionary(failure.violations.map { ($0.pointer, $0.reason) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func acceptsValidFeaturesInCatalogueOrder() throws {
        let catalogue = try CatalogueTestSupport.sample()
        let vector = try catalogue.validate([
            ("timeOfDayBand", .number(3)), ("activeCall", .boolean(true)), ("hesitationMillis", .number(5400)),
            ("pasteEventsInFlow", .null),
        ]).get()
        #expect(vector.count == 5)
        #expect(vector[0] == 1)
        #expect(vector[1] == 5400)
        #expect(vector[2].isNaN)
        #expect(vector[3] == 3)
        #expect(vector[4].isNaN)
        #expect(vector.value(named: "hesitationMillis") == 5400)
        #expect(vector.value(named: "pasteEventsInFlow") == nil)
    }

    @Test func flagsAcceptBooleansAndZeroOrOne() throws {
        let catalogue = try CatalogueTestSupport.sample()
        for (input, expected) in [(FeatureInput.boolean(false), 0.0), (.number(1), 1), (.number(0), 0)] {
            let vector = try catalogue.validate([("activeCall", input), ("timeOfDayBand", .number(0))]).get()
            #expect(vector[0] == expected)
        }
        let two = reasons(catalogue.validate([("activeCall", .number(2)), ("timeOfDayBand", .number(0))]))
        #expect(two["/features/activeCall"] == .outOfRange(minimum: 0, maximum: 1, unit: "boolean"))
        #expect(two["/features/activeCall"]?.message == "must be true, false, 0 or 1")
    }

    @Test func reportsEveryReasonAtOnce() throws {
        let catalogue = try CatalogueTestSupport.sample()
        let result = catalogue.validate([
            ("activeCall", .wrongType("string")),
            ("hesitationMillis", .number(700_000)),
            ("pasteEventsInFlow", .number(2.5)),
            ("timeOfDayBand", .number(2)),
            ("evaluationsPerAccount10m", .number(3)),
            ("nope", .number(1)),
        ])
        let found = reasons(result)
        #expect(found["/features/activeCall"] == .wrongType(expected: .flag, received: "string"))
        #expect(found["/features/hesitationMillis"] == .outOfRange(minimum: 0, maximum: 600_000, unit: "milliseconds"))
        #expect(found["/features/pasteEventsInFlow"] == .notAnInteger(expected: .count, minimum: 0, maximum: 200))
        #expect(found["/features/pasteEventsInFlow"]?.message == "must be a whole number between 0 and 200")
        #expect(found["/features/timeOfDayBand"] == .notAllowedBand(allowed: [0, 1, 3]))
        #expect(found["/features/evaluationsPerAccount10m"] == .computedByService)
        #expect(found["/features/nope"] == .unknownFeature)
        guard case .failure(let failure) = result else { Issue.record("expected failure"); return }
        #expect(failure.violations.count == 6)
    }

    /// A fraction where a flag or a band code goes says what the feature takes, not "an integer": a flag takes 0 or 1
    /// only, a band its codes (evaluation probe, 7 December).
    @Test func aFractionalFlagOrBandSaysWhatTheFeatureTakes() throws {
        let catalogue = try CatalogueTestSupport.sample()
        let found = reasons(catalogue.validate([("activeCall", .number(0.5)), ("timeOfDayBand", .number(2.5))]))
        #expect(found["/features/activeCall"]?.code == "notAnInteger")
        #expect(found["/features/activeCall"]?.message == "must be true, false, 0 or 1")
        #expect(found["/features/timeOfDayBand"]?.code == "notAnInteger")
        #expect(found["/features/timeOfDayBand"]?.message == "must be one of the band codes 0, 1, 3")
    }

    /// One violation a name: a name sent twice, in the catalogue or not, is a duplicate, whatever its first copy was
    /// found to be (out of range, unknown), and a third copy adds nothing; a name that may not be echoed is named
    /// by its object, once as repeated, beside other such names sent once.
    @Test func aRepeatedUnknownNameIsADuplicateNotASecondUnknown() throws {
        let catalogue = try CatalogueTestSupport.sample()
        let result = catalogue.validate([
            ("activeCall", .number(1)), ("timeOfDayBand", .number(1)), ("zz", .number(1)), ("zz", .number(2)),
            ("hesitationMillis", .number(700_000)), ("hesitationMillis", .number(1)), ("hesitationMillis", .number(2)),
            ("Jane Doe", .number(1)), ("John Doe", .number(1)), ("Jane Doe", .number(2)), ("zz", .number(3)),
            ("Jane Doe", .number(3)),
        ])
        guard case .failure(let failure) = result else { Issue.record("expected failure"); return }
        #expect(failure.violations == [
            FeatureViolation(pointer: "/features/zz", reason: .duplicateFeature),
            FeatureViolation(pointer: "/features/hesitationMillis", reason: .duplicateFeature),
            FeatureViolation(pointer: "/features", reason: .duplicateUnnamedFeature),
            FeatureViolation(pointer: "/features", reason: .unknownUnnamedFeature),
        ])
        #expect(FeatureViolationReason.duplicateUnnamedFeature.code == "duplicateFeature")
    }

    @Test func reportsNonFiniteAndMissingRequired() throws {
        let catalogue = try CatalogueTestSupport.sample()
        let found = reasons(catalogue.validate([("hesitationMillis", .number(.infinity)), ("activeCall", .null)]))
        #expect(found["/features/hesitationMillis"] == .notFinite)
        #expect(found["/features/activeCall"] == .missingRequired)
        #expect(found["/features/timeOfDayBand"] == .missingRequired)
        let nan = reasons(catalogue.validate([("activeCall", .number(.nan)), ("timeOfDayBand", .number(1))]))
        #expect(nan["/features/activeCall"] == .notFinite)
    }

    @Test func wrongTypesForNumbersAndBands() throws {
        let catalogue = try CatalogueTestSupport.sample()
        let found = reasons(catalogue.validate([
            ("activeCall", .boolean(true)), ("hesitationMillis", .boolean(true)), ("timeOfDayBand", .wrongType("object")),
            ("pasteEventsInFlow", .wrongType("array")),
        ]))
        #expect(found["/features/hesitationMillis"] == .wrongType(expected: .number, received: "boolean"))
        #expect(found["/features/timeOfDayBand"] == .wrongType(expected: .band, received: "object"))
        #expect(found["/features/pasteEventsInFlow"] == .wrongType(expected: .count, received: "array"))
    }

    @Test func messagesNeverEchoTheValue() throws {
        let catalogue = try CatalogueTestSupport.shippedCatalogue()[.payment]
        let canaries = [987654.321, 123456789.987, -4242.4242, 31337.5]
        var inputs: [(name: String, value: FeatureInput)] = []
        for feature in catalogue.features {
            inputs.append((feature.name, .number(canaries[inputs.count % canaries.count])))
        }
        inputs.append(("unknownCanary", .number(987654.321)))
        guard case .failure(let failure) = catalogue.validate(inputs) else { Issue.record("expected failure"); return }
        #expect(failure.violations.count >= catalogue.features.count - 4)
        let texts = failure.violations.map(\.message) + [failure.description, "\(failure)", String(reflecting: failure)]
        for text in texts {
            for canary in canaries {
                for rendering in [canary.description, String(Int(canary)), String(format: "%.2f", canary)] {
                    #expect(!text.contains(rendering), "a message contains the value: \(text)")
                }
            }
        }
    }

    @Test func pointerEscapesTildeAndSlash() throws {
        let catalogue = try CatalogueTestSupport.sample()
        let found = reasons(catalogue.validate([("a/b~c", .number(1)), ("activeCall", .number(1)), ("timeOfDayBand", .number(1))]))
        #expect(found["/features/a~1b~0c"] == .unknownFeature)
        #expect(JSONPointer.escape("~1") == "~01")
        #expect(JSONPointer.pointer(["features", "x/y"]) == "/features/x~1y")
    }

    @Test func violationMessagesStateTheAllowedRange() {
        let violation = FeatureViolation(
            pointer: "/features/hesitationMillis", reason: .outOfRange(minimum: 0, maximum: 600_000, unit: "milliseconds"))
        #expect(violation.message == "/features/hesitationMillis: must be between 0 and 600000 milliseconds")
        #expect(FeatureViolationReason.outOfRange(minimum: 0, maximum: 1, unit: "ratio").message == "must be between 0 and 1 (a ratio)")
        #expect(FeatureViolationReason.outOfRange(minimum: 0, maximum: 50, unit: "count").message == "must be between 0 and 50")
        #expect(FeatureViolationReason.notAllowedBand(allowed: [0, 1]).code == "notAllowedBand")
    }

    /// A name is repeated in an error only when it looks like a field name: a card or phone number, or a dotted
    /// name, used as a member's name was echoed and kept with an idempotent answer (JSON probe, 6 December).
    @Test func onlyNamesShapedLikeFieldsAreRepeated() {
        for name in ["amountBand", "typing_cadence2", "x-y", "a/b", "a~b", "utf8Field", "v2024", "a1234b5678", "f12-a34", String(repeating: "a", count: 64)] {
            #expect(JSONPointer.isEchoable(name), "\(name)")
        }
        for name in ["4111111111119999", "card4111111111111111", "+15551234567", "555123456", "12345", "jane.doe",
                     "4111-1111-1111-1111", "555_123_4567", "4111~1111", "12-345", "jane@example.com",
                     "Jane Doe", "", String(repeating: "a", count: 65), "é"] where !name.isEmpty {
            #expect(!JSONPointer.isEchoable(name), "\(name)")
        }
    }

    /// A key's secret sent as a member or parameter name is not repeated, by the rule header names follow; the
    /// longest camelCase names are (security probe, 7 December).
    @Test func aNameLikeAnAPIKeyIsNotRepeated() {
        let randomPart = "Qx7vB2kLp9ZrT4mWc8NdYh3FsJ6gUa1eRt5Ko0iXwVb"
        #expect(randomPart.utf8.count == 43)
        // Any 32 of its characters too (a piece of 39 was repeated; final regression probe, 7 December).
        for name in [randomPart, "Ti_Sandbox_x", "ti_production_k", "x-" + randomPart, String(randomPart.dropLast(3)),
                     String(randomPart.dropFirst(4)), String(randomPart.prefix(32)), String(randomPart.suffix(32))] {
            #expect(!JSONPointer.isEchoable(name), "\(name)")
        }
        // camelCase field names of any length are repeated; a random part in one letter case is too, as for X-Request-ID.
        for name in ["communicationAppSwitchesDuringFlow", "distinctAccountsPerCounterparty1h", "distinctAccountsPerCounterparty100h",
                     "thisIsAVeryLongCamelCaseFieldNameOfFortyTwo", randomPart.lowercased(), "ti_staging_x"] {
            #expect(JSONPointer.isEchoable(name), "\(name)")
        }
    }
}
