import Foundation
import Testing
import InsightCore
import JSONStream
@testable import InsightService

@Suite struct MetricsWireTests {
    let tenant = TenantID("acme")!
    let today: Int64 = 20_413  // 2025-11-21

    func decode(_ items: [(String, String)], key: DeploymentEnvironment? = .production) throws(ServiceProblem) -> MetricsRequest {
        try MetricsRequestDecoder.decode(items.map { (name: $0.0, value: $0.1) }, tenant: tenant, keyEnvironment: key, today: today)
    }

    /// The `invalid-parameter` refusal of `items`; records an issue (and returns nil) if they are accepted or refused
    /// otherwise.
    func refusal(_ items: [(String, String)]) -> (name: String, detail: String, error: ServiceProblem)? {
        do {
            _ = try decode(items)
            Issue.record("\(items) was accepted")
        } catch {
            if case .invalidParameters(let problems) = error, let first = problems.first { return (first.pointer, first.detail, error) }
            Issue.record("\(items): \(error)")
        }
        return nil
    }

    @Test func defaultsToTheLastNinetyDaysOfTheKeysEnvironmentAsJSON() throws {
        let request = try decode([])
        #expect(request.query.days == (today - 89)...today)
        #expect(request.query.environments == [.production])
        #expect(request.query.groupBy == [])
        #expect(request.format == .json)
        #expect(try decode([], key: .sandbox).query.environments == [.sandbox])
        #expect(try decode([], key: nil).query.environments == [.production])
        #expect(try decode([("environment", "all")], key: nil).query.environments == [.sandbox, .production])
        // The default range starts no earlier than the earliest `from` accepted.
        #expect(try decode([("to", "1970-01-05")]).query.days == 0...4)
        #expect(try decode([("to", "1970-03-31")]).query.days == 0...89)
    }

    @Test func readsEveryParameter() throws {
        let request = try decode([("from", "2025-01-01"), ("to", "2025-01-31"), ("groupBy", "outcome,category"), ("format", "csv"), ("environment", "all")])
        #expect(request.query.days == Timestamp.days(fromDate: "2025-01-01")!...Timestamp.days(fromDate: "2025-01-31")!)
        #expect(request.query.groupBy == [.outcome, .category])
        #expect(request.format == .csv)
        #expect(request.query.environments == [.sandbox, .production])
    }

    @Test func problemsNameTheParameterAndNeverEchoTheValue() {
        let cases: [([(String, String)], String)] = [
            ([("groupBy", "outcome,secret-canary")], "groupBy"), ([("groupBy", "outcome,")], "groupBy"),
            ([("from", "secret-canary")], "from"), ([("from", "2025-02-01"), ("to", "2025-01-01")], "from"),
            ([("format", "secret-canary")], "format"), ([("environment", "secret-canary")], "environment"),
            ([("to", "2025-02-29")], "to"), ([("limit", "1")], "limit"), ([("to", "2025-01-01"), ("to", "2025-01-02")], "to"),
        ]
        for (items, parameter) in cases {
            guard let (name, detail, error) = refusal(items) else { continue }
            #expect(name == parameter)
            #expect(!detail.contains("secret-canary"))
            #expect(error.status == .badRequest)
        }
    }

    /// A parameter name that looks like personal data is not repeated: the pointer is the query as a whole.
    @Test func anUnknownParameterIsNamedOnlyWhenItsNameIsSafeToRepeat() {
        for (name, pointer) in [("limit", "limit"), ("jane@example.com", ""), (String(repeating: "a", count: 65), "")] {
            guard let (named, detail, error) = refusal([(name, "1")]) else { continue }
            #expect(named == pointer)
            #expect(!detail.contains("jane"))
            #expect(error.problem.detail?.contains("jane") == false)
            #expect(error.problem.errors?.first?.pointer == pointer)
        }
    }

