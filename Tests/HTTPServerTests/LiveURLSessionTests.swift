import Foundation
import FoundationNetworking
@testable import HTTPServer
import Testing

@Suite("Live server: URLSession", .serialized)
struct LiveURLSessionTests {
    static func fetch(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await URLSession.shared.data(for: request)
        return (data, response as! HTTPURLResponse)
    }

    @Test func servesGetAndPostWithRequestIDs() async throws {
        let server = try TestServer.start()
        defer { server.stop() }
        let base = URL(string: "http://127.0.0.1:\(server.port)")!

        let (body, response) = try await Self.fetch(URLRequest(url: base.appendingPathComponent("items/42")))
        #expect(response.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self) == "42")
        #expect(response.value(forHTTPHeaderField: "X-Request-ID")?.count == 32)

        var post = URLRequest(url: base.appendingPathComponent("json"))
        post.httpMethod = "POST"
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        post.setValue("client-id-7", forHTTPHeaderField: "X-Request-ID")
        post.httpBody = Data(#"{"a":1}"#.utf8)
        let (echoed, created) = try await Self.fetch(post)
        #expect(created.statusCode == 201)
        #expect(String(decoding: echoed, as: UTF8.self) == #"{"a":1}"#)
        #expect(created.value(forHTTPHeaderField: "X-Request-ID") == "client-id-7")
        #expect(created.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func answersProblemJSONForUnknownRoutes() async throws {
        let server = try TestServer.start()
        defer { server.stop() }
        let (body, response) = try await Self.fetch(URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/missing")!))
        #expect(response.statusCode == 404)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/problem+json")
        let problem = try JSONDecoder().decode(ProblemDetails.self, from: body)
        #expect(problem.status == 404)
        #expect(problem.type == "https://trust-insights.dev/problems/not-found")
    }

    @Test func servesManyConcurrentRequests() async throws {
        let server = try TestServer.start()
        defer { server.stop() }
        let port = server.port
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<40 {
                group.addTask {
                    let url = URL(string: "http://127.0.0.1:\(port)/items/\(index)")!
                    let (_, response) = try await Self.fetch(URLRequest(url: url))
                    return response.statusCode
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.count == 40)
        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(server.log.lines.count == 40)
    }
}
