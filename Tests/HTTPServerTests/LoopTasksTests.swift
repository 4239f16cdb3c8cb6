import Glibc
@testable import HTTPServer
import Synchronization
import Testing

/// When handlers and their tasks ran.
final class RunOrder: Sendable {
    private let entries = Mutex<[String]>([])
    func note(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

extension SampleRoutes {
    /// `/later/{id}` answers with its id from a task left for the end of the loop's pass, through the gate of the
    /// placeholder it returns; `order` records when handlers and tasks ran.
    static func laterRouter(order: RunOrder) -> Router {
        var router = router()
        router.add(.get, "/later/{id}") { _, context in
            let id = context.parameters["id"] ?? ""
            order.note("handler \(id)")
            let gate = ResponseGate()
            var placeholder = HTTPResponse(status: .serviceUnavailable)
            placeholder.gate = gate
            let answer = { @Sendable in
                order.note("task \(id)")
                gate.replace(with: .text(.ok, id))
            }
            if let tasks = context.loopTasks { tasks.enqueue(answer) } else { answer() }
            return placeholder
        }
        return router
    }
}

@Suite("Work handlers leave for the end of the loop's pass")
struct LoopTasksTests {
    @Test func runsQueuedWorkInOrderIncludingWorkItQueues() {
        let tasks = LoopTasks()
        let order = RunOrder()
        tasks.enqueue { order.note("1") }
        tasks.enqueue {
            order.note("2")
            tasks.enqueue { order.note("4") }
        }
        tasks.enqueue { order.note("3") }
        #expect(!tasks.isEmpty)
        tasks.runAll()
        #expect(order.all == ["1", "2", "3", "4"])
        #expect(tasks.isEmpty)
        tasks.runAll()
        #expect(order.all.count == 4)
    }

    @Test func aHandlersTaskRunsAfterThePassAndItsAnswerWaitsForIt() {
        let order = RunOrder()
        let connection = InMemoryConnection(router: SampleRoutes.laterRouter(order: order))
        #expect(connection.send("GET /later/a HTTP/1.1\r\nHost: a\r\n\r\nGET /items/2 HTTP/1.1\r\nHost: a\r\n\r\n").isEmpty)
        #expect(order.all == ["handler a"])
        let answers = connection.endPass()
        #expect(answers.map { $0.status } == [200, 200])
        #expect(answers.map { $0.bodyText } == ["a", "2"])
        #expect(order.all == ["handler a", "task a"])
    }

    @Test func outsideAServerTheHandlerHasNoQueueAndAnswersAtOnce() throws {
        let order = RunOrder()
        let router = SampleRoutes.laterRouter(order: order)
        guard case .found(let route, let parameters) = router.resolve(method: HTTPMethod.get, path: "/later/z") else {
            Issue.record("no route")
            return
        }
        let request = HTTPRequest(method: .get, target: "/later/z", path: "/later/z", query: nil)
        let response = try route.handler(request, RequestContext(requestID: "r", parameters: parameters))
        guard case .replaced(let answer) = response.gate?.settlement else {
            Issue.record("the gate did not settle")
            return
        }
        #expect(answer.body == Array("z".utf8))
        #expect(order.all == ["handler z", "task z"])
    }

    @Test func liveServerRunsEveryHandlersTaskAndSendsTheAnswers() throws {
        let order = RunOrder()
        let server = try TestServer.start(router: SampleRoutes.laterRouter(order: order))
        defer { server.stop() }
        let clients = try (0..<8).map { _ in try RawClient(port: server.port) }
        for round in 0..<3 {
            for (index, client) in clients.enumerated() {
                #expect(client.send("GET /later/\(round)-\(index) HTTP/1.1\r\nHost: a\r\n\r\n"))
            }
            for (index, client) in clients.enumerated() {
                #expect(client.readResponse()?.bodyText == "\(round)-\(index)")
            }
        }
        let ran = order.all
        #expect(ran.filter { $0.hasPrefix("task") }.count == 24)
        // A task never runs before its own handler.
        for entry in ran where entry.hasPrefix("task ") {
            let id = entry.dropFirst(5)
            #expect(ran.firstIndex(of: "handler \(id)")! < ran.firstIndex(of: entry)!)
        }
    }

    /// The server's end-of-pass hook comes after the pass's tasks: a commit made there covers what the tasks did,
    /// and the answers both settle leave in the same pass.
    @Test func liveServerRunsTheAfterEachPassHookAfterThePassesTasks() throws {
        let order = RunOrder()
        let server = try TestServer.start(router: SampleRoutes.laterRouter(order: order), afterEachPass: {
            if order.all.last != "pass end" { order.note("pass end") }
        })
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        for index in 0..<5 {
            #expect(client.send("GET /later/\(index) HTTP/1.1\r\nHost: a\r\n\r\n"))
            #expect(client.readResponse()?.bodyText == "\(index)")
        }
        let ran = order.all
        for index in 0..<5 {
            let handler = try #require(ran.firstIndex(of: "handler \(index)"))
            let task = try #require(ran.firstIndex(of: "task \(index)"))
            // No end of pass between a handler and its task: both belong to one pass, whose end follows the task.
            #expect(!ran[handler..<task].contains("pass end"))
            #expect(ran[task...].contains("pass end"))
        }
    }

    /// The hook also runs when a wait times out with nothing to handle (every 50 ms at most while the loop has
    /// connections): work left for an end of pass that never came is still done.
    @Test func liveServerRunsTheAfterEachPassHookOnIdleTicks() throws {
        let calls = Atomic<Int>(0)
        let server = try TestServer.start(afterEachPass: { calls.add(1, ordering: .relaxed) })
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        #expect(client.send("GET /items/1 HTTP/1.1\r\nHost: a\r\n\r\n"))
        #expect(client.readResponse()?.bodyText == "1")
        let before = calls.load(ordering: .relaxed)
        usleep(500_000)
        // Ten ticks of the loop holding the connection, at least a few even on a loaded machine.
        #expect(calls.load(ordering: .relaxed) - before >= 3)
    }
}
