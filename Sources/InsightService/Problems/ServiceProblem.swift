import HTTPServer
import InsightCore

/// Every error the API answers with, mapped to its status and RFC 9457 problem document in this one place.
/// Details are built from field paths and catalogue facts only; no request value is ever echoed.
public enum ServiceProblem: Error, HTTPResponseError, Equatable {
    /// The body is not JSON.
    case malformedJSON(offset: Int)
    /// The body is JSON of the wrong shape: unknown or duplicate fields, wrong types, missing fields.
    case invalidRequest([ContextViolation])
    /// An evaluation-level error of the public API.
    case evaluation(EvaluationError)
    /// No key, or a key that does not open the door. `presentedBearer`: a Bearer credential was sent (and is wrong,
    /// unknown or revoked), which RFC 6750 §3.1 answers with `error="invalid_token"`; without one, no error code.
    case unauthenticated(presentedBearer: Bool)
    case forbiddenRole([KeyRole])
    case accessRevoked
    /// A sandbox override header sent with a production key.
    case overrideInProduction(header: String)
    /// A sandbox override header with a value that is not one of the allowed ones.
    case invalidOverride(header: String, allowed: [String])
    /// A header named like an override that is none of them (a misspelling), which would otherwise be ignored.
    case unknownOverride(header: String, known: [String])
    case notFound(String)
    case conflict(String)
    /// A consumption report different from the one already stored for the evaluation.
    case consumptionConflict
    /// An `Idempotency-Key` used before with a different body.
    case idempotencyKeyReused
    /// A label batch that would take its key past the bytes it may store today.
    case labelStorageQuotaExceeded(bytesPerDay: Int64, retryAfterSeconds: Int)
    /// A request header with a value outside its syntax (the value is not echoed).
    case invalidHeader(name: String, detail: String)
    /// Query or path parameters with problems, each named by its `pointer` (the parameter's name, or "" for a
    /// name that is not repeated).
    case invalidParameters([ContextViolation])
    case storageUnavailable

    /// One parameter with a problem.
    static func invalidParameter(name: String, detail: String) -> ServiceProblem {
        .invalidParameters([ContextViolation(pointer: name, code: "invalidParameter", detail: detail, parameter: .query)])
    }

    public var status: HTTPStatus {
        switch self {
        case .malformedJSON, .invalidRequest, .overrideInProduction, .invalidOverride, .unknownOverride, .invalidParameters, .invalidHeader: .badRequest
        case .evaluation(let error):
            switch error {
            case .contextInvalid: .badRequest
            case .denied: .forbidden
            case .rateLimitExceeded: .tooManyRequests
            case .serverError, .notAvailable: .serviceUnavailable
            }
        case .unauthenticated: .unauthorized
        case .forbiddenRole, .accessRevoked: .forbidden
        case .notFound: .notFound
        case .conflict, .consumptionConflict: .conflict
        case .idempotencyKeyReused: .unprocessableContent
        case .labelStorageQuotaExceeded: .tooManyRequests
        case .storageUnavailable: .serviceUnavailable
        }
    }

