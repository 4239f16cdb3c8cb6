// Times `CategoryCatalogue.validate` on a valid 15-feature payment request and on one with two violations.
// Built and run by validate.sh (docs/FEATURES.md, "Validation cost").
import Glibc
import InsightCore

func now() -> Double { var t = timespec(); clock_gettime(CLOCK_MONOTONIC, &t); return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9 }
let catalogue = try! FeatureCatalogue.load(from: CommandLine.arguments[1])[.payment]
let ok: [(name: String, value: FeatureInput)] = [
  ("activeCall", .boolean(true)), ("callDurationSeconds", .number(640)), ("callerKnownToPerson", .number(0)),
  ("screenSharingActive", .number(0)), ("remoteAccessAppActive", .boolean(false)), ("hesitationMillis", .number(5400)),
  ("typingCadenceVarianceMillis", .number(120)), ("appSwitchesDuringFlow", .number(3)), ("pasteEventsInFlow", .number(1)),
  ("deviceMotionStillnessRatio", .number(0.42)), ("sessionDurationSeconds", .number(210)), ("timeOfDayBand", .number(2)),
  ("secondsSincePayeeFirstSeen", .number(0)), ("amountBandRelativeToUsual", .number(3)), ("communicationAppSwitchesDuringFlow", .number(1))]
var bad = ok; bad[5] = ("hesitationMillis", .number(987654321)); bad.append(("nope", .wrongType("string")))
for (label, input) in [("valid 15 features", ok), ("2 violations", bad)] {
  var medians: [Double] = []
  for _ in 0..<5 {
    let n = 200_000; var sink = 0.0
    let start = now()
    for _ in 0..<n {
      switch catalogue.validate(input) { case .success(let v): sink += v[1]; case .failure(let f): sink += Double(f.violations.count) }
    }
    medians.append((now() - start) / Double(n) * 1e9)
    if sink == -1 { print(sink) }
  }
  medians.sort(); print(label, "median ns/validate:", Int(medians[2]))
}
