import Dispatch
@testable import HTTPServer
@testable import InsightService
import Synchronization
import Testing

/// An evaluation's answer goes out only once it is both signed (on the event loop) and durable (on the writer),
/// whichever comes first; a failure of either sends its replacement instead.
@Suite struct EvaluationAnswerTests {
    final class Notes: Sendable {
        private let entries = Mutex<[String]>([])
        func note(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    static let signed = HTTPResponse(status: .ok, body: Array("signed".utf8))
    static let failure = HTTPResponse(status: .serviceUnavailable, body: Array("failed".utf8))

    /// Set once, before the answer is shared; weak, so the answer and its hook do not keep each other alive.
    final class WeakAnswer: @unchecked Sendable {
        weak var answer: EvaluationAnswer?
    }

    private func make(_ notes: Notes) -> EvaluationAnswer {
        // The hook looks at the gate: it must run before the answer may go.
        let box = WeakAnswer()
        let answer = EvaluationAnswer(beforeSending: {
            let settled = box.answer?.placeholder.gate?.settlement != nil
            notes.note(settled ? "counted after settling" : "counted")
        })
        box.answer = answer
        return answer
    }

    private func sent(_ answer: EvaluationAnswer) -> HTTPResponse? {
        guard case .replaced(let response) = answer.placeholder.gate?.settlement else { return nil }
        return response
    }

    @Test func theHeldPlaceholderIsNeverTheAnswer() {
        let answer = make(Notes())
        #expect(answer.placeholder.gate?.settlement == nil)
        #expect(answer.placeholder.status == .serviceUnavailable)
    }

    @Test(arguments: [true, false])
    func goesOnceSignedAndDurableInEitherOrder(signedFirst: Bool) {
        let notes = Notes()
        let answer = make(notes)
        if signedFirst { answer.signed(Self.signed) } else { answer.recorded() }
        #expect(sent(answer) == nil)
        #expect(notes.all.isEmpty)
        if signedFirst { answer.recorded() } else { answer.signed(Self.signed) }
        #expect(sent(answer)?.body == Self.signed.body)
        #expect(notes.all == ["counted"])
        answer.failed(Self.failure)
        #expect(sent(answer)?.body == Self.signed.body)
    }

    @Test(arguments: ["before", "after signing", "after recording"])
    func aFailureSendsItsReplacementAndIsNotCounted(when: String) {
        let notes = Notes()
        let answer = make(notes)
        if when == "after signing" { answer.signed(Self.signed) }
        if when == "after recording" { answer.recorded() }
        answer.failed(Self.failure)
        #expect(sent(answer)?.body == Self.failure.body)
        answer.signed(Self.signed)
        answer.recorded()
        #expect(sent(answer)?.body == Self.failure.body)
        #expect(notes.all.isEmpty)
    }

    @Test func racingHalvesSettleEachAnswerExactlyOnce() {
        let notes = Notes()
        let answers = (0..<2_000).map { _ in make(notes) }
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            for answer in answers {
                if side == 0 { answer.signed(Self.signed) } else { answer.recorded() }
            }
        }
        #expect(answers.allSatisfy { sent($0)?.body == Self.signed.body })
        #expect(notes.all.count == answers.count)
        #expect(notes.all.allSatisfy { $0 == "counted" })
    }
}