    /// At most 1830 days, both ends counted (API.md, openapi.yaml); a date before 1970 is named as such.
    @Test func theRangeHoldsAtMost1830DaysAndDatesStartIn1970() throws {
        #expect(try decode([("from", "2021-11-18"), ("to", "2026-11-21")]).query.days.count == 1830)
        #expect(throws: ServiceProblem.invalidParameter(name: "from", detail: "makes a range of more than 1830 days (both ends count)")) {
            try decode([("from", "2021-11-17"), ("to", "2026-11-21")])
        }
        #expect(throws: ServiceProblem.invalidParameter(name: "to", detail: "must be a date as YYYY-MM-DD, 1970-01-01 or later")) {
            try decode([("to", "0001-03-31")])
        }
        #expect(throws: ServiceProblem.invalidParameter(name: "from", detail: "must be a date as YYYY-MM-DD, 1970-01-01 or later")) {
            try decode([("from", "1969-12-31"), ("to", "1970-01-05")])
        }
    }

    /// Every parameter with a problem is named in one answer, each once, so an analyst fixes them in one go.
    @Test func everyBadParameterIsNamedAtOnce() {
        do {
            _ = try decode([("a", "1"), ("b", "2"), ("from", "bad"), ("format", "xml"), ("to", "2025-01-01"), ("to", "2025-01-02"), ("to", "x")])
            Issue.record("bad parameters were accepted")
        } catch {
            guard case .invalidParameters(let problems) = error else { Issue.record("\(error)"); return }
            #expect(problems.map(\.pointer) == ["a", "b", "to", "from", "format"])
            #expect(error.problem.errors?.count == 5)
            #expect(error.problem.detail == "a is not a parameter of this route (expected from, to, groupBy, format, environment) (and 4 more)")
        }
        guard let (name, detail, _) = refusal([("", "x")]) else { return }
        #expect(name == "")
        #expect(detail == "holds a parameter without a name (expected from, to, groupBy, format, environment)")
    }

    @Test func sandboxKeysReadSandboxOnly() {
        #expect(throws: ServiceProblem.self) { try decode([("environment", "production")], key: .sandbox) }
        #expect(throws: ServiceProblem.self) { try decode([("environment", "all")], key: .sandbox) }
    }

    var report: LabelMetricsReport {
        let key = MetricsAggregate.Key(environment: .production, day: today - 40, category: .payment, modelVersion: "v1, \"beta\"", outcome: .high, consumption: .missing)
        let source = StaticSource(
            aggregates: [.init(key: key, evaluations: 25, late: 0, confirmedFraud: 12, confirmedLegitimate: 3)],
            latencies: [.init(key: key, latencyDays: 5, labels: 15)])
        let query = MetricsQuery(tenant: tenant, days: (today - 89)...today, groupBy: [.modelVersion], environments: [.production])
        return try! LabelMetrics(source: source, policy: MetricsPolicy(suppressionK: 10, maturityDays: 30)).report(query, now: today * 86_400_000)
    }

    @Test func csvQuotesFieldsAndNamesWithheldColumns() throws {
        let text = String(decoding: MetricsCSVEncoder.encode(report), as: UTF8.self)
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.first?.hasPrefix("day,modelVersion,mature,evaluations,consumption_usedReducedFriction,") == true)
        let quoted = #""v1, ""beta""""#
        #expect(lines[1].hasPrefix("all,\(quoted),true,25,"))
        let header = lines[0].components(separatedBy: ",")
        let row = lines[1].replacingOccurrences(of: quoted, with: "v1").components(separatedBy: ",")
        #expect(row.count == header.count)
        let value = { (name: String) in row[header.firstIndex(of: name)!] }
        #expect(value("confirmedFraud") == "12")
        #expect(value("confirmedLegitimate") == "")
        // The 3 legitimate labels are withheld, so the histogram's total is not known: the quantiles are withheld
        // with them (METRICS.md, rule 4), and named like any other withheld column.
        #expect(value("labelLatencyMedianDays") == "")
        let withheld = value("suppressed").components(separatedBy: ";")
        #expect(withheld.contains("labelLatencyMedianDays"))
        #expect(withheld.contains("confirmedLegitimate"))
        #expect(withheld.contains("consumption_late"))
        #expect(!withheld.contains("confirmedFraud"))
        #expect(!withheld.contains("evaluations"))
        #expect(lines[2].hasPrefix("2025-10-12,"))
        #expect(lines[2].hasSuffix(",confirmedLegitimate"))
        #expect(lines.last == "")
        #expect(lines[2].components(separatedBy: ",").count == header.count + 1, "the quoted version holds one comma")
    }

    /// A ratio reads alike in both formats: whole values without a fraction, as the JSON answer writes them.
    @Test func csvWritesRatiosAsTheJSONAnswerDoes() {
        var csv = CSVWriter(capacity: 64)
        var json = JSONWriter(capacity: 64)
        json.beginArray()
        for value in [0, 1, 1.0 / 3, 0.25, -0.0] {
            csv.ratio(value)
            json.double(value)
        }
        json.endArray()
        csv.ratio(nil)
        csv.ratio(.nan)
        csv.endRow()
        #expect(String(decoding: csv.bytes, as: UTF8.self) == "0,1,0.3333333333333333,0.25,0,,\r\n")
        #expect(String(decoding: json.bytes, as: UTF8.self) == "[0,1,0.3333333333333333,0.25,0]")
    }

    @Test func jsonIsValidAndWithheldFiguresAreNullAndListed() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(MetricsJSONEncoder.encode(report))) as? [String: Any])
        #expect(object["from"] as? String == "2025-08-24")
        let group = try #require((object["groups"] as? [[String: Any]])?.first)
        #expect(group["group"] as? [String: String] == ["modelVersion": "v1, \"beta\""])
        #expect(group["evaluations"] as? Int == 25)
        #expect((group["labels"] as? [String: Any])?["confirmedLegitimate"] is NSNull)
        let suppressed = try #require(group["suppressed"] as? [String])
        #expect(suppressed.contains("/labels/confirmedLegitimate"))
        #expect(suppressed.contains("/series/0/confirmedLegitimate"))
        #expect((group["series"] as? [[String: Any]])?.first?["mature"] as? Bool == true)
    }
}

struct StaticSource: MetricsSource {
    var aggregates: [MetricsAggregate]
    var latencies: [LatencyAggregate]
    func forEachAggregate(_ query: MetricsQuery, aggregate: (MetricsAggregate) -> Void, latency: (LatencyAggregate) -> Void) throws {
        aggregates.forEach(aggregate)
        latencies.forEach(latency)
    }
}
