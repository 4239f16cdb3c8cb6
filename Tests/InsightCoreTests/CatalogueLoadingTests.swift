import Foundation
import Testing
@testable import InsightCore

@Suite("Catalogue loading")
struct CatalogueLoadingTests {
    @Test func loadsShippedCatalogueForEveryCategory() throws {
        let catalogue = try CatalogueTestSupport.shippedCatalogue()
        for category in OperationCategory.allCases {
            let entry = catalogue[category]
            #expect(entry.category == category)
            #expect((10...16).contains(entry.clientFeatures.count), "\(category) has \(entry.clientFeatures.count) client features")
            #expect(entry.computedFeatures.map(\.name) == [
                "evaluationsPerAccount10m", "evaluationsPerAccount1h", "evaluationsPerAccount24h",
                "distinctDevicesPerAccount24h", "distinctAccountsPerCounterparty1h", "highOutcomesPerAccount7d",
            ])
            #expect(entry.computedFeatures.allSatisfy { $0.type == .count })
            #expect(entry.requiredSubjectRefs.contains(.accountRef))
        }
        #expect(catalogue[.payment].requiredSubjectRefs == [.accountRef, .deviceRef, .counterpartyRef])
        #expect(catalogue[.account].requiredSubjectRefs == [.accountRef, .deviceRef])
    }

    @Test func shippedCatalogueNamesNoIdentifiersOrContent() throws {
        let catalogue = try CatalogueTestSupport.shippedCatalogue()
        let forbidden = ["email", "phonenumber", "name", "iban", "address", "text", "message", "ref", "id"]
        for category in OperationCategory.allCases {
            for feature in catalogue[category].features {
                let lower = feature.name.lowercased()
                for word in forbidden where lower.hasSuffix(word) || lower.hasPrefix(word) {
                    Issue.record("\(category).\(feature.name) looks like an identifier or content field")
                }
            }
        }
    }

    @Test func bandFeaturesTakeTheirRangeFromTheCodes() throws {
        let payment = try CatalogueTestSupport.shippedCatalogue()[.payment]
        let band = try #require(payment.definition(named: "amountBandRelativeToUsual"))
        #expect(band.type == .band)
        #expect(band.bands.map(\.code) == [0, 1, 2, 3, 4])
        #expect(band.minimum == 0 && band.maximum == 4)
    }

    @Test func missingFileIsNamed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: CatalogueError.missingFile(file: directory + "/payment.json")) {
            try FeatureCatalogue.load(from: directory)
        }
    }

    /// A file that cannot be read says why, and one past 16 MiB is refused by its size, not read (configuration
    /// probe, 7 December: "cannot be read" without a reason, "no such file" for a features path that is a file).
    @Test func aFileThatCannotBeReadSaysWhy() throws {
        let directory = try CatalogueTestSupport.directory(replacing: [:])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func refusal() -> String {
            do {
                _ = try FeatureCatalogue.load(from: directory)
                return "loaded"
            } catch {
                return "\(error)"
            }
        }
        let payment = directory + "/payment.json"
        let kept = try Data(contentsOf: URL(fileURLWithPath: payment))
        try FileManager.default.removeItem(atPath: payment)
        try FileManager.default.createDirectory(atPath: payment, withIntermediateDirectories: false)
        #expect(refusal() == "\(payment): cannot be read: it is a folder, not a file")
        try FileManager.default.removeItem(atPath: payment)
        FileManager.default.createFile(atPath: payment, contents: kept)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: payment))
        try handle.truncate(atOffset: UInt64(FeatureCatalogue.maximumFileBytes + 1))
        try handle.close()
        #expect(refusal() == "\(payment): cannot be read: larger than 16 MiB, more than a file of this kind holds")
        let file = directory + "/plain-file"
        FileManager.default.createFile(atPath: file, contents: Data())
        #expect(throws: CatalogueError.unreadableFile(file: file + "/payment.json", reason: "not a directory")) {
            try FeatureCatalogue.load(from: file)
        }
    }

    @Test func malformedJSONNamesTheFile() throws {
        let directory = try CatalogueTestSupport.directory(replacing: [.account: "{\"schemaVersion\": 1,"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            _ = try FeatureCatalogue.load(from: directory)
            Issue.record("expected an error")
        } catch {
            guard case .malformedJSON(let file, _, let detail) = error else { Issue.record("unexpected \(error)"); return }
            #expect(file.hasSuffix("/account.json"))
            // Placed by its byte, as the other configuration files' syntax errors are.
            #expect(detail.hasPrefix("not valid JSON: ") && detail.contains("byte 20"), "\(detail)")
        }
    }

    /// A mistake in the document as a whole is said after the file's name alone: the pointer "" printed as `/`,
    /// which RFC 6901 reads as the member named "".
    @Test func aWholeDocumentMistakeIsSaidWithoutAPointer() {
        do {
            _ = try FeatureCatalogue.parseCategory(.payment, data: Data("[]".utf8), file: "payment.json")
            Issue.record("expected an error")
        } catch {
            #expect("\(error)" == "payment.json: expected object, found array")
        }
        let nested = CatalogueError.malformedJSON(file: "payment.json", pointer: "/features/0", detail: "expected object")
        #expect("\(nested)" == "payment.json: /features/0: expected object")
    }

    private func problem(in feature: String, extraTopLevel: String = "") throws -> (String, CatalogueProblem)? {
        let text = CatalogueTestSupport.paymentDocument(feature: feature, extraTopLevel: extraTopLevel)
        do {
            _ = try FeatureCatalogue.parseCategory(.payment, data: Data(text.utf8), file: "payment.json")
            return nil
        } catch {
            guard case .invalid(let file, let pointer, let problem) = error else {
                if case .malformedJSON(_, let pointer, let detail) = error { return (pointer, .missingField("malformed: " + detail)) }
                return nil
            }
            #expect(file == "payment.json")
            return (pointer, problem)
        }
    }

    @Test func rejectsDuplicateNamesWithPointer() throws {
        let found = try problem(in: #"{"name": "activeCall", "type": "flag", "unit": "boolean", "required": false, "description": "d"}"#)
        #expect(found?.0 == "/features/1/name")
        #expect(found?.1 == .duplicateName("activeCall"))
    }

    @Test func rejectsMinimumAboveMaximum() throws {
        let found = try problem(in: #"{"name": "x", "type": "number", "unit": "s", "min": 5, "max": 1, "required": false, "description": "d"}"#)
        #expect(found?.0 == "/features/1/min")
        #expect(found?.1 == .minimumGreaterThanMaximum)
    }

    @Test func rejectsUnknownType() throws {
        let found = try problem(in: #"{"name": "x", "type": "string", "unit": "s", "required": false, "description": "d"}"#)
        #expect(found?.0 == "/features/1/type")
        #expect(found?.1 == .unknownType("string"))
    }

    @Test func rejectsBadBandLists() throws {
        let empty = try problem(in: #"{"name": "x", "type": "band", "unit": "band", "bands": [], "required": false, "description": "d"}"#)
        #expect(empty?.0 == "/features/1/bands")
        #expect(empty?.1 == .emptyBandList)
        let duplicate = try problem(
            in: #"{"name": "x", "type": "band", "unit": "band", "bands": [{"code": 1, "meaning": "a"}, {"code": 1, "meaning": "b"}], "required": false, "description": "d"}"#)
        #expect(duplicate?.0 == "/features/1/bands/1/code")
        #expect(duplicate?.1 == .duplicateBandCode(1))
        let nonInteger = try problem(
            in: #"{"name": "x", "type": "band", "unit": "band", "bands": [{"code": 1.5, "meaning": "a"}], "required": false, "description": "d"}"#)
        #expect(nonInteger?.0 == "/features/1/bands/0/code")
        let onNumber = try problem(
            in: #"{"name": "x", "type": "number", "unit": "s", "min": 0, "max": 1, "bands": [{"code": 1, "meaning": "a"}], "required": false, "description": "d"}"#)
        #expect(onNumber?.1 == .bandsOnNonBandFeature)
    }

    @Test func rejectsUnknownFieldsAndMissingFields() throws {
        let unknown = try problem(in: #"{"name": "x", "type": "number", "unit": "s", "min": 0, "maxx": 1, "required": false, "description": "d"}"#)
        #expect(unknown?.0 == "/features/1/maxx")
        #expect(unknown?.1 == .unknownField("maxx"))
        let missing = try problem(in: #"{"name": "x", "type": "number", "unit": "s", "min": 0, "required": false, "description": "d"}"#)
        #expect(missing?.0 == "/features/1")
        #expect(missing?.1 == .missingField("max"))
        let topLevel = try problem(in: #"{"name": "x", "type": "flag", "unit": "b", "required": false, "description": "d"}"#, extraTopLevel: #" "a/b": 1,"#)
        #expect(topLevel?.0 == "/a~1b")
    }

    /// A catalogue whose requests never carry an accountRef would give its models every computed (per-account)
    /// feature missing, silently; one naming a ref twice, or declaring more client features than a request may send,
    /// is a mistake too. Each stops start-up, named.
    @Test func rejectsSubjectsAndFeatureListsNoRequestCouldSatisfy() throws {
        func problem(subject: String, features: String) -> (String, CatalogueProblem)? {
            let text = #"{"schemaVersion": 1, "category": "payment", "version": "t", "subject": \#(subject), "features": [\#(features)]}"#
            do {
                _ = try FeatureCatalogue.parseCategory(.payment, data: Data(text.utf8), file: "payment.json")
                return nil
            } catch {
                guard case .invalid(_, let pointer, let problem) = error else { return ("other", .noFeatures) }
                return (pointer, problem)
            }
        }
        let flag = #"{"name": "activeCall", "type": "flag", "unit": "boolean", "required": true, "description": "d"}"#
        let computed = #"{"name": "evaluationsPerAccount10m", "type": "count", "unit": "count", "min": 0, "max": 1000000, "required": true, "source": "computed", "description": "d"}"#
        let noAccount = problem(subject: #"{"required": ["deviceRef"]}"#, features: flag + ", " + computed)
        #expect(noAccount?.0 == "/features/1")
        #expect(noAccount?.1 == .computedFeatureWithoutAccount("evaluationsPerAccount10m"))
        // An optional accountRef is enough: a request that carries one gets its counts.
        #expect(problem(subject: #"{"required": ["deviceRef"], "optional": ["accountRef"]}"#, features: flag + ", " + computed) == nil)
        // Without computed features, no accountRef is needed.
        #expect(problem(subject: #"{"required": ["deviceRef"]}"#, features: flag) == nil)
        let twice = problem(subject: #"{"required": ["accountRef", "accountRef"]}"#, features: flag)
        #expect(twice?.0 == "/subject/required/1")
        #expect(twice?.1 == .duplicateSubjectRef("accountRef"))
        let many = (0..<257).map { #"{"name": "f\#($0)", "type": "flag", "unit": "boolean", "required": false, "description": "d"}"# }
        let tooMany = problem(subject: #"{"required": ["accountRef"]}"#, features: many.joined(separator: ", "))
        #expect(tooMany?.0 == "/features")
        #expect(tooMany?.1 == .tooManyClientFeatures(257, limit: 256))
        #expect(problem(subject: #"{"required": ["accountRef"]}"#, features: many.dropLast().joined(separator: ", ")) == nil)
    }

    @Test func rejectsNonCamelCaseNamesAndWrongCategory() throws {
        let badName = try problem(in: #"{"name": "Caller-Id", "type": "flag", "unit": "b", "required": false, "description": "d"}"#)
        #expect(badName?.1 == .invalidName("Caller-Id"))
        let text = CatalogueTestSupport.paymentDocument(feature: #"{"name": "x", "type": "flag", "unit": "b", "required": false, "description": "d"}"#)
        #expect(throws: CatalogueError.invalid(file: "account.json", pointer: "/category", problem: .categoryMismatch(expected: .account, found: "payment"))) {
            try FeatureCatalogue.parseCategory(.account, data: Data(text.utf8), file: "account.json")
        }
    }

    /// The version goes to every client in `additionalInfo.catalogueVersion`: a name like a model version, not free text.
    @Test func rejectsAVersionThatIsNoName() throws {
        let feature = #"{"name": "x", "type": "flag", "unit": "b", "required": false, "description": "d"}"#
        let refused = [("", ""), ("not a version <script>", "not a version <script>"), (String(repeating: "1", count: 65), String(repeating: "1", count: 65)),
                       (#"2026.11.1\u0000"#, "2026.11.1\u{0}")]
        for (json, version) in refused {
            let text = CatalogueTestSupport.paymentDocument(feature: feature).replacingOccurrences(
                of: #""version": "t""#, with: #""version": "\#(json)""#)
            #expect(throws: CatalogueError.invalid(file: "payment.json", pointer: "/version", problem: .invalidVersion(version)), "\(json)") {
                try FeatureCatalogue.parseCategory(.payment, data: Data(text.utf8), file: "payment.json")
            }
        }
        for version in ["2026.11.1", "v2_beta-3", String(repeating: "1", count: 64)] {
            let text = CatalogueTestSupport.paymentDocument(feature: feature).replacingOccurrences(
                of: #""version": "t""#, with: #""version": "\#(version)""#)
            #expect(try FeatureCatalogue.parseCategory(.payment, data: Data(text.utf8), file: "payment.json").version == version)
        }
    }

    /// JSON's grammar allows 1e400; the decoder does not. The message said only "not valid JSON", of valid JSON.
    @Test func aNumberBeyondADoubleIsNamedAsSuch() throws {
        let text = CatalogueTestSupport.paymentDocument(
            feature: #"{"name": "x", "type": "number", "unit": "s", "min": 0, "max": 1e400, "required": false, "description": "d"}"#)
        let error = #expect(throws: CatalogueError.self) {
            try FeatureCatalogue.parseCategory(.payment, data: Data(text.utf8), file: "payment.json")
        }
        #expect(error.map { "\($0)" }?.contains("beyond the range of a double") == true, "\(String(describing: error))")
    }

    /// A member given twice is refused at its pointer, as in the other configuration files: the first copy won
    /// silently, and an override appended to an entry was ignored (configuration probe, 7 December).
    @Test func aMemberGivenTwiceIsRefusedAtItsPointer() throws {
        let feature = #"{"name": "x", "type": "number", "unit": "s", "min": 0, "max": 600000, "max": 1, "required": false, "description": "d"}"#
        let twiceInAFeature = CatalogueTestSupport.paymentDocument(feature: feature)
        #expect(throws: CatalogueError.malformedJSON(file: "payment.json", pointer: "/features/1/max", detail: "appears more than once")) {
            try FeatureCatalogue.parseCategory(.payment, data: Data(twiceInAFeature.utf8), file: "payment.json")
        }
        let plain = CatalogueTestSupport.paymentDocument(
            feature: #"{"name": "x", "type": "number", "unit": "s", "min": 0, "max": 1, "required": false, "description": "d"}"#)
        let twiceAtTheTop = plain.replacingOccurrences(of: #""version": "t""#, with: #""version": "t", "version": "evil""#)
        #expect(twiceAtTheTop != plain)
        #expect(throws: CatalogueError.malformedJSON(file: "payment.json", pointer: "/version", detail: "appears more than once")) {
            try FeatureCatalogue.parseCategory(.payment, data: Data(twiceAtTheTop.utf8), file: "payment.json")
        }
    }

    /// Each bound's fault is placed at its own pointer (configuration probe, 7 December: a fractional `max` was
    /// reported at `/min`).
    @Test func aBadMaximumIsReportedAtMax() throws {
        for (bounds, pointer) in [(#""min": 0, "max": 200.5"#, "/features/1/max"), (#""min": 0.5, "max": 200"#, "/features/1/min")] {
            let text = CatalogueTestSupport.paymentDocument(
                feature: #"{"name": "x", "type": "count", "unit": "count", \#(bounds), "required": false, "description": "d"}"#)
            #expect(throws: CatalogueError.invalid(file: "payment.json", pointer: pointer, problem: .invalidCountBounds)) {
                try FeatureCatalogue.parseCategory(.payment, data: Data(text.utf8), file: "payment.json")
            }
        }
    }

    @Test func errorMessageNamesFileAndPointer() throws {
        let error = CatalogueError.invalid(file: "config/features/payment.json", pointer: "/features/3/min", problem: .minimumGreaterThanMaximum)
        #expect("\(error)" == "config/features/payment.json: /features/3/min: min is greater than max")
    }
}

@Suite("Catalogue bindings")
struct CatalogueBindingTests {
    @Test func everyCategoryDeclaresEveryVelocityFeatureAsComputed() throws {
        let catalogue = try CatalogueTestSupport.shippedCatalogue()
        for category in OperationCategory.allCases {
            for velocity in VelocityFeature.allCases {
                #expect(catalogue[category].index(of: velocity) != nil, "\(category) lacks \(velocity)")
            }
        }
    }

    @Test func resolvesModelFeaturesOrNamesTheUnknownOnes() throws {
        let catalogue = try CatalogueTestSupport.sample()
        #expect(try catalogue.indices(forModelFeatures: ["timeOfDayBand", "activeCall"]) == [3, 0])
        #expect(throws: CategoryCatalogue.UnknownModelFeatures(names: ["x", "y"])) {
            try catalogue.indices(forModelFeatures: ["activeCall", "x", "y"])
        }
    }
}

@Suite("Catalogue name lookup")
struct CatalogueNameLookupTests {
    @Test func findsEveryShippedNameAndNothingElse() throws {
        let catalogue = try CatalogueTestSupport.shippedCatalogue()
        for category in OperationCategory.allCases {
            let layout = catalogue[category].layout
            for (index, name) in layout.names.enumerated() {
                #expect(layout.index(of: name) == index)
                #expect(layout.index(of: name + "x") == nil)
                #expect(layout.index(of: String(name.dropLast())) == nil)
            }
            #expect(layout.index(of: "") == nil)
        }
    }

    @Test func bandCodesOutsideTheFastMaskStillValidate() throws {
        let catalogue = try CategoryCatalogue(
            category: .other, version: "t", requiredSubjectRefs: [.accountRef],
            features: [.band("wide", bands: [FeatureBand(code: -1, meaning: "a"), FeatureBand(code: 100, meaning: "b"), FeatureBand(code: 3, meaning: "c")], required: true, description: "d")])
        for code in [-1.0, 100, 3] {
            #expect((try? catalogue.validate([("wide", .number(code))]).get()) != nil)
        }
        guard case .failure(let failure) = catalogue.validate([("wide", .number(64))]) else { Issue.record("accepted 64"); return }
        #expect(failure.violations.first?.reason == .notAllowedBand(allowed: [-1, 100, 3]))
    }
}
