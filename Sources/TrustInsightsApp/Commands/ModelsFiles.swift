#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import InsightModel
import InsightTraining

/// File access shared by the `models` subcommands, turning I/O and format errors into command failures.
enum ModelsFiles {
    /// Reads through `read(2)`, so a pipe (`<(...)`) or a device works like a file: Foundation's reader refused
    /// those as a permission problem.
    static func read(_ path: String) throws(CommandLineError) -> Data {
        guard !FileSystem.isDirectory(atPath: path) else { throw .failure("cannot read \(path): it is a folder, not a file") }
        let bytes: [UInt8]?
        do {
            bytes = try FileSystem.readFile(atPath: path, maximumBytes: maximumInputBytes)
        } catch {
            if error.code == EFBIG {
                throw .failure("cannot read \(path): larger than \(maximumInputBytes >> 30) GiB, the most a model or feature file may hold (it is read whole into memory)")
            }
            // reasonText: a socket is named as one, not by the open's "no such device or address".
            throw .failure("cannot read \(path): \(error.reasonText)")
        }
        guard let bytes else { throw .failure("cannot read \(path): no such file") }
        return Data(bytes)
    }

    /// The trainer's limit for its data files, which feature CSVs also are; a LightGBM file of 10,000 trees is 36 MB.
    static let maximumInputBytes = CSVDatasetLoader.maximumBytes

    /// Refuses a model output that the `manifest.json` beside it lists: written over, the file no longer has the
    /// SHA-256 the manifest pins, and the service leaves that model out at its next start or reload.
    /// A models manifest itself is refused too (by its content: a regular file that parses as one), whatever its
    /// name: written over, it takes every model it lists out of service at the next start or reload.
    ///
    /// `warn`, given where the output is a model, hears of each `manifest.json` beside it that could not be read or
    /// parsed, and so could not be checked: the service would refuse that manifest too.
    static func refuseOverwritingListedModel(
        _ path: String, option: String, warn: ((String) -> Void)? = nil
    ) throws(CommandLineError) {
        if isModelsManifest(path) {
            throw .failure(
                "--\(option) \(path) is a models manifest: writing over it would take every model it lists out of service at the next start or reload; write to a file of its own")
        }
        var unchecked: [(manifestPath: String, reason: String)] = []
        let found = ModelManifest.listedEntry(besideModelAt: path, unchecked: &unchecked)
        if found == nil, let warn {
            for (manifest, reason) in unchecked {
                warn("warning: cannot check whether \(manifest) lists --\(option) \(path): \(reason); the service would refuse that manifest too\n")
            }
        }
        guard let (listed, manifest) = found else { return }
        // An entry without a pin is served from whatever the file holds: writing over it replaces the model silently
        // (the message said it pinned a SHA-256 it did not; regression probe, 7 December).
        let effect = listed.sha256 == nil
            ? "which has no SHA-256 pinned: writing over it would replace the model the service loads from it at the next start or reload"
            : "which pins its SHA-256: writing over it would take that model out of service at the next start or reload"
        throw .failure(
            "--\(option) \(path) is listed in \(manifest) as \(listed.insightType)/\(listed.category) \(listed.version) (\(listed.status.rawValue)), \(effect); write to a file of its own")
    }

    /// Only a regular file of manifest size is read: a FIFO or a device named as the output must not be read (it
    /// could block, or take what a reader meant for itself).
    private static func isModelsManifest(_ path: String) -> Bool {
        guard let bytes = try? ModelManifest.fileBytes(atPath: path) else { return false }
        return (try? ModelManifest(jsonData: bytes)) != nil
    }

    static func write(_ data: Data, to path: String) throws(CommandLineError) {
        try OutputFile.write(Array(data), to: path)
    }

    /// Loads one of our model documents and compiles it (validation included).
    static func loadModel(_ path: String) throws(CommandLineError) -> CompiledModel {
        let data = try read(path)
        let document: ModelDocument
        do {
            document = try ModelDocument(jsonData: data)
        } catch {
            throw .failure("\(path): not a trust-insights model document (\(error))")
        }
        do {
            return try CompiledModel(document: document, file: path)
        } catch {
            throw .failure(error.description)
        }
    }

    /// Reads a feature CSV and orders its columns like the model's features. Values are read as the model's source
    /// library receives them: doubles for a float64 model, doubles rounded to float32 for a float32 one.
    static func loadRows(_ path: String, for model: CompiledModel) throws(CommandLineError) -> (FeatureMatrix, [Int]?) {
        let (rows, labels, _) = try loadTable(path, for: model)
        return (rows, labels)
    }

    /// The rows, the labels, and the column (from 1) that is named almost `label` (`Label`, ` label`) when there is
    /// no `label`: read as an extra column, its file would be scored without metrics and without a word (train
    /// probe, 6 December).
    static func loadTable(_ path: String, for model: CompiledModel) throws(CommandLineError) -> (FeatureMatrix, [Int]?, nearLabelColumn: Int?) {
        let bytes = [UInt8](try read(path))
        do {
            let table = try FeatureTable(csv: bytes, parseAsDouble: model.document.semantics.precision == .float64)
            // Without a label column every column of the header is in `columnNames`, in order.
            let nearLabel = table.labels == nil
                ? table.columnNames.firstIndex {
                    $0.unicodeScalars.filter { !$0.properties.isWhitespace && $0 != "\u{FEFF}" }.map(String.init).joined()
                        .lowercased() == FeatureTable.labelColumn
                }
                : nil
            return (try table.matrix(for: model.featureNames), table.labels, nearLabel.map { $0 + 1 })
        } catch {
            throw .failure("\(path): \(error.description)")
        }
    }
}
