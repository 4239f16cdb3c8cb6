import HTTPServer
import InsightCore

/// Routes that take no query parameters refuse any, as the metrics route refuses the ones it does not know: a
/// parameter that would be ignored, such as `POST /v1/labels?dryRun=1`, must not look honoured while the write
/// happens. Every parameter is named, as the metrics route names them, so that one answer lists them all.
enum NoQueryParameters {
    static func check(_ request: HTTPRequest, expected: String = "it takes none") throws(ServiceProblem) {
        let problems = violations(request, expected: expected)
        guard problems.isEmpty else { throw .invalidParameters(problems) }
    }

    static func violations(_ request: HTTPRequest, expected: String = "it takes none") -> [ContextViolation] {
        guard request.query != nil else { return [] }
        return request.queryItems.map { ServiceProblem.notAParameterViolation($0.name, expected: expected) }
    }
}
