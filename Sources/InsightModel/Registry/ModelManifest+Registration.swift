import FoundationEssentials
import Glibc

extension ModelManifest {
    /// Writes the model (`modelData`, the encoding of `document`) to `modelPath` and adds it as a candidate to the
    /// manifest at `manifestPath` (created if absent), once the whole new manifest is known to load: every model valid
    /// and fitting its category's schema. The check reads the new model from memory, so a refused model leaves no
    /// file behind; the model file is written before the manifest that names it.
    ///
    /// Runs that register into one manifest at the same time take turns (`ManifestFolderLock`), and a manifest
    /// edited by other means while the model is checked is left as it is and the registration refused, rather than
    /// written over. The entry's path is relative to the manifest's folder as it is on disk, symbolic links
    /// resolved, so that it names the model whichever way the folder is reached.
    public static func registerCandidate(
        modelPath givenModelPath: String, modelData: Data, document: ModelDocument, manifestPath: String,
        schemaCheck: any ModelSchemaCheck
    ) throws(ModelRegistryError) {
        // Both paths as the system reaches them before anything below folds `..` in text: behind a folder that is a
        // symbolic link, `link/../x` is not `x`, and the model was written to another file than `--out` names
        // (third regression probe, 6 December), as it is written without `--register`.
        let modelPath = try systemPath(givenModelPath)
        let manifestURL = URL(fileURLWithPath: try systemPath(manifestPath))
        let directory = manifestURL.deletingLastPathComponent()
        // The folder must exist to be locked; folders made for a registration that is then refused are removed
        // again (deepest first, each only if still empty), so a refusal leaves nothing behind.
        var created: [String] = []
        var ancestor = directory
        while !FileManager.default.fileExists(atPath: ancestor.path), ancestor.pathComponents.count > 1 {
            created.append(ancestor.path)
            ancestor = ancestor.deletingLastPathComponent()
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw ModelRegistryError(file: manifestPath, reason: "cannot create the manifest's folder: \(FileErrorText.reason(error))")
        }
        do {
            let written = try writtenFile(of: manifestURL, manifestPath)
            // The lock is on the folder of the file written: runs through a link and through its target take turns.
            try ManifestFolderLock.withLock(folder: realFolder(written.deletingLastPathComponent().path)) { () throws(ModelRegistryError) in
                try registerLocked(
                    modelPath: modelPath, modelData: modelData, document: document, manifestPath: manifestPath,
                    manifestURL: manifestURL, writtenURL: written, schemaCheck: schemaCheck)
            }
        } catch {
            for folder in created { _ = rmdir(folder) }
            throw error
        }
    }

