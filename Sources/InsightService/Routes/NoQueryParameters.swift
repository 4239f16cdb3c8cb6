import HTTPServer

/// Routes that take no query parameters refuse any, as the metrics route refuses the ones it does not know: a
/// parameter that would be ignored, such as `POST /v1/labels?dryRun=1`, must not look honoured while the write
/// happens.
enum NoQueryParameters {
    static func check(_ request: HTTPRequest, expected: String = "it takes none") throws(ServiceProblem) {
        guard let item = request.queryItems.first else { return }
        throw .notAParameter(item.name, expected: expected)
    }
}