    public var problem: ProblemDetails {
        switch self {
        case .malformedJSON(let offset):
            return ProblemDetails(slug: "malformed-json", status: status, title: "Malformed JSON", detail: "The body is not valid JSON (at byte \(offset)).")
        case .invalidRequest(let violations):
            var problem = ProblemDetails(slug: "invalid-request", status: status, title: "Invalid request", detail: summary(violations))
            problem.errors = listed(violations)
            return problem
        case .evaluation(let error):
            var problem: ProblemDetails
            switch error {
            case .contextInvalid(let violations):
                problem = ProblemDetails(slug: "context-invalid", status: status, title: "Context invalid", detail: summary(violations))
                problem.errors = listed(violations)
            case .denied:
                problem = ProblemDetails(slug: "denied", status: status, title: "Denied", detail: "The person has turned this protection off for this app.")
            case .rateLimitExceeded(let rejection):
                problem = ProblemDetails(
                    slug: "rate-limit-exceeded", status: status, title: "Rate limit exceeded",
                    detail: "Too many requests for this \(rejection.scope == "device" ? "device" : "key") (policy \(rejection.scope)); retry after \(rejection.retryAfterSeconds) s.")
            case .serverError:
                problem = ProblemDetails(slug: "server-error", status: status, title: "Server error", detail: "The evaluation could not be completed; a retry may work.")
            case .notAvailable:
                problem = ProblemDetails(slug: "not-available", status: status, title: "Not available", detail: "The service cannot evaluate this operation now (after a restart it first restores its velocity state); retry after Retry-After seconds.")
            }
            problem.extensions = ["evaluationError": error.code]
            return problem
        case .unauthenticated:
            return ProblemDetails(slug: "unauthenticated", status: status, title: "Unauthenticated", detail: "Send a valid key as 'Authorization: Bearer <secret>'.")
        case .forbiddenRole(let roles):
            return ProblemDetails(slug: "forbidden", status: status, title: "Forbidden", detail: "This route needs a key with role \(roles.map(\.rawValue).joined(separator: " or ")).")
        case .accessRevoked:
            return ProblemDetails(slug: "access-revoked", status: status, title: "Access revoked", detail: "This key was suspended for not reporting consumption; an operator must reinstate it.")
        case .overrideInProduction(let header):
            let named = Self.overrideHeader(header)
            var problem = ProblemDetails(slug: "override-not-allowed", status: status, title: "Override not allowed", detail: "\(named.phrase) is honoured only for sandbox keys.")
            problem.errors = [.init(pointer: named.pointer, detail: "is honoured only for sandbox keys", location: .header)]
            return problem
        case .invalidOverride(let header, let allowed):
            let detail = "must be one of: \(allowed.joined(separator: ", "))"
            var problem = ProblemDetails(slug: "invalid-override", status: status, title: "Invalid override", detail: "The header \(header) \(detail).")
            problem.errors = [.init(pointer: header, detail: detail, location: .header)]
            return problem
        case .unknownOverride(let header, let known):
            let named = Self.overrideHeader(header)
            let detail = "is not a sandbox override; the overrides are \(known.joined(separator: ", "))"
            var problem = ProblemDetails(slug: "invalid-override", status: status, title: "Invalid override", detail: "\(named.phrase) \(detail).")
            problem.errors = [.init(pointer: named.pointer, detail: detail, location: .header)]
            return problem
        case .notFound(let what):
            return ProblemDetails(slug: "not-found", status: status, title: "Not Found", detail: "\(what) was not found.")
        case .conflict(let detail):
            return ProblemDetails(slug: "conflict", status: status, title: "Conflict", detail: detail)
        case .consumptionConflict:
            return ProblemDetails(slug: "consumption-conflict", status: status, title: "Consumption already reported", detail: "A different consumption report is already stored for this evaluation; only one is allowed.")
        case .idempotencyKeyReused:
            return ProblemDetails(slug: "idempotency-key-reused", status: status, title: "Idempotency key reused", detail: "This Idempotency-Key was used before with a different body; use a new key for a new request.")
        case .labelStorageQuotaExceeded(let bytesPerDay, let retryAfterSeconds):
            return ProblemDetails(
                slug: "label-storage-quota-exceeded", status: status, title: "Label storage quota exceeded",
                detail: "This batch would take the key past what its label batches may store per UTC day (\(bytesPerDay) bytes of labels and idempotency answers); nothing of it was stored; a smaller batch may still fit. Retry after \(retryAfterSeconds) s, when the key may store it, or ask the operator to raise labels.storedBytesPerKeyPerDay.")
        case .invalidHeader(let name, let detail):
            // Named like a query or path parameter: by its name, as there is no body to point into.
            var problem = ProblemDetails(slug: "invalid-header", status: status, title: "Invalid header", detail: "\(name) \(detail)")
            problem.errors = [.init(pointer: name, detail: detail, location: .header)]
            return problem
        case .invalidParameters(let violations):
            var summary = "A parameter is invalid."
            if let first = violations.first {
                summary = (first.pointer.isEmpty ? "The query \(first.detail)" : "\(first.pointer) \(first.detail)")
                    + Self.remainder(violations)
            }
            var problem = ProblemDetails(slug: "invalid-parameter", status: status, title: "Invalid parameter", detail: summary)
            problem.errors = listed(violations)
            return problem
        case .storageUnavailable:
            return ProblemDetails(slug: "storage-unavailable", status: status, title: "Storage unavailable", detail: "The record could not be stored; retry later.")
        }
    }

