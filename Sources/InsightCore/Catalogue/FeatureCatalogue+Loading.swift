#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import InsightModel

extension FeatureCatalogue {
    /// Loads `<category>.json` for every category from `directory` (normally `config/features`).
    /// Errors name the file and the JSON pointer of the mistake.
    public static func load(from directory: String) throws(CatalogueError) -> FeatureCatalogue {
        var catalogues: [CategoryCatalogue] = []
        for category in OperationCategory.allCases {
            let file = directory.hasSuffix("/") ? directory + category.rawValue + ".json" : directory + "/" + category.rawValue + ".json"
            catalogues.append(try loadCategory(category, file: file))
        }
        return try FeatureCatalogue(catalogues)
    }

    /// The names in `directory` that are no category's document (`<category>.json`): ignored by `load(from:)`, so a
    /// misspelt copy (`paymnet.json`) or an edit saved under another name (`payment.json.new`) would change nothing
    /// without a word. Sorted; empty when the folder cannot be listed.
    public static func otherFiles(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let documents = Set(OperationCategory.allCases.map { $0.rawValue + ".json" })
        return names.filter { !documents.contains($0) }.sorted()
    }

    /// More than any catalogue holds (the shipped ones are a few KiB), as for the configuration files.
    public static let maximumFileBytes = 16 << 20

    /// Loads and checks one category's document, read as the models manifest is (`RegularFile`). A file that cannot
    /// be read is refused with the reason it gives ("it is a folder, not a file", "too many levels of symbolic
    /// links"): a bare "cannot be read", or "no such file" for a folder or a loop of links, sent the operator looking
    /// for the wrong fault (configuration probe, 7 December).
    public static func loadCategory(_ category: OperationCategory, file: String) throws(CatalogueError) -> CategoryCatalogue {
        let data: Data
        do {
            data = try RegularFile.read(atPath: file, maximumBytes: maximumFileBytes)
        } catch .system(code: ENOENT) {
            throw .missingFile(file: file)
        } catch {
            throw .unreadableFile(file: file, reason: error.description)
        }
        return try parseCategory(category, data: data, file: file)
    }

    /// Parses one category's document from bytes; `file` only labels errors.
    public static func parseCategory(_ category: OperationCategory, data: Data, file: String) throws(CatalogueError) -> CategoryCatalogue {
        let root = try CatalogueJSON.parse(data, file: file)
        return try CatalogueDocumentReader(file: file).read(root, expected: category)
    }
}
