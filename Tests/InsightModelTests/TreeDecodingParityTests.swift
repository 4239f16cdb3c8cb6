import Foundation
import Testing
@testable import InsightModel

/// `ModelDocument(jsonData:)` decodes from the strict parser's tree rather than through JSONDecoder. The Codable
/// definition (`init(from:)`) is the reference: for every document and every mutation of one, both must give the
/// same model or the same problem at the same path.
@Suite struct TreeDecodingParityTests {
    /// The reference: the pre-check, then JSONDecoder with the strict `init(from:)`.
    func viaJSONDecoder(_ data: Data) -> Result<ModelDocument, JSONShapeError> {
        do {
            try JSONDocumentPreCheck.check(data, wholeNumberAt: ModelDocument.holdsWholeNumber)
        } catch {
            return .failure(error)
        }
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = ModelDocument.nonFiniteStrategy.decoding
        do {
            return .success(try decoder.decode(ModelDocument.self, from: data))
        } catch let error as DecodingError {
            return .failure(JSONShapeError(error))
        } catch {
            return .failure(JSONShapeError(path: "", problem: .notJSON))
        }
    }

    func viaTree(_ data: Data) -> Result<ModelDocument, JSONShapeError> {
        do {
            return .success(try ModelDocument(jsonData: data))
        } catch {
            return .failure(error)
        }
    }

    /// Documents compare by their canonical bytes, so NaN thresholds compare equal to themselves.
    func outcome(_ result: Result<ModelDocument, JSONShapeError>) throws -> String {
        switch result {
        case .success(let document): "model " + String(decoding: try document.jsonData(), as: UTF8.self)
        case .failure(let error): "error " + error.description + " \(error)"
        }
    }

    /// Counts `value` (a JSONSerialization object) as a failure when the two decoders disagree on it; the first
    /// few are recorded whole.
    func compare(_ value: Any, failures: inout Int) throws {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
        let tree = try outcome(viaTree(data))
        let reference = try outcome(viaJSONDecoder(data))
        if tree != reference {
            failures += 1
            if failures <= 5 { Issue.record("\(String(decoding: data, as: UTF8.self))\ntree:      \(tree)\nreference: \(reference)") }
        }
    }

    /// Every optional member present, so mutations reach them all.
    func fullDocument() -> ModelDocument {
        var tree = HandModels.stump()
        tree.missingTypes = [.nan, .zero, .none]
        tree.covers = [10, 4, 6]
        var document = HandModels.document(trees: [tree, HandModels.stump()])
        document.sumDivisor = 2
        document.sigmoidScale = 0.75
        document.metadata.training.parameters = ["eta": "0.1", "max_depth": "6"]
        document.metadata.heldOutMetrics = HeldOutMetrics(
            rows: 100, positives: 7, auc: 0.9, prAUC: 0.5, logLoss: 0.2,
            atMedium: PrecisionRecall(precision: 0.5, recall: 0.8), atHigh: PrecisionRecall(precision: 0.8, recall: 0.4))
        return document
    }