    public var headers: HTTPFields {
        var fields = HTTPFields()
        switch self {
        case .unauthenticated(let presentedBearer):
            fields.set(
                "WWW-Authenticate",
                presentedBearer ? "Bearer realm=\"trust-insights\", error=\"invalid_token\"" : "Bearer realm=\"trust-insights\"")
        // RFC 6750 §3: a request whose credentials do not give access gets a challenge whatever the status, with
        // the error codes of §3.1: two credentials are `invalid_request` (400), a key of another role is
        // `insufficient_scope` (403).
        case .invalidHeader(name: "Authorization", _):
            fields.set("WWW-Authenticate", "Bearer realm=\"trust-insights\", error=\"invalid_request\"")
        case .forbiddenRole:
            fields.set("WWW-Authenticate", "Bearer realm=\"trust-insights\", error=\"insufficient_scope\"")
        case .evaluation(.rateLimitExceeded(let rejection)):
            fields.set("Retry-After", String(rejection.retryAfterSeconds))
            fields.set("RateLimit-Policy", RateLimitFields.policy(rejection.scope, rejection.limit))
            fields.set("RateLimit", RateLimitFields.current(rejection.scope, remaining: 0, resetSeconds: rejection.resetSeconds))
        case .labelStorageQuotaExceeded(_, let retryAfterSeconds):
            fields.set("Retry-After", String(retryAfterSeconds))
        case .evaluation(.serverError), .evaluation(.notAvailable), .storageUnavailable:
            fields.set("Retry-After", "1")
        default:
            break
        }
        return fields
    }

    /// The most `errors` lists. A body of a thousand one-letter unknown fields would otherwise get an answer ten
    /// times its size; `detail` still gives the whole count.
    static let maximumListedErrors = 32

    private func listed(_ violations: [ContextViolation]) -> [ProblemDetails.FieldError] {
        violations.prefix(Self.maximumListedErrors).map { violation in
            .init(pointer: violation.pointer, detail: violation.detail, location: violation.parameter.map { $0 == .query ? .query : .path })
        }
    }

    private func summary(_ violations: [ContextViolation]) -> String {
        guard let first = violations.first else { return "The request is invalid." }
        let location = first.pointer.isEmpty ? "the body" : first.pointer
        return "\(location) \(first.detail)" + Self.remainder(violations)
    }

    /// How an answer names a header that starts like an override: by its name when that reads like a field name,
    /// as body members and query parameters are; otherwise (a name that may hold personal data, or kilobytes) by
    /// the prefix alone, so that the answer neither repeats it nor grows with it.
    private static func overrideHeader(_ name: String) -> (pointer: String, phrase: String) {
        guard !JSONPointer.isEchoable(name) else { return (name, "The header \(name)") }
        let family = SandboxOverrideHeaders.prefix + "*"
        return (family, "A header named \(family) (\(JSONPointer.unrepeatedNameReason))")
    }

    /// What a `detail` naming the first problem adds about the others: their count, and that `errors` is cut.
    private static func remainder(_ violations: [ContextViolation]) -> String {
        guard violations.count > 1 else { return "" }
        let more = " (and \(violations.count - 1) more"
        return violations.count > maximumListedErrors ? more + "; errors lists the first \(maximumListedErrors))" : more + ")"
    }
}

extension ServiceProblem {
    init(_ error: ConsumptionError) {
        switch error {
        case .evaluationNotFound: self = .notFound("The evaluation")
        case .invalid(let violations): self = .invalidRequest(violations)
        case .conflict: self = .consumptionConflict
        case .storageFailed: self = .storageUnavailable
        }
    }

    init(_ error: LabelError) {
        switch error {
        case .idempotencyKeyReused: self = .idempotencyKeyReused
        case .storageQuotaExceeded(let bytesPerDay, let retryAfterSeconds):
            self = .labelStorageQuotaExceeded(bytesPerDay: bytesPerDay, retryAfterSeconds: retryAfterSeconds)
        case .storageFailed: self = .storageUnavailable
        }
    }

    init(_ error: AccessError, presentedBearer: Bool = false) {
        switch error {
        case .unauthenticated: self = .unauthenticated(presentedBearer: presentedBearer)
        case .accessRevoked: self = .accessRevoked
        case .forbiddenRole(let roles): self = .forbiddenRole(roles)
        }
    }
}

extension ServiceProblem {
    /// A query parameter the route does not take, named only when the name is safe to echo. Otherwise the
    /// pointer is empty (the query as a whole, as a body's unnamed member points at its object) and the detail
    /// says why the name is not repeated.
    static func notAParameter(_ name: String, expected: String) -> ServiceProblem {
        .invalidParameters([notAParameterViolation(name, expected: expected)])
    }

    static func notAParameterViolation(_ name: String, expected: String) -> ContextViolation {
        let detail: String
        if name.isEmpty {
            detail = "holds a parameter without a name (\(expected))"
        } else if !JSONPointer.isEchoable(name) {
            detail = "holds a parameter that is not one of this route's (\(expected); \(JSONPointer.unrepeatedNameReason))"
        } else {
            return ContextViolation(pointer: name, code: "unknownField", detail: "is not a parameter of this route (\(expected))", parameter: .query)
        }
        return ContextViolation(pointer: "", code: "unknownField", detail: detail, parameter: .query)
    }
}
