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
        // A name sent twice is one mistake, named once (`?x=1&x=2`, or two names that are not repeated).
        var problems: [ContextViolation] = []
        for item in request.queryItems {
            let problem = ServiceProblem.notAParameterViolation(item.name, expected: expected)
            if !problems.contains(problem) { problems.append(problem) }
        }
        return problems
    }
}
