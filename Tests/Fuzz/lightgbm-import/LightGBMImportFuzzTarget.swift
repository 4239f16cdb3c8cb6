import InsightModel

/// libFuzzer entry for the LightGBM model-text importer (`trust-insights models import --from lightgbm`), then
/// the validator, compiler and scorer behind it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLightGBMImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        ModelOracle.exercise(try LightGBMImporter.importModel(text: text, options: ModelOracle.options))
    } catch {
        _ = error.description
    }
    return 0
}
