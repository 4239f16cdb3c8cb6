import Foundation
import Testing
@testable import InsightCore

@Suite("Catalogue documentation")
struct CatalogueDocsTests {
    @Test func featuresDocumentListsEveryFeatureOfEveryCategory() throws {
        let text = try String(contentsOfFile: CatalogueTestSupport.packageRoot + "/docs/FEATURES.md", encoding: .utf8)
        let catalogue = try CatalogueTestSupport.shippedCatalogue()
        for category in OperationCategory.allCases {
            let start = try #require(text.range(of: "\n## \(category.rawValue)\n"), "no section for \(category)")
            let section = text[start.upperBound...].prefix { _ in true }
            let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
            let body = section[..<end]
            for feature in catalogue[category].features {
                #expect(body.contains("| `\(feature.name)` | \(feature.type.rawValue) |"), "\(category).\(feature.name) missing from docs/FEATURES.md")
            }
        }
    }
}
