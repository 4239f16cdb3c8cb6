import Foundation
import InsightCore
import Testing
@testable import TrustInsightsApp

/// Who may do what, cell by cell: every route of openapi.yaml against every kind of caller, on the live service,
/// with the exact status and problem type of each answer. A new route is one more row in `matrix` (the test fails
/// while openapi.yaml has an operation without a row). docs/SECURITY.md explains each column.
@Suite(.serialized) struct AccessMatrixTests {
    /// The columns. Keys belong to tenant `acme` unless said otherwise; the resources a row touches (evaluations,
    /// insights, the subject's authorization state) belong to acme and were made with acme's sandbox client key.
    enum Caller: CaseIterable {
        /// acme's sandbox keys, one per role.
        case client, partner, analyst
        /// A key of the row's own role in another tenant, `globex`.
        case otherTenant
        /// A key of the row's role, revoked (`keys revoke`).
        case revoked
        /// A key of the row's role, suspended for not reporting consumption.
        case suspended
        /// A production key of the row's role presented as a sandbox key (`ti_production_` rewritten to
        /// `ti_sandbox_`): an attempt to get sandbox powers, such as forced outcomes, with a production key.
        case sandboxLabelOnProductionKey
        /// A production key of the row's role sending a sandbox override header.
        case productionWithOverride
        /// No `Authorization` header.
        case noKey
    }

    enum Expect: CustomStringConvertible {
        /// A success with this status; when given, the body must contain the text (e.g. an item's result).
        case status(Int, containing: String?)
        /// A problem document with this status and `type` slug.
        case problem(Int, String)

        var description: String {
            switch self {
            case .status(let code, let text): text.map { "\(code) containing \($0)" } ?? "\(code)"
            case .problem(let code, let slug): "\(code) \(slug)"
            }
        }
    }

    enum Body {
        case none, evaluation, consumption, authorization, label
    }

    struct Row {
        var method: String
        var path: String
        var body: Body
        /// The role whose keys fill the role-neutral columns (other tenant, revoked, ...).
        var role: KeyRole
        /// Routes other branches are adding: a row whose route still answers 404 is reported, not failed.
        var planned = false
        var cells: [Expect]
    }

    // Shorthands, so that a row reads as a line of the table in docs/SECURITY.md.
    static func ok(_ code: Int = 200, _ text: String? = nil) -> Expect { .status(code, containing: text) }
    static let unauthenticated = Expect.problem(401, "unauthenticated")
    static let forbidden = Expect.problem(403, "forbidden")
    static let accessRevoked = Expect.problem(403, "access-revoked")
    static let notFound = Expect.problem(404, "not-found")
    static let overrideRefused = Expect.problem(400, "override-not-allowed")
    static let publicRoute = Array(repeating: ok(), count: Caller.allCases.count)

    static let authorized = #""status":"authorized""#
    static let notDetermined = #""status":"notDetermined""#
    static let accepted = #""result":"accepted""#
    static let labelNotFound = #""result":"notFound""#
    static let suspendedStanding = #""standing":"suspended""#

