import HTTPServer
import Synchronization

/// Joins the two halves of an evaluation's answer, which finish on different threads: the signed response, made by
/// the event loop at the end of its pass, and the record's durability, reported by the store's writer. The answer
/// goes out once both are in; a failure of either sends its replacement at once.
final class EvaluationAnswer: Sendable {
    private struct State {
        var response: HTTPResponse?
        var isDurable = false
        var isSettled = false
    }

    /// What the handler returns: a 503 that never leaves, since the gate always replaces it.
    let placeholder: HTTPResponse
    private let gate = ResponseGate()
    private let state = Mutex(State())
    private let beforeSending: @Sendable () -> Void

    /// `beforeSending` runs once both halves are in, before the answer may go: a consumption report racing back
    /// must find its evaluation counted.
    init(beforeSending: @escaping @Sendable () -> Void) {
        var placeholder = HTTPResponse(status: .serviceUnavailable)
        placeholder.gate = gate
        self.placeholder = placeholder
        self.beforeSending = beforeSending
    }

    func signed(_ response: HTTPResponse) {
        arrive { $0.response = response }
    }

    func recorded() {
        arrive { $0.isDurable = true }
    }

    /// Sends `replacement` instead, unless the answer has already gone.
    func failed(_ replacement: HTTPResponse) {
        let first = state.withLock { state in
            guard !state.isSettled else { return false }
            state.isSettled = true
            state.response = nil
            return true
        }
        if first { gate.replace(with: replacement) }
    }

    private func arrive(_ update: (inout State) -> Void) {
        let ready: HTTPResponse? = state.withLock { state in
            guard !state.isSettled else { return nil }
            update(&state)
            guard state.isDurable, let response = state.response else { return nil }
            state.isSettled = true
            state.response = nil
            return response
        }
        guard let ready else { return }
        beforeSending()
        gate.replace(with: ready)
    }
}
