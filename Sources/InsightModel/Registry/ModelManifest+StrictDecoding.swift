import FoundationEssentials

// The manifest refuses members it does not declare, as model documents do (`StrictKeys`): a misspelt `status`
// or `path` must not read as absent. `provenance` and `heldOutMetrics` are free-form maps.

extension ModelManifest {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case formatVersion, models
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(besides: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            formatVersion: try container.decode(Int.self, forKey: .formatVersion),
            models: try container.decode([Entry].self, forKey: .models))
    }

    /// Decodes a manifest; shape errors only, named by their path (`models[2].pathh`).
    public init(jsonData: Data) throws(JSONShapeError) {
        try JSONDocumentPreCheck.check(jsonData) { $0 == [.member("formatVersion")] }
        do {
            self = try JSONDecoder().decode(ModelManifest.self, from: jsonData)
        } catch let error as DecodingError {
            throw JSONShapeError(error)
        } catch {
            throw JSONShapeError(path: "", problem: .notJSON)
        }
    }
}

extension ModelManifest.Entry {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case insightType, category, version, status, path, provenance, heldOutMetrics, sha256
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(besides: CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            insightType: try container.decode(String.self, forKey: .insightType),
            category: try container.decode(String.self, forKey: .category),
            version: try container.decode(String.self, forKey: .version),
            status: try container.decode(ModelStatus.self, forKey: .status),
            path: try container.decode(String.self, forKey: .path),
            provenance: try container.decodeIfPresent([String: String].self, forKey: .provenance),
            heldOutMetrics: try container.decodeIfPresent([String: Double].self, forKey: .heldOutMetrics),
            sha256: try container.decodeIfPresent(String.self, forKey: .sha256))
    }
}