    private static func registerLocked(
        modelPath: String, modelData: Data, document: ModelDocument, manifestPath: String, manifestURL: URL,
        writtenURL: URL, schemaCheck: any ModelSchemaCheck
    ) throws(ModelRegistryError) {
        let originalBytes = try manifestBytes(manifestURL, manifestPath)
        var manifest = ModelManifest()
        if let originalBytes {
            do {
                manifest = try ModelManifest(jsonData: originalBytes)
            } catch {
                throw ModelRegistryError(file: manifestPath, reason: "not a valid manifest (\(error))")
            }
        }
        // The model file must be new to the manifest: written over the manifest, the manifest would then overwrite it
        // and list itself; written over a listed model, it would replace a file the manifest pins (and may serve).
        let directory = manifestURL.deletingLastPathComponent()
        let physicalDirectory = physicalURL(directory)
        let modelURL = URL(fileURLWithPath: modelPath).standardizedFileURL
        // Where the model is named (a symbolic link there stays, and the entry names it) and where its bytes go:
        // through the link, as every other `--out` is written (fourth regression probe, 6 December: the link was
        // replaced by a file); a loop or a link into a missing folder is refused before anything is written.
        let modelTarget = try writtenFile(of: modelURL, modelPath)
        let modelLocation = physicalURL(modelURL.deletingLastPathComponent()).appendingPathComponent(modelURL.lastPathComponent)
        let modelIdentity = physicalURL(modelURL)
        let manifestIdentity = physicalURL(manifestURL).path
        if modelIdentity.path == manifestIdentity || modelLocation.path == manifestIdentity {
            throw ModelRegistryError(file: modelPath, reason: "the model's file is the manifest itself: choose another file for the model")
        }
        if let listed = entry(of: manifest, in: directory, writtenAt: modelPath) {
            throw ModelRegistryError(
                file: modelPath,
                reason: "the manifest already lists this file, for \(listed.insightType)/\(listed.category) \(listed.version) (\(listed.status.rawValue)): write the new model to a file of its own")
        }
        let metadata = document.metadata
        let entryPath = relativePath(from: physicalDirectory, to: modelLocation)
        manifest.models.append(
            Entry(
                insightType: metadata.insightType, category: metadata.category, version: metadata.version,
                status: .candidate, path: entryPath, sha256: ModelFileDigest.of(modelData)))
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
                // As the service reads it: the folder joined with the entry's path, resolved by the system.
                path == entryPath ? modelData : try ModelFile.read(directory.appendingPathComponent(path))
            })
        // Checking every model takes a while; an edit made meanwhile by other means than this command is kept.
        guard try manifestBytes(manifestURL, manifestPath) == originalBytes else {
            throw ModelRegistryError(
                file: manifestPath,
                reason: "the manifest changed while the model was being checked; nothing was registered: run the command again")
        }
        do {
            try FileManager.default.createDirectory(at: modelURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try modelData.write(to: modelTarget, options: .atomic)
        } catch {
            throw ModelRegistryError(file: modelPath, reason: "cannot write the model: \(FileErrorText.reason(error))")
        }
        do {
            // Written through a symbolic link, as the commands' other outputs are: replacing the link with a file
            // left the file it named without the entry (lifecycle probe, 6 December). The entries stay relative to
            // the link's folder, which is where the service reads them from.
            try data.write(to: writtenURL, options: .atomic)
        } catch {
            throw ModelRegistryError(file: manifestPath, reason: "cannot write the manifest: \(FileErrorText.reason(error))")
        }
    }

    /// The file an output at `url` (the manifest, or the model) is written to: `url`, or where its symbolic links
    /// lead, a dangling one's target included (a file still to be made there). Refused before anything is written: a loop of links (which
    /// read as no manifest, and the run replaced the link with a new one-entry manifest), and a link whose target's
    /// folder cannot be reached (the model was written, then the manifest failed; regression probe, 6 December).
    /// A link's target is joined to the link's folder as text and left for the system to resolve: folding `..` in
    /// the text, where the folder holds a symbolic link, named another folder than the one the system reaches
    /// (second regression probe).
    static func writtenFile(of url: URL, _ path: String) throws(ModelRegistryError) -> URL {
        var current = url.path
        for _ in 0..<40 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
                guard current != url.path else { return url }
                let folder = folderText(of: current)
                var status = stat()
                guard stat(folder, &status) == 0 else {
                    throw ModelRegistryError(
                        file: path, reason: "is a symbolic link to \(current), whose folder \(folder) cannot be reached (\(FileErrorText.reason(code: errno))): nothing was written")
                }
                guard status.st_mode & S_IFMT == S_IFDIR else {
                    throw ModelRegistryError(file: path, reason: "is a symbolic link to \(current), and \(folder) is not a folder: nothing was written")
                }
                // The folder as the system reached it, so nothing downstream folds `..` in text again.
                return URL(fileURLWithPath: realFolder(folder)).appendingPathComponent(String(current[current.index(after: current.lastIndex(of: "/")!)...]))
            }
            current = destination.hasPrefix("/") ? destination : folderText(of: current) + "/" + destination
        }
        throw ModelRegistryError(file: path, reason: "is a loop of symbolic links (or more than 40 of them): nothing was written")
    }

    /// `path` with its folder part resolved as the system resolves it (every `.` and `..` taken after the links
    /// before it are followed), its last name kept as it is (a link there is the caller's to follow or replace).
    /// Folders that do not exist yet are kept as text; a `..` after one is refused, as the system refuses it.
    static func systemPath(_ path: String) throws(ModelRegistryError) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var components = absolute.split(separator: "/").map(String.init)
        guard let last = components.popLast(), last != ".", last != ".." else { return absolute }
        var resolved = "/"
        var missing: [String] = []
        for component in components where component != "." {
            guard missing.isEmpty else {
                guard component != ".." else {
                    throw ModelRegistryError(file: path, reason: "names `..` after \(missing[0]), which does not exist: the system could not reach it")
                }
                missing.append(component)
                continue
            }
            let candidate = (resolved == "/" ? "" : resolved) + "/" + component
            if let real = realpath(candidate, nil) {
                resolved = String(cString: real)
                free(real)
            } else if errno == ENOENT, component != ".." {
                missing.append(component)
            } else {
                throw ModelRegistryError(file: path, reason: "cannot reach \(candidate): \(FileErrorText.reason(code: errno))")
            }
        }
        return ([resolved == "/" ? "" : resolved] + missing + [last]).joined(separator: "/")
    }

    /// The folder part of a path as text (`.` for a bare name), nothing folded.
    private static func folderText(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The folder `folder` is on disk, as the system resolves it (`realpath`); `folder` itself if it cannot.
    static func realFolder(_ folder: String) -> String {
        guard let resolved = realpath(folder, nil) else { return folder }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The entry of `manifest` (whose folder is `directory`) that a file written at `modelPath` would replace,
    /// through any path or link to it.
    private static func entry(of manifest: ModelManifest, in directory: URL, writtenAt modelPath: String) -> Entry? {
        let physicalDirectory = physicalURL(directory)
        let modelURL = URL(fileURLWithPath: modelPath).standardizedFileURL
        // Where the model is named; written through a link there, the file it names is the listed one too.
        let modelLocation = physicalURL(modelURL.deletingLastPathComponent()).appendingPathComponent(modelURL.lastPathComponent)
        let modelIdentity = physicalURL(modelURL)
        return manifest.models.first(where: {
            let listedIdentity = physicalURL(physicalDirectory.appendingPathComponent($0.path)).path
            return listedIdentity == modelIdentity.path || listedIdentity == modelLocation.path
        })
    }

    /// The entry of a `manifest.json` beside `modelPath` (in the same folder, the shipped layout; for a symbolic
    /// link, beside the link or beside the file it names) that writing a model at `modelPath` would replace, with
    /// that manifest's path; nil when there is no such manifest, it does not parse, or it does not list the file.
    /// `models import` and `train` refuse such an output without `--register`: the manifest pins the file's SHA-256,
    /// so the service would leave the model it lists out at its next start or reload.
    public static func listedEntry(besideModelAt modelPath: String) -> (entry: Entry, manifestPath: String)? {
        var unchecked: [(manifestPath: String, reason: String)] = []
        return listedEntry(besideModelAt: modelPath, unchecked: &unchecked)
    }

    /// As `listedEntry(besideModelAt:)`, and `unchecked` gets each `manifest.json` found there that could not be
    /// read (the service's bound and kinds: a regular file of at most 16 MiB) or parsed, with the reason: `train`
    /// read a 2 GiB manifest whole there and went on without a word when one could not be read (file-reading
    /// probe, 7 December).
    public static func listedEntry(
        besideModelAt modelPath: String, unchecked: inout [(manifestPath: String, reason: String)]
    ) -> (entry: Entry, manifestPath: String)? {
        // Resolved as the system resolves it first: `standardizedFileURL` folds `..` as text.
        let named = (try? systemPath(modelPath)) ?? AbsolutePath.of(modelPath)
        // A link that names no file yet is written through all the same, making the file it names: that file may be
        // listed beside it, where only the link was looked at (train probe, 7 December: a dangling link wrote a
        // listed model's file).
        let target = (try? writtenFile(of: URL(fileURLWithPath: named), named).path) ?? named
        for path in target == named ? [named] : [named, target] {
            if let found = listedEntry(besideResolvedPath: path, unchecked: &unchecked) { return found }
        }
        return nil
    }

    private static func listedEntry(
        besideResolvedPath modelPath: String, unchecked: inout [(manifestPath: String, reason: String)]
    ) -> (entry: Entry, manifestPath: String)? {
        let written = URL(fileURLWithPath: modelPath).standardizedFileURL
        var folders = [written.deletingLastPathComponent()]
        let resolvedFolder = physicalURL(written).deletingLastPathComponent()
        if resolvedFolder.path != physicalURL(folders[0]).path { folders.append(resolvedFolder) }
        for directory in folders {
            let manifestURL = directory.appendingPathComponent("manifest.json")
            let bytes: Data
            do {
                bytes = try ModelFile.read(manifestURL, maximumBytes: ModelFile.manifestMaximumBytes)
            } catch .system(code: ENOENT) {
                continue
            } catch {
                if !unchecked.contains(where: { $0.manifestPath == manifestURL.path }) {
                    unchecked.append((manifestURL.path, error.description))
                }
                continue
            }
            let manifest: ModelManifest
            do {
                manifest = try ModelManifest(jsonData: bytes)
            } catch {
                if !unchecked.contains(where: { $0.manifestPath == manifestURL.path }) {
                    unchecked.append((manifestURL.path, "not a valid manifest (\(error))"))
                }
                continue
            }
            // Well-formed but refused by the service all the same (formatVersion 2, no models, an absolute path, a
            // malformed pin): it serves nothing, so it lists nothing to protect, whatever its entries say (such a
            // manifest refused an output it listed, naming a pin or a served model that did not exist; regression
            // probe, 7 December).
            if let refusal = manifest.refusalBeforeLoading {
                if !unchecked.contains(where: { $0.manifestPath == manifestURL.path }) { unchecked.append((manifestURL.path, refusal)) }
                continue
            }
            if let listed = entry(of: manifest, in: directory, writtenAt: modelPath) { return (listed, manifestURL.path) }
        }
        return nil
    }

    /// The manifest's bytes, or nil when there is none yet.
    private static func manifestBytes(_ url: URL, _ path: String) throws(ModelRegistryError) -> Data? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try ModelFile.read(url, maximumBytes: ModelFile.manifestMaximumBytes)
        } catch {
            throw ModelRegistryError(file: path, reason: "cannot read the manifest: \(FileErrorText.reason(error))")
        }
    }

    /// `url` as it is on disk: the longest part of it that exists with its symbolic links resolved, then the rest.
    static func physicalURL(_ url: URL) -> URL {
        var existing = url.standardizedFileURL
        var missing: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path), existing.pathComponents.count > 1 {
            missing.insert(existing.lastPathComponent, at: 0)
            existing = existing.deletingLastPathComponent()
        }
        var resolved = existing.resolvingSymlinksInPath()
        for component in missing { resolved.appendPathComponent(component) }
        return resolved
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