    /// The smallest shipped model: the service's start-ups load the others through the tree every time.
    @Test func aShippedModelDecodesToTheSameDocument() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../models/payment-2026.09.1.json")
        let data = try Data(contentsOf: file.standardized)
        let tree = try outcome(viaTree(data))
        #expect(tree.hasPrefix("model "))
        #expect(tree == (try outcome(viaJSONDecoder(data))))
    }

    /// Each member and array item of the full document in turn is removed, made null, or replaced by a value of
    /// every JSON type (the words for non-finite numbers and an unknown enumeration value among them), and each
    /// object gets an unknown member.
    @Test func everyMutationOfEveryMemberIsNamedAsJSONDecoderNamesIt() throws {
        let base = try JSONSerialization.jsonObject(with: try fullDocument().jsonData())
        let replacements: [Any] = [
            NSNull(), "x", "inf", "-inf", "nan", "float64", "lessThanOrEqual", "zero", 1.5, 3, -1, 0, true, false,
            [Any](), [1], ["a"], [String: Any](), ["precision": 0.5],
        ]
        var mutations: [Any] = []
        for path in Self.paths(in: base) {
            mutations.append(Self.replacing(at: path, in: base, with: nil))
            for replacement in replacements { mutations.append(Self.replacing(at: path, in: base, with: replacement)) }
        }
        for path in Self.paths(in: base) + [[]] where Self.value(at: path, in: base) is [String: Any] {
            mutations.append(Self.replacing(at: path + ["zzUnknown"], in: base, with: 1))
            mutations.append(Self.replacing(at: path + ["Aunknown"], in: base, with: "1"))
        }
        var failures = 0
        for mutation in mutations {
            try compare(mutation, failures: &failures)
        }
        #expect(mutations.count > 500)
        #expect(failures == 0)
    }

    /// Two mutations at once, so the order in which problems are reported is compared too.
    @Test func theFirstOfTwoProblemsIsTheSameOne() throws {
        let base = try JSONSerialization.jsonObject(with: try fullDocument().jsonData())
        let objects = (Self.paths(in: base) + [[]]).filter { Self.value(at: $0, in: base) is [String: Any] }
        let paths = Self.paths(in: base) + objects.map { $0 + ["zzUnknown"] } + objects.map { $0 + ["Aunknown"] }
        var generator = SplitMix64(state: 0x7265_6164)
        let replacements: [Any?] = [nil, NSNull(), "x", 1.5, true, [Any](), [String: Any]()]
        var failures = 0
        for _ in 0..<1_500 {
            var mutated = base
            var inParameters = 0
            for _ in 0..<2 {
                let path = paths[Int(generator.next() % UInt64(paths.count))]
                mutated = Self.replacing(at: path, in: mutated, with: replacements[Int(generator.next() % UInt64(replacements.count))])
                if path.count == 4, path.starts(with: ["metadata", "training", "parameters"] as [AnyHashable]) { inParameters += 1 }
            }
            // Two bad values in the free-form map: JSONDecoder reports whichever its dictionary yields first, which
            // changes from run to run; the tree reader reports the first by name.
            if inParameters == 2 { continue }
            try compare(mutated, failures: &failures)
        }
        #expect(failures == 0)
    }

    /// Numbers out of range or not whole, alone and beside a shape problem: the number is named first, wherever
    /// it is, as the pre-check names it before JSONDecoder runs.
    @Test func numbersOutOfRangeAreNamedBeforeShapeProblems() throws {
        let text = String(decoding: try fullDocument().jsonData(), as: UTF8.self)
        let numbers = try Regex(#"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?"#)
        let ranges = text.ranges(of: numbers).filter { text[..<$0.lowerBound].last == ":" || text[..<$0.lowerBound].last == "," || text[..<$0.lowerBound].last == "[" }
        #expect(ranges.count > 30)
        var compared = 0
        for range in ranges {
            for replacement in ["1e400", "-1e400", "2.5", "1e2", "99999999999999999999", "-0", "4.9E-324"] {
                var mutated = text
                mutated.replaceSubrange(range, with: replacement)
                for shape in ["", #"{"zz":1,"#, #"{"formatVersion":"1","#] {
                    var document = mutated
                    if !shape.isEmpty { document = shape + document.dropFirst().replacingOccurrences(of: #""formatVersion":1,"#, with: "") }
                    let data = Data(document.utf8)
                    let tree = try outcome(viaTree(data))
                    let reference = try outcome(viaJSONDecoder(data))
                    #expect(tree == reference, "\(document)")
                    compared += 1
                }
            }
        }
        #expect(compared > 600)
    }

    /// The one place the two differ, on purpose: a number too small for a double is zero, as strtod and Python
    /// read it; JSONDecoder called the whole file "not valid JSON", naming nothing.
    @Test func aNumberTooSmallForADoubleReadsAsZero() throws {
        let text = String(decoding: try fullDocument().jsonData(), as: UTF8.self)
        let data = Data(text.replacingOccurrences(of: #""baseMargin":0"#, with: #""baseMargin":-1e-400"#).utf8)
        #expect(try ModelDocument(jsonData: data).baseMargin == 0)
        #expect(try outcome(viaJSONDecoder(data)) == "error not valid JSON not valid JSON")
    }

    /// A byte order mark is skipped, as JSONDecoder skips it; a syntax error's offset counts from after it.
    @Test func aByteOrderMarkIsSkipped() throws {
        let data = Data([0xEF, 0xBB, 0xBF]) + (try fullDocument().jsonData())
        let tree = try outcome(viaTree(data))
        #expect(tree.hasPrefix("model "))
        #expect(tree == (try outcome(viaJSONDecoder(data))))
        let broken = Data([0xEF, 0xBB, 0xBF]) + Data("{\"format\": ".utf8)
        #expect(throws: JSONShapeError(path: "", problem: .syntax(offset: 11, message: "unexpected end of input"))) {
            try ModelDocument(jsonData: broken)
        }
        #expect(throws: JSONShapeError(path: "", problem: .syntax(offset: 0, message: "unexpected end of input"))) {
            try ModelDocument(jsonData: Data([0xEF, 0xBB, 0xBF]))
        }
    }

    /// Random finite doubles and whole numbers written as text both ways read back to the same values.
    @Test func numbersReadAsJSONDecoderReadsThem() throws {
        var generator = SplitMix64(state: 42)
        var document = fullDocument()
        var thresholds: [Double] = []
        for _ in 0..<3_000 {
            let bits = generator.next()
            let value = Double(bitPattern: bits)
            thresholds.append(value.isFinite ? value : Double(Int64(bitPattern: bits)) * 1e-300)
        }
        let count = thresholds.count
        document.trees[0] = ModelTree(
            leftChildren: Array(repeating: -1, count: count), rightChildren: Array(repeating: -1, count: count),
            splitFeatures: (0..<count).map { $0 % 7 - 3 }, thresholds: thresholds,
            defaultLeft: Array(repeating: true, count: count), leafValues: thresholds.map { $0 / 3 })
        var text = String(decoding: try document.jsonData(), as: UTF8.self)
        // Other spellings of numbers JSON allows: exponents, a capital E, a plus sign.
        text = text.replacingOccurrences(of: "e-", with: "E-").replacingOccurrences(of: "e+", with: "e")
        let data = Data(text.utf8)
        let tree = try outcome(viaTree(data))
        #expect(tree.hasPrefix("model "))
        #expect(tree == (try outcome(viaJSONDecoder(data))))
    }

    // MARK: - Editing JSONSerialization values by path

    static func paths(in value: Any, prefix: [AnyHashable] = []) -> [[AnyHashable]] {
        var found: [[AnyHashable]] = []
        if let object = value as? [String: Any] {
            for (name, member) in object.sorted(by: { $0.key < $1.key }) {
                found.append(prefix + [name])
                found += paths(in: member, prefix: prefix + [name])
            }
        } else if let items = value as? [Any] {
            for (position, item) in items.enumerated() {
                found.append(prefix + [position])
                found += paths(in: item, prefix: prefix + [position])
            }
        }
        return found
    }

    static func value(at path: [AnyHashable], in root: Any) -> Any? {
        var current: Any? = root
        for step in path {
            if let name = step as? String { current = (current as? [String: Any])?[name] }
            else if let position = step as? Int, let items = current as? [Any], items.indices.contains(position) { current = items[position] }
            else { return nil }
        }
        return current
    }

    /// `root` with the value at `path` replaced (or removed, for nil). A path through a value that is no longer a
    /// container leaves `root` unchanged.
    static func replacing(at path: [AnyHashable], in root: Any, with replacement: Any?) -> Any {
        guard let step = path.first else { return replacement ?? NSNull() }
        let rest = Array(path.dropFirst())
        if let name = step as? String, var object = root as? [String: Any] {
            if rest.isEmpty {
                object[name] = replacement
            } else if let member = object[name] {
                object[name] = replacing(at: rest, in: member, with: replacement)
            }
            return object
        }
        if let position = step as? Int, var items = root as? [Any], items.indices.contains(position) {
            if rest.isEmpty {
                if let replacement { items[position] = replacement } else { items.remove(at: position) }
            } else {
                items[position] = replacing(at: rest, in: items[position], with: replacement)
            }
            return items
        }
        return root
    }
}
