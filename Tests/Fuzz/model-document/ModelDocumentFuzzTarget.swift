import FoundationEssentials
import InsightModel

/// libFuzzer entry for our own model format as the registry loads it at start and on SIGHUP: decode, validate,
/// compile, score. A corrupt model file must be refused with an error, never crash the service.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModelDocument(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let document = try? ModelDocument(jsonData: bytes) else { return 0 }
    ModelOracle.exercise(document)
    return 0
}
