@testable import InsightService

/// libFuzzer entry for `POST /v1/evaluations/{evaluationID}/consumption` bodies.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConsumptionRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let report = try ConsumptionRequestDecoder.decode(body)
        if report.insightIDsUsed.count > 8 { fatalError("more insightIDs than an evaluation can have") }
    } catch {
        WireOracle.checkProblem(error, body: body)
    }
    return 0
}
