#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
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

    /// Loads and checks one category's document.
    public static func loadCategory(_ category: OperationCategory, file: String) throws(CatalogueError) -> CategoryCatalogue {
        guard FileManager.default.fileExists(atPath: file) else { throw .missingFile(file: file) }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: AbsolutePath.of(file)))
        } catch {
            throw .unreadableFile(file: file)
        }
        return try parseCategory(category, data: data, file: file)
    }

    /// Parses one category's document from bytes; `file` only labels errors.
    public static func parseCategory(_ category: OperationCategory, data: Data, file: String) throws(CatalogueError) -> CategoryCatalogue {
        let root = try CatalogueJSON.parse(data, file: file)
        return try CatalogueDocumentReader(file: file).read(root, expected: category)
    }
}
