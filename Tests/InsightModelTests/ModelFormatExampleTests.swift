import FoundationEssentials
import Testing
@testable import InsightModel

/// The model document shown in docs/MODEL-FORMAT.md is one the loader takes: a reader who copies it gets a model,
/// not a refusal (it once held `0.8471283`, which is no float32 value, and was refused).
@Suite struct ModelFormatExampleTests {
    static let documentation = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/MODEL-FORMAT.md")

    /// The first fenced JSON block after the "## The document" heading.
    static func example() throws -> String {
        let text = String(decoding: try Data(contentsOf: documentation), as: UTF8.self)
        let section = try #require(text.range(of: "## The document"))
        let opening = try #require(text.range(of: "```json\n", range: section.upperBound..<text.endIndex))
        let closing = try #require(text.range(of: "\n```", range: opening.upperBound..<text.endIndex))
        return String(text[opening.upperBound..<closing.lowerBound])
    }

    @Test func theDocumentedExampleLoadsValidatesAndScores() throws {
        let document = try ModelDocument(jsonData: Data(try Self.example().utf8))
        try ModelValidator.validate(document)
        let model = try CompiledModel(document: document, file: "MODEL-FORMAT.md")
        #expect(document.featureNames == ["f0", "f1", "f2"])
        #expect(model.featureCount == 3)
        // f0 below the root's threshold goes left (-0.03 as float32), at or above it right (0.25), onto the base margin.
        let base = Float(-3.875636577606201)
        #expect(model.margin(for: [0.5, 0, 0]) == Double(base + Float(-0.03)))
        #expect(model.margin(for: [0.9, 0, 0]) == Double(base + Float(0.25)))
    }
}
