import HTTPServer
import InsightCore

/// The answer to a request whose outcome is known only once its write commits: a placeholder held by a gate,
/// replaced by the real answer when the write calls back. The event loop serves other connections meanwhile.
enum DeferredResponse {
    static func awaiting<Value>(_ value: OneShot<Value>, render: @escaping @Sendable (Value) -> HTTPResponse) -> HTTPResponse {
        let gate = ResponseGate()
        var placeholder = HTTPResponse(status: .serviceUnavailable)
        placeholder.gate = gate
        value.whenFulfilled { gate.replace(with: render($0)) }
        return placeholder
    }
}
