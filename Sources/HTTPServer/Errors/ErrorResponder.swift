import FoundationEssentials

/// The single place where a thrown error becomes a response.
enum ErrorResponder {
    static func response(for error: any Error) -> HTTPResponse {
        if let known = error as? any HTTPResponseError {
            return problemResponse(status: known.status, problem: known.problem, headers: known.headers)
        }
        // Unknown errors may carry internal state (paths, values): nothing of them reaches the client.
        let problem = ProblemDetails(slug: "internal-error", status: .internalServerError)
        return problemResponse(status: .internalServerError, problem: problem, headers: HTTPFields())
    }

    static func problemResponse(status: HTTPStatus, problem: ProblemDetails, headers: HTTPFields) -> HTTPResponse {
        var fields = headers
        fields.set("Content-Type", "application/problem+json")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        let body = (try? encoder.encode(problem)).map(Array.init)
            ?? Array(#"{"title":"Internal Server Error","status":500}"#.utf8)
        return HTTPResponse(status: status, headers: fields, body: body)
    }
}
