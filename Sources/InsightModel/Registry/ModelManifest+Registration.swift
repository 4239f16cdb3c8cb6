import FoundationEssentials

extension ModelManifest {
    /// Writes the model (`modelData`, the encoding of `document`) to `modelPath` and adds it as a candidate to the
    /// manifest at `manifestPath` (created if absent), once the whole new manifest is known to load: every model valid
    /// and fitting its category's schema. The check reads the new model from memory, so a refused model leaves no
    /// file behind; the model file is written before the manifest that names it.
    public static func registerCandidate(
        modelPath: String, modelData: Data, document: ModelDocument, manifestPath: String, schemaCheck: any ModelSchemaCheck
    ) throws(ModelRegistryError) {
        let manifestURL = URL(fileURLWithPath: manifestPath).standardizedFileURL
        var manifest = ModelManifest()
        if FileManager.default.fileExists(atPath: manifestURL.path) {
            do {
                manifest = try ModelManifest(jsonData: Data(contentsOf: manifestURL))
            } catch {
                throw ModelRegistryError(file: manifestPath, reason: "not a valid manifest (\(error))")
            }
        }
        // The model file must be new to the manifest: written over the manifest, the manifest would then overwrite it
        // and list itself; written over a listed model, it would replace a file the manifest pins (and may serve).
        let directory = manifestURL.deletingLastPathComponent()
        let modelURL = URL(fileURLWithPath: modelPath).standardizedFileURL
        let modelIdentity = modelURL.resolvingSymlinksInPath()
        if modelIdentity == manifestURL.resolvingSymlinksInPath() {
            throw ModelRegistryError(file: modelPath, reason: "the model's file is the manifest itself: choose another file for the model")
        }
        if let listed = manifest.models.first(where: {
            directory.appendingPathComponent($0.path).standardizedFileURL.resolvingSymlinksInPath() == modelIdentity
        }) {
            throw ModelRegistryError(
                file: modelPath,
                reason: "the manifest already lists this file, for \(listed.insightType)/\(listed.category) \(listed.version) (\(listed.status.rawValue)): write the new model to a file of its own")
        }
        let metadata = document.metadata
        manifest.models.append(
            Entry(
                insightType: metadata.insightType, category: metadata.category, version: metadata.version,
                status: .candidate,
                path: relativePath(from: manifestURL.deletingLastPathComponent(), to: URL(fileURLWithPath: modelPath)),
                sha256: ModelFileDigest.of(modelData)))
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            data = try encoder.encode(manifest)
        } catch {
            throw ModelRegistryError(file: manifestPath, reason: "cannot encode the manifest (\(error))")
        }
        _ = try RegistrySnapshot(
            manifestData: data, manifestFile: manifestPath, generation: 0, schemaCheck: schemaCheck,
            readModel: { path in
                let url = directory.appendingPathComponent(path).standardizedFileURL
                return url == modelURL ? modelData : try Data(contentsOf: url)
            })
        do {
            try FileManager.default.createDirectory(at: modelURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try modelData.write(to: modelURL, options: .atomic)
        } catch {
            throw ModelRegistryError(file: modelPath, reason: "cannot write the model: \(FileErrorText.reason(error))")
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try data.write(to: manifestURL, options: .atomic)
        } catch {
            throw ModelRegistryError(file: manifestPath, reason: "cannot write the manifest (\(error))")
        }
    }

    /// `target` relative to `directory`, both made absolute first.
    static func relativePath(from directory: URL, to target: URL) -> String {
        let base = directory.standardizedFileURL.pathComponents
        let path = target.standardizedFileURL.pathComponents
        var common = 0
        while common < base.count, common < path.count, base[common] == path[common] { common += 1 }
        let ups = Array(repeating: "..", count: base.count - common)
        return (ups + path[common...]).joined(separator: "/")
    }
}
