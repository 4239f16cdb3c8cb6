import Foundation
import Testing
@testable import InsightModel

/// A model document is refused, naming the member, when it holds a member the format does not define: a misspelt
/// optional member would otherwise read as absent and change the scores.
@Suite struct StrictDocumentTests {
    /// The hand-written stump's JSON, edited as a dictionary by `edit`.
    func documentJSON(_ edit: (inout [String: Any]) -> Void) throws -> Data {
        var document = HandModels.document()
        document.trees[0].missingTypes = [.nan, .nan, .nan]
        let text = String(decoding: try document.jsonData(), as: UTF8.self)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        edit(&object)
        return try JSONSerialization.data(withJSONObject: object)
    }

    func shapeError(_ data: Data) -> JSONShapeError? {
        do {
            _ = try ModelDocument(jsonData: data)
            return nil
        } catch {
            return error
        }
    }

    @Test func refusesAMisspeltTreeMemberNamingItsPath() throws {
        let data = try documentJSON { object in
            var trees = object["trees"] as! [[String: Any]]
            trees[0]["missingtypes"] = trees[0].removeValue(forKey: "missingTypes")
            object["trees"] = trees
        }
        let error = try #require(shapeError(data))
        #expect(error == JSONShapeError(path: "trees[0].missingtypes", problem: .unknownKey))
        #expect(error.description.hasPrefix("trees[0].missingtypes: unknown key"))
    }

    @Test func refusesUnknownMembersAtEveryLevel() throws {
        let top = try documentJSON { $0["note"] = "hello" }
        #expect(shapeError(top) == JSONShapeError(path: "note", problem: .unknownKey))
        let nested = try documentJSON { object in
            var metadata = object["metadata"] as! [String: Any]
            var training = metadata["training"] as! [String: Any]
            training["seed"] = "1"
            metadata["training"] = training
            object["metadata"] = metadata
        }
        #expect(shapeError(nested) == JSONShapeError(path: "metadata.training.seed", problem: .unknownKey))
        let semantics = try documentJSON { $0["semantics"] = ["precision": "float32", "comparison": "lessThan", "Precision": "float64"] }
        #expect(shapeError(semantics) == JSONShapeError(path: "semantics.Precision", problem: .unknownKey))
    }

    /// `training.parameters` is the source tool's own map: any name may appear there.
    @Test func acceptsAnyNameInsideTheFreeFormParameters() throws {
        let data = try documentJSON { object in
            var metadata = object["metadata"] as! [String: Any]
            metadata["training"] = ["source": "test", "tool": "hand", "parameters": ["anything at all": "1"], "dataDescription": ""]
            object["metadata"] = metadata
        }
        #expect(try ModelDocument(jsonData: data).metadata.training.parameters == ["anything at all": "1"])
    }

    @Test func namesMissingMembersWrongTypesAndBrokenJSON() throws {
        let missing = try documentJSON { object in
            var trees = object["trees"] as! [[String: Any]]
            trees[0].removeValue(forKey: "leafValues")
            object["trees"] = trees
        }
        #expect(shapeError(missing)?.description == "trees[0].leafValues: missing")
        let wrongType = try documentJSON { $0["formatVersion"] = "1" }
        #expect(shapeError(wrongType) == JSONShapeError(path: "formatVersion", problem: .wrongType(expected: "a number")))
        #expect(shapeError(Data("{\"format\": ".utf8))?.description == "not valid JSON at byte 11: unexpected end of input")
    }

    /// JSONDecoder keeps the first of two members of one name: a second `baseMargin` placed first would change
    /// every score without a word.
    @Test func refusesAMemberNameTwiceInOneObject() throws {
        let text = String(decoding: try HandModels.document().jsonData(), as: UTF8.self)
        let doubled = text.replacingOccurrences(of: "{\"baseMargin\":", with: "{\"baseMargin\":5,\"baseMargin\":")
        #expect(doubled != text)
        let error = try #require(shapeError(Data(doubled.utf8)))
        guard case .syntax(_, let message) = error.problem else {
            Issue.record("expected a syntax error, got \(error)")
            return
        }
        #expect(message == "member name 'baseMargin' appears twice in one object")
        // A name holding a line break is written inert, so that the message stays one line.
        #expect(FeatureNameText.quoted("a\nb") == "'a\\u{A}b'")
        #expect(FeatureNameText.quoted(String(repeating: "\u{2028}", count: 100)).hasSuffix("...' (300 bytes)"))
    }

    /// Numbers JSONDecoder cannot hold were "not valid JSON" with no path; they are named where they stand.
    @Test func namesNumbersOutOfRangeOrNotWhole() throws {
        let fraction = try documentJSON { object in
            var trees = object["trees"] as! [[String: Any]]
            trees[0]["leftChildren"] = [1.5, -1, -1]
            object["trees"] = trees
        }
        #expect(shapeError(fraction)?.path == "trees[0].leftChildren[0]")
        let text = String(decoding: try HandModels.document().jsonData(), as: UTF8.self)
        #expect(text.hasPrefix("{\"baseMargin\":0,") && text.contains("\"formatVersion\":1,"))
        for (edited, path) in [
            (text.replacingOccurrences(of: "{\"baseMargin\":0,", with: "{\"baseMargin\":1e400,"), "baseMargin"),
            (text.replacingOccurrences(of: "\"formatVersion\":1,", with: "\"formatVersion\":1.5,"), "formatVersion"),
            (text.replacingOccurrences(of: "\"formatVersion\":1,", with: "\"formatVersion\":9223372036854775808,"), "formatVersion"),
            (text.replacingOccurrences(of: "{\"baseMargin\":0,", with: "{\"baseMargin\":0,\"sumDivisor\":1.5,"), "sumDivisor"),
        ] {
            let error = try #require(shapeError(Data(edited.utf8)))
            #expect(error.path == path, "\(error)")
        }
        // A whole number written as a decimal (`1.0`, as Python's json.dump writes a float, or `1e0`) is that whole
        // number, as JSONDecoder and the configuration files read it: no fraction (lifecycle probe, 6 December).
        for whole in ["1.0", "1e0", "10E-1"] {
            let edited = text.replacingOccurrences(of: "\"formatVersion\":1,", with: "\"formatVersion\":\(whole),")
            #expect(shapeError(Data(edited.utf8)) == nil, "\(whole)")
            #expect(try ModelDocument(jsonData: Data(edited.utf8)).formatVersion == 1)
        }
        let wholeChild = text.replacingOccurrences(of: "\"leftChildren\":[1,", with: "\"leftChildren\":[1.0,")
        #expect(wholeChild != text)
        #expect(try ModelDocument(jsonData: Data(wholeChild.utf8)) == ModelDocument(jsonData: Data(text.utf8)))
    }

    @Test func theDocumentsWeWriteStillRead() throws {
        var document = HandModels.document()
        document.metadata.heldOutMetrics = HeldOutMetrics(
            rows: 10, positives: 2, auc: 0.9, prAUC: 0.5, logLoss: 0.2,
            atMedium: PrecisionRecall(precision: 0.5, recall: 0.5), atHigh: PrecisionRecall(precision: 1, recall: 0.5))
        document.trees[0].covers = [10, 4, 6]
        #expect(try ModelDocument(jsonData: document.jsonData()) == document)
    }
}
