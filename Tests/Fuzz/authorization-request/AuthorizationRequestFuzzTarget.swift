@testable import InsightService

/// libFuzzer entry for `PUT /v1/authorization/{subjectRef}` bodies.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAuthorizationRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        _ = try AuthorizationRequestDecoder.decode(body)
    } catch {
        WireOracle.checkProblem(error, body: body)
    }
    return 0
}
