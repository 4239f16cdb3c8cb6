/// Turns one parsed `<category>.json` document into a `CategoryCatalogue`, rejecting unknown fields and naming
/// the pointer of every mistake.
struct CatalogueDocumentReader {
    let file: String

    static let maximumVersionLength = 64

    private static func isVersionByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    static let documentFields: Set<String> = ["schemaVersion", "category", "version", "description", "subject", "features"]
    static let subjectFields: Set<String> = ["required", "optional"]
    static let featureFields: Set<String> = ["name", "type", "unit", "min", "max", "bands", "required", "source", "description"]
    static let bandFields: Set<String> = ["code", "meaning"]

    func read(_ root: CatalogueJSON, expected: OperationCategory) throws(CatalogueError) -> CategoryCatalogue {
        let document = try object(root, at: "")
        try rejectUnknown(document, allowed: Self.documentFields, at: "")
        let schemaVersion = try integer(document, "schemaVersion", at: "")
        guard schemaVersion == 1 else {
            throw .invalid(file: file, pointer: "/schemaVersion", problem: .unsupportedSchemaVersion(schemaVersion))
        }
        let categoryName = try string(document, "category", at: "")
        guard let category = OperationCategory(rawValue: categoryName) else {
            throw .invalid(file: file, pointer: "/category", problem: .unknownCategory(categoryName))
        }
        guard category == expected else {
            throw .invalid(file: file, pointer: "/category", problem: .categoryMismatch(expected: expected, found: categoryName))
        }
        let version = try string(document, "version", at: "")
        // Sent to every client in `additionalInfo.catalogueVersion` (unsigned) and kept with evaluations: a name, not
        // free text.
        guard (1...Self.maximumVersionLength).contains(version.utf8.count), version.utf8.allSatisfy(Self.isVersionByte) else {
            throw .invalid(file: file, pointer: "/version", problem: .invalidVersion(version))
        }
        if document["description"] != nil { _ = try string(document, "description", at: "") }

        let subject = try object(try field(document, "subject", at: ""), at: "/subject")
        try rejectUnknown(subject, allowed: Self.subjectFields, at: "/subject")
        let required = try subjectRefs(subject, "required")
        let optional = subject["optional"] == nil ? [] : try subjectRefs(subject, "optional")

        guard case .array(let entries) = try field(document, "features", at: "") else {
            throw malformed("/features", expected: "array", found: document["features"]!)
        }
        var definitions: [FeatureDefinition] = []
        definitions.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            definitions.append(try feature(entry, at: "/features/\(index)"))
        }
        return try CategoryCatalogue(
            category: category, version: version, requiredSubjectRefs: required, optionalSubjectRefs: optional,
            features: definitions, file: file)
    }

    private func feature(_ value: CatalogueJSON, at pointer: String) throws(CatalogueError) -> FeatureDefinition {
        let entry = try object(value, at: pointer)
        try rejectUnknown(entry, allowed: Self.featureFields, at: pointer)
        let name = try string(entry, "name", at: pointer)
        let typeName = try string(entry, "type", at: pointer)
        guard let type = FeatureType(rawValue: typeName) else {
            throw .invalid(file: file, pointer: pointer + "/type", problem: .unknownType(typeName))
        }
        let unit = try string(entry, "unit", at: pointer)
        let isRequired = try boolean(entry, "required", at: pointer)
        let sourceName = entry["source"] == nil ? "client" : try string(entry, "source", at: pointer)
        guard let source = FeatureSource(rawValue: sourceName) else {
            throw .invalid(file: file, pointer: pointer + "/source", problem: .unknownSource(sourceName))
        }
        let description = try string(entry, "description", at: pointer)

        var bands: [FeatureBand] = []
        if let bandList = entry["bands"] {
            guard case .array(let items) = bandList else { throw malformed(pointer + "/bands", expected: "array", found: bandList) }
            guard type == .band else { throw .invalid(file: file, pointer: pointer + "/bands", problem: .bandsOnNonBandFeature) }
            for (index, item) in items.enumerated() {
                let bandPointer = pointer + "/bands/\(index)"
                let band = try object(item, at: bandPointer)
                try rejectUnknown(band, allowed: Self.bandFields, at: bandPointer)
                bands.append(
                    FeatureBand(code: try integer(band, "code", at: bandPointer), meaning: try string(band, "meaning", at: bandPointer)))
            }
        }

        let minimum: Double
        let maximum: Double
        switch type {
        case .number, .count:
            minimum = try number(entry, "min", at: pointer)
            maximum = try number(entry, "max", at: pointer)
        case .flag, .band:
            if entry["min"] != nil || entry["max"] != nil {
                throw .invalid(file: file, pointer: pointer + (entry["min"] != nil ? "/min" : "/max"), problem: .boundsNotAllowed(type))
            }
            if type == .band {
                guard !bands.isEmpty else { throw .invalid(file: file, pointer: pointer + "/bands", problem: .emptyBandList) }
                minimum = Double(bands.map(\.code).min()!)
                maximum = Double(bands.map(\.code).max()!)
            } else {
                minimum = 0
                maximum = 1
            }
        }
        return FeatureDefinition(
            name: name, type: type, unit: unit, minimum: minimum, maximum: maximum, bands: bands,
            isRequired: isRequired, source: source, description: description)
    }

    private func subjectRefs(_ subject: [String: CatalogueJSON], _ key: String) throws(CatalogueError) -> [SubjectRefKind] {
        let pointer = "/subject/\(key)"
        let value = try field(subject, key, at: "/subject")
        guard case .array(let items) = value else { throw malformed(pointer, expected: "array", found: value) }
        var refs: [SubjectRefKind] = []
        for (index, item) in items.enumerated() {
            guard case .string(let name) = item else { throw malformed(pointer + "/\(index)", expected: "string", found: item) }
            guard let ref = SubjectRefKind(rawValue: name) else {
                throw .invalid(file: file, pointer: pointer + "/\(index)", problem: .unknownSubjectRef(name))
            }
            refs.append(ref)
        }
        return refs
    }

    // MARK: Typed field access with pointers.

    private func field(_ object: [String: CatalogueJSON], _ key: String, at pointer: String) throws(CatalogueError) -> CatalogueJSON {
        guard let value = object[key] else { throw .invalid(file: file, pointer: pointer, problem: .missingField(key)) }
        return value
    }

    private func object(_ value: CatalogueJSON, at pointer: String) throws(CatalogueError) -> [String: CatalogueJSON] {
        guard case .object(let object) = value else { throw malformed(pointer, expected: "object", found: value) }
        return object
    }

    private func string(_ object: [String: CatalogueJSON], _ key: String, at pointer: String) throws(CatalogueError) -> String {
        let value = try field(object, key, at: pointer)
        guard case .string(let text) = value else { throw malformed(pointer + "/" + key, expected: "string", found: value) }
        return text
    }

    private func boolean(_ object: [String: CatalogueJSON], _ key: String, at pointer: String) throws(CatalogueError) -> Bool {
        let value = try field(object, key, at: pointer)
        guard case .bool(let flag) = value else { throw malformed(pointer + "/" + key, expected: "boolean", found: value) }
        return flag
    }

    private func number(_ object: [String: CatalogueJSON], _ key: String, at pointer: String) throws(CatalogueError) -> Double {
        let value = try field(object, key, at: pointer)
        guard case .number(let number) = value else { throw malformed(pointer + "/" + key, expected: "number", found: value) }
        return number
    }

    private func integer(_ object: [String: CatalogueJSON], _ key: String, at pointer: String) throws(CatalogueError) -> Int {
        let value = try field(object, key, at: pointer)
        guard case .number(let number) = value, number == number.rounded(), abs(number) < 1e15 else {
            throw malformed(pointer + "/" + key, expected: "integer", found: value)
        }
        return Int(number)
    }

    private func rejectUnknown(_ object: [String: CatalogueJSON], allowed: Set<String>, at pointer: String) throws(CatalogueError) {
        for key in object.keys.sorted() where !allowed.contains(key) {
            throw .invalid(file: file, pointer: pointer + "/" + JSONPointer.escape(key), problem: .unknownField(key))
        }
    }

    private func malformed(_ pointer: String, expected: String, found: CatalogueJSON) -> CatalogueError {
        .malformedJSON(file: file, pointer: pointer, detail: "expected \(expected), found \(found.kindName)")
    }
}
