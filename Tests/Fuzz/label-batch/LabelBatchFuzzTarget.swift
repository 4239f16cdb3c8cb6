@testable import InsightCore
@testable import InsightService

/// libFuzzer entry for `POST /v1/labels` bodies: the batch decoder, then each item's checks that need no stored
/// data (vocabularies, the calendar), as the intake runs them. A rejected item's reason is an answer too, so it
/// must not echo a value either.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLabelBatch(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    let drafts: [LabelDraft]
    do {
        drafts = try LabelBatchDecoder.decode(body)
    } catch {
        WireOracle.checkProblem(error, body: body)
        return 0
    }
    if drafts.isEmpty || drafts.count > LabelIntake.maximumItems { fatalError("batch size outside 1...\(LabelIntake.maximumItems) accepted") }
    // 2026-11-21 as days since the epoch: a fixed "today" keeps runs reproducible.
    let today: Int64 = 20_778
    for draft in drafts {
        if case .failure(let rejection) = draft.validated(today: today) {
            WireOracle.checkNoValueEchoed(Array(rejection.reason.utf8), body: body)
        }
    }
    return 0
}
