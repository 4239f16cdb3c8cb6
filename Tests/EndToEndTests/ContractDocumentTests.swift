import Foundation
import Testing
@testable import TrustInsightsApp

@Suite struct ContractDocumentTests {
    @Test func servesTheRepositorysOpenAPIDocumentWithoutAKey() throws {
        let service = try LiveService()
        let response = try service.client().request("GET", "/openapi.yaml")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/yaml")
        // The binary embeds the file at build time: the answer must be byte-identical to the repository's copy,
        // or the build that serves it is stale.
        let onDisk = try #require(FileManager.default.contents(atPath: LiveService.repositoryRoot + "/docs/openapi.yaml"))
        let identical = response.body == Array(onDisk)
        #expect(identical, "GET /openapi.yaml (\(response.body.count) bytes) differs from docs/openapi.yaml (\(onDisk.count) bytes): rebuild")
        #expect(response.text.hasPrefix("openapi: 3.1."))
    }
}
