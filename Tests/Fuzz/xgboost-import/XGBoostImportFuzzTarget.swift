import InsightModel

/// libFuzzer entry for the XGBoost JSON importer (`trust-insights models import --from xgboost`), then the
/// validator, compiler and scorer behind it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXGBoostImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        ModelOracle.exercise(try XGBoostImporter.importModel(jsonBytes: bytes, options: ModelOracle.options))
    } catch {
        _ = error.description
    }
    return 0
}