    /// {evaluationID} is a fresh acme evaluation per cell; {subjectRef} an account acme's sandbox key authorized.
    /// Feedback stays inside an environment: acme's production keys cannot see its sandbox evaluations.
    static let matrix: [Row] = [
        // cells: client, partner, analyst, otherTenant, revoked, suspended, sandboxLabelOnProductionKey, productionWithOverride, noKey
        Row(method: "POST", path: "/v1/evaluations", body: .evaluation, role: .client, cells: [ok(), forbidden, forbidden, ok(), unauthenticated, accessRevoked, unauthenticated, overrideRefused, unauthenticated]),
        Row(method: "POST", path: "/v1/evaluations/{evaluationID}/consumption", body: .consumption, role: .client, cells: [ok(201), forbidden, forbidden, notFound, unauthenticated, ok(201), unauthenticated, notFound, unauthenticated]),
        Row(method: "GET", path: "/v1/authorization/{subjectRef}", body: .none, role: .client, cells: [ok(200, authorized), forbidden, forbidden, ok(200, notDetermined), unauthenticated, accessRevoked, unauthenticated, ok(200, notDetermined), unauthenticated]),
        // The body is an opt-in, which a suspended key may still record (an opt-out it may not: RateLimitAPITests).
        Row(method: "PUT", path: "/v1/authorization/{subjectRef}", body: .authorization, role: .client, cells: [ok(), forbidden, forbidden, ok(), unauthenticated, ok(), unauthenticated, ok(), unauthenticated]),
        Row(method: "POST", path: "/v1/labels", body: .label, role: .partner, cells: [forbidden, ok(200, accepted), forbidden, ok(200, labelNotFound), unauthenticated, accessRevoked, unauthenticated, ok(200, labelNotFound), unauthenticated]),
        Row(method: "GET", path: "/v1/models", body: .none, role: .client, cells: [ok(), ok(), ok(), ok(), unauthenticated, accessRevoked, unauthenticated, ok(), unauthenticated]),
        Row(method: "GET", path: "/v1/metrics/labels", body: .none, role: .analyst, cells: [forbidden, forbidden, ok(), ok(), unauthenticated, accessRevoked, unauthenticated, ok(), unauthenticated]),
        Row(method: "GET", path: "/v1/compliance", body: .none, role: .client, cells: [ok(), forbidden, forbidden, ok(), unauthenticated, ok(200, suspendedStanding), unauthenticated, ok(), unauthenticated]),
        Row(method: "GET", path: "/v1/signing-keys", body: .none, role: .client, cells: publicRoute),
        Row(method: "GET", path: "/healthz", body: .none, role: .client, cells: publicRoute),
        Row(method: "GET", path: "/readyz", body: .none, role: .client, cells: publicRoute),
        Row(method: "GET", path: "/metrics", body: .none, role: .client, cells: publicRoute),
        Row(method: "GET", path: "/openapi.yaml", body: .none, role: .client, cells: publicRoute),
    ]

    /// The keys of every column.
    struct Keys {
        var owner: [KeyRole: String] = [:]
        var otherTenant: [KeyRole: String] = [:]
        var revoked: [KeyRole: String] = [:]
        var suspended: [KeyRole: String] = [:]
        var production: [KeyRole: String] = [:]

        init(_ service: LiveService) throws {
            for role in KeyRole.allCases {
                owner[role] = try service.key(tenant: "acme", role: role)
                otherTenant[role] = try service.key(tenant: "globex", role: role)
                revoked[role] = try service.key(tenant: "acme", role: role)
                suspended[role] = try service.key(tenant: "acme", role: role)
                production[role] = try service.key(tenant: "acme", role: role, environment: .production)
            }
            let now = Clock.nowMilliseconds()
            for role in KeyRole.allCases {
                try service.runtime.store.setKeyStatus(keyID: Self.keyID(revoked[role]!), to: .revoked, now: now)
                try service.runtime.store.setKeyStatus(keyID: Self.keyID(suspended[role]!), to: .suspended, now: now)
            }
        }

        /// `ti_<environment>_<keyID>_<random>`.
        static func keyID(_ secret: String) -> String { String(secret.split(separator: "_")[2]) }

        func authorization(for caller: Caller, role: KeyRole) -> String? {
            switch caller {
            case .client: owner[.client]
            case .partner: owner[.partner]
            case .analyst: owner[.analyst]
            case .otherTenant: otherTenant[role]
            case .revoked: revoked[role]
            case .suspended: suspended[role]
            case .sandboxLabelOnProductionKey: production[role]!.replacingOccurrences(of: "ti_production_", with: "ti_sandbox_")
            case .productionWithOverride: production[role]
            case .noKey: nil
            }
        }
    }

