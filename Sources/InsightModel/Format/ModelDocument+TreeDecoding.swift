// The model document read from the strict parser's tree (`JSONTreeReader`). `init(from:)` in
// ModelDocument+StrictDecoding.swift stays the Codable definition; this reads the same members in the same order
// and names the same problems, and `TreeDecodingParityTests` holds the two to that.

private typealias Reader = JSONTreeReader

extension JSONTreeReader {
    static func text(_ value: JSONValue, at path: Path) throws(JSONShapeError) -> String {
        guard let read = string(value) else { throw error(at: path, aString) }
        return read
    }

    static func wholeNumber(_ value: JSONValue, at path: Path) throws(JSONShapeError) -> Int {
        guard let read = int(value) else { throw error(at: path, aNumber) }
        return read
    }

    static func number(_ value: JSONValue, at path: Path) throws(JSONShapeError) -> Double {
        guard let read = double(value) else { throw error(at: path, aNumber) }
        return read
    }

    /// An array of objects, each read by `read` at its own path.
    static func objects<T>(_ read: @escaping (JSONValue, Path) throws(JSONShapeError) -> T) -> (JSONValue, Path) throws(JSONShapeError) -> [T] {
        { (value, path) throws(JSONShapeError) in
            guard case .array(let items) = value else { throw error(at: path, .wrongType(expected: "an array")) }
            var result: [T] = []
            result.reserveCapacity(items.count)
            for position in items.indices {
                result.append(try read(items[position], path + [.index(position)]))
            }
            return result
        }
    }
}

extension ModelDocument {
    /// The document in `value`, the tree `JSONDocumentPreCheck` returned.
    init(tree value: JSONValue) throws(JSONShapeError) {
        let object = try Reader.Object(value, at: [], known: CodingKeys.allCases.map(\.rawValue))
        self.init(
            format: try object.required("format", Reader.text(_:at:)),
            formatVersion: try object.required("formatVersion", Reader.wholeNumber(_:at:)),
            objective: try object.required("objective", Reader.enumeration(ModelObjective.self)),
            featureNames: try object.array("featureNames", Reader.string, refusal: Reader.refusal(expected: Reader.aString)),
            baseMargin: try object.required("baseMargin", Reader.number(_:at:)),
            semantics: try object.required("semantics", SplitSemantics.init(tree:at:)),
            thresholds: try object.required("thresholds", RiskThresholds.init(tree:at:)),
            metadata: try object.required("metadata", ModelMetadata.init(tree:at:)),
            trees: try object.required("trees", Reader.objects(ModelTree.init(tree:at:))),
            sumDivisor: try object.optional("sumDivisor", Reader.wholeNumber(_:at:)),
            sigmoidScale: try object.optional("sigmoidScale", Reader.number(_:at:)))
    }
}

extension ModelTree {
    init(tree value: JSONValue, at path: JSONTreeReader.Path) throws(JSONShapeError) {
        let object = try Reader.Object(value, at: path, known: CodingKeys.allCases.map(\.rawValue))
        let wholeNumbers = Reader.refusal(expected: Reader.aNumber)
        self.init(
            leftChildren: try object.array("leftChildren", Reader.int, refusal: wholeNumbers),
            rightChildren: try object.array("rightChildren", Reader.int, refusal: wholeNumbers),
            splitFeatures: try object.array("splitFeatures", Reader.int, refusal: wholeNumbers),
            thresholds: try object.array("thresholds", Reader.double, refusal: wholeNumbers),
            // JSONDecoder names a null among booleans as not a boolean, where it says null among numbers.
            defaultLeft: try object.array("defaultLeft", Reader.bool, refusal: { _ in Reader.aBool }),
            missingTypes: try object.optionalArray(
                "missingTypes", Reader.enumerationItem(MissingValueType.self), refusal: Reader.enumerationRefusal(MissingValueType.self)),
            leafValues: try object.array("leafValues", Reader.double, refusal: wholeNumbers),
            covers: try object.optionalArray("covers", Reader.double, refusal: wholeNumbers))
    }
}

extension SplitSemantics {
    init(tree value: JSONValue, at path: JSONTreeReader.Path) throws(JSONShapeError) {
        let object = try Reader.Object(value, at: path, known: CodingKeys.allCases.map(\.rawValue))
        self.init(
            precision: try object.required("precision", Reader.enumeration(NumericPrecision.self)),
            comparison: try object.required("comparison", Reader.enumeration(SplitComparison.self)))
    }
}

extension RiskThresholds {
    init(tree value: JSONValue, at path: JSONTreeReader.Path) throws(JSONShapeError) {
        let object = try Reader.Object(value, at: path, known: CodingKeys.allCases.map(\.rawValue))
        self.init(medium: try object.required("medium", Reader.number(_:at:)), high: try object.required("high", Reader.number(_:at:)))
    }
}

extension ModelMetadata {
    init(tree value: JSONValue, at path: JSONTreeReader.Path) throws(JSONShapeError) {
        let object = try Reader.Object(value, at: path, known: CodingKeys.allCases.map(\.rawValue))
        self.init(
            insightType: try object.required("insightType", Reader.text(_:at:)),
            category: try object.required("category", Reader.text(_:at:)),
            version: try object.required("version", Reader.text(_:at:)),
            createdAt: try object.required("createdAt", Reader.text(_:at:)),
            training: try object.required("training", TrainingProvenance.init(tree:at:)),
            heldOutMetrics: try object.optional("heldOutMetrics", HeldOutMetrics.init(tree:at:)))
    }
}

extension TrainingProvenance {
    init(tree value: JSONValue, at path: JSONTreeReader.Path) throws(JSONShapeError) {
        let object = try Reader.Object(value, at: path, known: CodingKeys.allCases.map(\.rawValue))
        self.init(
            source: try object.required("source", Reader.text(_:at:)),
            tool: try object.required("tool", Reader.text(_:at:)),
            parameters: try object.required("parameters", Reader.stringMap(_:at:)),
            dataDescription: try object.required("dataDescription", Reader.text(_:at:)))
    }
}

extension HeldOutMetrics {
    init(tree value: JSONValue, at path: JSONTreeReader.Path) throws(JSONShapeError) {
        let object = try Reader.Object(value, at: path, known: CodingKeys.allCases.map(\.rawValue))
        self.init(
            rows: try object.required("rows", Reader.wholeNumber(_:at:)),
            positives: try object.optional("positives", Reader.wholeNumber(_:at:)),
            auc: try object.required("auc", Reader.number(_:at:)),
            prAUC: try object.required("prAUC", Reader.number(_:at:)),
            logLoss: try object.required("logLoss", Reader.number(_:at:)),
            atMedium: try object.required("atMedium", PrecisionRecall.init(tree:at:)),
            atHigh: try object.required("atHigh", PrecisionRecall.init(tree:at:)))
    }
}

extension PrecisionRecall {
    init(tree value: JSONValue, at path: JSONTreeReader.Path) throws(JSONShapeError) {
        let object = try Reader.Object(value, at: path, known: CodingKeys.allCases.map(\.rawValue))
        self.init(precision: try object.required("precision", Reader.number(_:at:)), recall: try object.required("recall", Reader.number(_:at:)))
    }
}
