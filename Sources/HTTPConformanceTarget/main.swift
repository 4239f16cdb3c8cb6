// http-conformance-target: the interface HTTP/1.1 compliance testers expect, on the HTTP module alone.
//   GET, HEAD, OPTIONS /  -> 200
//   POST /                -> 200 echoing the body
//   POST /echo            -> 200 with every received header, one per line as "Name: Value"
//   POST /numbers         -> {"values": [32 numbers]} decoded with Foundation's JSONDecoder, answered with their
//                            count and sum by JSONEncoder: the evaluation benchmark's stand-in for the issue's
//                            reference (Hummingbird 2 decoding a trivial 32-number body), which cannot be built here
// Usage: http-conformance-target [--port N] [--host ADDRESS] [--loops N] [--access-log]
import FoundationEssentials
import Glibc
import HTTPServer

// Before any thread exists, so every thread inherits the blocked mask and only the waiter sees the signals.
let signals = SignalWaiter(signals: [SIGTERM, SIGINT])

func fail(_ message: String, status: Int32) -> Never {
    StandardErrorLogSink().write(line: "error: \(message)")
    exit(status)
}

var configuration = HTTPServerConfiguration()
configuration.port = 8080
configuration.accessLog = false
configuration.defaultBodyLimit = 1 << 20
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    switch flag {
    case "--port":
        guard let value = arguments.popFirst().flatMap(Int.init), (0...65535).contains(value) else {
            fail("--port needs a number from 0 to 65535", status: 2)
        }
        configuration.port = value
    case "--host":
        guard let value = arguments.popFirst() else {
            fail("--host needs a numeric IPv4 or IPv6 address", status: 2)
        }
        configuration.host = value
    case "--loops":
        guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
            fail("--loops needs a positive number", status: 2)
        }
        configuration.eventLoops = value
    case "--access-log":
        configuration.accessLog = true
    case "--help", "-h":
        print("usage: http-conformance-target [--port N] [--host ADDRESS] [--loops N] [--access-log]")
        exit(0)
    default:
        fail("unknown argument '\(flag)'", status: 2)
    }
}

var router = Router()
// Built once: a constant answer costs no allocation per request.
let okResponse = HTTPResponse.text(.ok, "OK\n")
let ok: HTTPHandler = { _, _ in okResponse }
router.add(.get, "/", handler: ok)
router.add(.head, "/", handler: ok)
router.add(.options, "/", handler: { _, _ in
    HTTPResponse(status: .ok, headers: ["Allow": "GET, HEAD, OPTIONS, POST"])
})
router.add(.post, "/", handler: { request, _ in
    var headers = HTTPFields()
    headers.append(name: "Content-Type", value: request.headers["Content-Type"] ?? "application/octet-stream")
    return HTTPResponse(status: .ok, headers: headers, body: request.body)
})
router.add(.post, "/echo", handler: { request, _ in
    let lines = request.headers.map { "\($0.name): \($0.value)\n" }.joined()
    return HTTPResponse.text(.ok, lines)
})

struct Numbers: Decodable {
    let values: [Double]
}
struct NumbersSummary: Encodable {
    let count: Int
    let sum: Double
}
router.add(.post, "/numbers", handler: { request, _ in
    guard let numbers = try? JSONDecoder().decode(Numbers.self, from: Data(request.body)), numbers.values.count == 32,
          let answer = try? JSONEncoder().encode(NumbersSummary(count: numbers.values.count, sum: numbers.values.reduce(0, +)))
    else {
        return HTTPResponse.text(.badRequest, "expected {\"values\": [32 numbers]}\n")
    }
    return HTTPResponse.json(.ok, Array(answer))
})

let server = HTTPServer(
    configuration: configuration, router: router, metrics: MetricsRegistry(), logSink: StandardErrorLogSink())
signals.start { @Sendable _ in
    server.beginShutdown()
}
do {
    try server.start()
} catch {
    fail("\(error)", status: 1)
}
// One write(2), unbuffered: a parent process waits for this line on a pipe.
let banner = Array("listening on \(ListenHost(configuration.host)?.urlHost ?? configuration.host):\(server.boundPort)\n".utf8)
_ = banner.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
while !server.waitUntilStopped(timeout: .seconds(3600)) {}
exit(0)
