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
        // A name sent twice is one mistake, named once (`?x=1&x=2`); distinct names are one error each, as a body's
        // unknown members are, even those whose names are not repeated and so read alike (authorization probe,
        // 6 December: `?a%40b=1&c%20d=2&e.f=3` came back as one error).
        var problems: [ContextViolation] = []
        var names = Set<String>()
        for item in request.queryItems where names.insert(item.name).inserted {
            problems.append(ServiceProblem.notAParameterViolation(item.name, expected: expected))
        }
        return problems
    }
}