    @Test func everyRouteAnswersEveryCallerExactlyAsTheTableSays() throws {
        let service = try LiveService()
        let keys = try Keys(service)
        let subjectRef = "acct-matrix"
        let set = try service.client().request("PUT", "/v1/authorization/\(subjectRef)", headers: [
            ("Authorization", "Bearer \(keys.owner[.client]!)"), ("Content-Type", "application/json"),
        ], body: Array(#"{"status": "authorized"}"#.utf8))
        #expect(set.status == 200)

        var absent: [String] = []
        for row in Self.matrix {
            #expect(row.cells.count == Caller.allCases.count, "\(row.method) \(row.path): one cell per caller")
            var answers: [(Caller, Expect, SocketClient.Response)] = []
            for (caller, expected) in zip(Caller.allCases, row.cells) {
                let response = try call(row, as: caller, keys: keys, subjectRef: subjectRef, service: service)
                answers.append((caller, expected, response))
            }
            if row.planned, answers.allSatisfy({ $0.2.status == 404 }) {
                absent.append("\(row.method) \(row.path)")
                continue
            }
            for (caller, expected, response) in answers {
                check(response, expected, "\(row.method) \(row.path) as \(caller)")
            }
        }
        if !absent.isEmpty { print("AccessMatrixTests: planned routes not in this build yet: \(absent.joined(separator: ", "))") }
    }

    @Test func everyOperationOfTheContractHasARow() throws {
        let document = try String(contentsOfFile: LiveService.repositoryRoot + "/docs/openapi.yaml", encoding: .utf8)
        let documented = Set(Self.operations(in: document))
        let tabled = Set(Self.matrix.map { "\($0.method) \($0.path)" })
        #expect(!documented.isEmpty)
        #expect(documented.subtracting(tabled).sorted() == [], "operations in openapi.yaml without a row in the access matrix")
        #expect(tabled.subtracting(documented).sorted() == [], "rows for operations openapi.yaml does not have")
    }

    /// Conditional requests reach every operation, keyed or not (RFC 9110 §13): openapi.yaml must list the `412`
    /// and, for a `GET`, the `304` each one answers, or a client generated from it meets statuses it was never told of.
    @Test func everyOperationListsTheConditionalAnswersItGives() throws {
        let service = try LiveService()
        let keys = try Keys(service)
        let document = try String(contentsOfFile: LiveService.repositoryRoot + "/docs/openapi.yaml", encoding: .utf8)
        let subjectRef = "acct-conditional"
        for row in Self.matrix {
            let owner: Caller = switch row.role { case .client: .client; case .partner: .partner; case .analyst: .analyst }
            let listed = Self.responseCodes(in: document, method: row.method, path: row.path)
            #expect(!listed.isEmpty, "\(row.method) \(row.path): no responses found in openapi.yaml")
            var conditions: [(header: (String, String), status: Int)] = [(("If-Match", #""not-held""#), 412)]
            if row.method == "GET" { conditions.append((("If-None-Match", "*"), 304)) }
            for condition in conditions {
                let response = try call(
                    row, as: owner, keys: keys, subjectRef: subjectRef, service: service, extraHeaders: [condition.header])
                #expect(response.status == condition.status,
                        "\(row.method) \(row.path) with \(condition.header.0): \(condition.header.1) answered \(response.status)")
                #expect(listed.contains(response.status),
                        "\(row.method) \(row.path) answers \(response.status) to \(condition.header.0), which openapi.yaml does not list")
            }
        }
    }

    // MARK: - Cells

    private func call(
        _ row: Row, as caller: Caller, keys: Keys, subjectRef: String, service: LiveService,
        extraHeaders: [(String, String)] = []
    ) throws -> SocketClient.Response {
        var path = row.path.replacingOccurrences(of: "{subjectRef}", with: subjectRef)
        var evaluated: LiveService.Evaluated?
        if path.contains("{evaluationID}") || row.body == .label {
            // A device of its own per fixture: the matrix's own evaluation cells use the shared one, whose burst
            // (20) they come close to, and how many refills a run gets depends on the machine's speed.
            evaluated = try service.evaluate(
                key: keys.owner[.client]!, account: "acct-matrix-fixture", device: "dev-fixture-\(UUID().uuidString)")
            path = path.replacingOccurrences(of: "{evaluationID}", with: evaluated!.evaluationID)
        }
        var headers: [(String, String)] = []
        if let key = keys.authorization(for: caller, role: row.role) { headers.append(("Authorization", "Bearer \(key)")) }
        if caller == .productionWithOverride { headers.append(("Trust-Insights-Override-Outcome", "high")) }
        let body: String?
        switch row.body {
        case .none: body = nil
        case .evaluation: body = String(decoding: Requests.payment(), as: UTF8.self)
        case .consumption: body = #"{"status": "usedEvaluationOnly", "insightIDsUsed": []}"#
        case .authorization: body = #"{"status": "authorized"}"#
        case .label:
            let today = String(Date().ISO8601Format().prefix(10))
            body = #"{"items": [{"insightID": "\#(evaluated!.insightIDs[0])", "label": "confirmedFraud", "fraudType": "techSupport", "occurredOn": "\#(today)"}]}"#
        }
        if body != nil { headers.append(("Content-Type", "application/json")) }
        headers += extraHeaders
        return try service.client().request(row.method, path, headers: headers, body: body.map { Array($0.utf8) })
    }

    private func check(_ response: SocketClient.Response, _ expected: Expect, _ cell: String) {
        switch expected {
        case .status(let code, let text):
            #expect(response.status == code, "\(cell): expected \(expected), got \(response.status) \(problemType(response) ?? "")")
            if let text { #expect(response.text.contains(text), "\(cell): expected the body to contain \(text)") }
        case .problem(let code, let slug):
            #expect(response.status == code, "\(cell): expected \(expected), got \(response.status) \(problemType(response) ?? "")")
            #expect(response.header("Content-Type") == "application/problem+json", "\(cell): a problem document")
            #expect(problemType(response) == "https://trust-insights.dev/problems/" + slug, "\(cell): expected type \(slug)")
            if code == 401 { #expect(response.header("WWW-Authenticate")?.hasPrefix("Bearer") == true, "\(cell): WWW-Authenticate") }
            // RFC 6750 §3.1: a key of another role is a credential without the scope; a suspended key's 403 is no
            // matter of scope and carries no challenge.
            if slug == "forbidden" {
                #expect(response.header("WWW-Authenticate") == #"Bearer realm="trust-insights", error="insufficient_scope""#, "\(cell): challenge")
            } else if slug == "access-revoked" {
                #expect(response.header("WWW-Authenticate") == nil, "\(cell): no challenge")
            }
        }
    }

    private func problemType(_ response: SocketClient.Response) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])?["type"] as? String
    }

    /// The status codes an operation's `responses:` lists (eight-space `'NNN':` keys under its four-space method key).
    static func responseCodes(in document: String, method: String, path: String) -> Set<Int> {
        var codes: Set<Int> = []
        var currentPath: String?
        var inOperation = false
        for line in document.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                currentPath = String(line.dropFirst(2).dropLast())
                inOperation = false
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                inOperation = currentPath == path && line.trimmingCharacters(in: .whitespaces) == method.lowercased() + ":"
            } else if !line.isEmpty, !line.hasPrefix(" ") {
                currentPath = nil
                inOperation = false
            } else if inOperation, line.hasPrefix("        '"), !line.hasPrefix("         "),
                      let code = Int(line.dropFirst(9).prefix(3)), line.dropFirst(12).hasPrefix("':") {
                codes.insert(code)
            }
        }
        return codes
    }

    /// "METHOD /path" for each operation under `paths:` (two-space path keys, four-space method keys).
    static func operations(in document: String) -> [String] {
        var result: [String] = []
        var inPaths = false
        var path: String?
        for line in document.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "paths:" { inPaths = true; continue }
            guard inPaths else { continue }
            if !line.isEmpty, !line.hasPrefix(" "), !line.hasPrefix("#") { break }
            if line.hasPrefix("  /"), line.hasSuffix(":"), !line.hasPrefix("   ") {
                path = String(line.dropFirst(2).dropLast())
            } else if let path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
                let method = line.trimmingCharacters(in: .whitespaces).dropLast()
                if ["get", "put", "post", "delete", "patch"].contains(String(method)) { result.append("\(method.uppercased()) \(path)") }
            }
        }
        return result
    }
}
