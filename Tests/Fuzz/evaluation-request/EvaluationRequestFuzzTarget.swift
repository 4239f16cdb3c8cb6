import InsightCore
@testable import InsightService

/// libFuzzer entry for `POST /v1/evaluations` bodies: the hand-written decoder, then the category catalogue's
/// feature validation (config/features, read once from the repository), as the route runs them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEvaluationRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    let request: EvaluationRequest
    do {
        request = try EvaluationRequestDecoder.decode(body)
    } catch {
        WireOracle.checkProblem(error, body: body)
        return 0
    }
    switch shippedCatalogue.catalogue(for: request.category).validate(request.features) {
    case .success(let vector):
        if vector.withUnsafeValues({ $0.contains { !$0.isFinite && !$0.isNaN } }) { fatalError("an infinite feature passed") }
    case .failure(let failure):
        WireOracle.checkProblem(.evaluation(.contextInvalid(failure.violations.map(ContextViolation.init))), body: body)
    }
    return 0
}

let shippedCatalogue: FeatureCatalogue = {
    do {
        return try FeatureCatalogue.load(from: "config/features")
    } catch {
        fatalError("run from the package root (scripts/fuzz.sh does): \(error)")
    }
}()
