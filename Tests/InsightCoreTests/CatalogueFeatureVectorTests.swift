import Testing
@testable import InsightCore

@Suite("Feature vector privacy and computed features")
struct CatalogueFeatureVectorTests {
    private func vectorWithCanary() throws -> (CategoryCatalogue, FeatureVector) {
        let catalogue = try CatalogueTestSupport.sample()
        let vector = try catalogue.validate([
            ("activeCall", .number(1)), ("hesitationMillis", .number(987654.321 / 10)), ("pasteEventsInFlow", .number(77)),
            ("timeOfDayBand", .number(3)),
        ]).get()
        return (catalogue, vector)
    }

    @Test func printingAVectorNeverShowsValues() throws {
        let (_, vector) = try vectorWithCanary()
        var dumped = ""
        dump(vector, to: &dumped)
        for text in [String(describing: vector), "\(vector)", String(reflecting: vector), dumped] {
            #expect(!text.contains("98765"), "\(text)")
            #expect(!text.contains("77"), "\(text)")
            #expect(text.contains("redacted"))
        }
        #expect(Mirror(reflecting: vector).children.allSatisfy { "\($0.value)".contains("98765") == false })
    }

    @Test func serviceFillsComputedFeatures() throws {
        let (_, vector) = try vectorWithCanary()
        let filled = try vector.setting(computed: [("evaluationsPerAccount10m", 4)])
        #expect(filled.value(named: "evaluationsPerAccount10m") == 4)
        #expect(vector.value(named: "evaluationsPerAccount10m") == nil)
        #expect(throws: FeatureVector.ComputedFeatureError.notComputed("activeCall")) {
            try vector.setting(computed: [("activeCall", 1)])
        }
        #expect(throws: FeatureVector.ComputedFeatureError.invalidValue("evaluationsPerAccount10m")) {
            try vector.setting(computed: [("evaluationsPerAccount10m", 1.5)])
        }
        #expect(throws: FeatureVector.ComputedFeatureError.unknownFeature("x")) {
            try vector.setting(computed: [("x", 1)])
        }
    }

    @Test func layoutLooksUpNamesAndListsComputedIndices() throws {
        let catalogue = try CatalogueTestSupport.sample()
        #expect(catalogue.layout.index(of: "timeOfDayBand") == 3)
        #expect(catalogue.layout.index(of: "missing") == nil)
        #expect(catalogue.layout.computedIndices == [4])
        #expect(catalogue.missingSubjectRefs(in: SubjectReferences(deviceRef: "d")) == [.accountRef])
        #expect(catalogue.missingSubjectRefs(in: SubjectReferences(accountRef: "a")).isEmpty)
        let extra = SubjectReferences(accountRef: "a", deviceRef: "d", counterpartyRef: "c")
        #expect(catalogue.unusedSubjectRefs(in: extra) == [.deviceRef, .counterpartyRef])
        #expect(catalogue.unusedSubjectRefs(in: SubjectReferences(accountRef: "a")).isEmpty)
        #expect(catalogue.allows(.accountRef) && !catalogue.allows(.deviceRef))
    }
}
