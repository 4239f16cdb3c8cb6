@testable import HTTPServer
import InsightCore
@testable import InsightService
import JSONStream

/// Checks shared by the request-decoder targets: whatever a decoder refuses becomes a well-formed problem+json
/// document, and no request *value* reaches it. Seeds plant values containing `CANARY`; a problem document
/// may name a field whose key holds the word (pointers repeat keys by design), never a value.
enum WireOracle {
    static let canary = Array("CANARY".utf8)

    static func checkProblem(_ problem: ServiceProblem, body: [UInt8]) {
        let response = ErrorResponder.response(for: problem)
        guard response.status.code >= 400, response.status.code < 500 else {
            fatalError("a request body produced status \(response.status.code)")
        }
        var reader = JSONReader(response.body)
        do {
            try reader.skipValue()
            try reader.finish()
        } catch {
            fatalError("problem document is not JSON")
        }
        checkNoValueEchoed(response.body, body: body)
    }

    static func checkViolations(_ violations: [ContextViolation], body: [UInt8]) {
        checkProblem(.invalidRequest(violations), body: body)
    }

    /// Fails when the canary appears in `output` while no key of the request holds it.
    static func checkNoValueEchoed(_ output: [UInt8], body: [UInt8]) {
        guard contains(output, canary), !keysContainCanary(body) else { return }
        fatalError("a request value was echoed in an error")
    }

    static func keysContainCanary(_ body: [UInt8]) -> Bool {
        var reader = JSONReader(body, maximumDepth: 64)
        var found = false
        func walk(_ reader: inout JSONReader) throws {
            switch try reader.peekKind() {
            case .object:
                try reader.readObject { key, reader in
                    if contains(Array(key.utf8), canary) { found = true }
                    try walk(&reader)
                }
            case .array: try reader.readArray { _, reader in try walk(&reader) }
            default: try reader.skipValue()
            }
        }
        // Broken JSON: its keys up to the break may still be echoed, so be lenient and treat any canary as a key.
        do { try walk(&reader) } catch { return contains(body, canary) }
        return found
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
