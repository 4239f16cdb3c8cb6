import Glibc
import InsightModel

/// The measurements behind `models bench`. Single-row calls are timed one by one with CLOCK_MONOTONIC and the
/// median kept (a preempted call is an outlier); batch passes are timed in this thread's CPU time
/// (CLOCK_THREAD_CPUTIME_ID) and the best pass kept, so other processes on a shared machine do not count.
struct ModelBenchmark {
    var layout: String
    var rows: Int
    var calls: Int
    var singleRowMedianMicros: Double
    var referenceSingleRowMedianMicros: Double
    var batchRowsPerSecond: Double
    var referenceBatchRowsPerSecond: Double
    var fastPathsMatchReference: Bool

    static func now(_ clock: clockid_t = CLOCK_MONOTONIC) -> UInt64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    static func run(model: CompiledModel, rows: FeatureMatrix, calls: Int, passes: Int) -> ModelBenchmark {
        let walk = ReferenceWalk(document: model.document)
        let rowArrays = (0..<rows.rowCount).map { Array(rows.row($0)) }
        var sink = 0.0

        // Bit-exactness check first, on every row.
        let batch = model.margins(for: rows)
        var matches = true
        for (index, row) in rowArrays.enumerated() {
            let reference = walk.margin(for: row).bitPattern
            if model.margin(for: row).bitPattern != reference || batch[index].bitPattern != reference { matches = false }
        }

        func singleRowMedian(_ score: ([Double]) -> Double, calls: Int) -> Double {
            var samples = [UInt64](repeating: 0, count: calls)
            for call in 0..<calls {
                let row = rowArrays[call % rowArrays.count]
                let start = now()
                sink += score(row)
                samples[call] = now() - start
            }
            samples.sort()
            return Double(samples[calls / 2]) / 1000
        }
        let fastSingle = singleRowMedian({ model.margin(for: $0) }, calls: calls)
        let referenceSingle = singleRowMedian({ walk.margin(for: $0) }, calls: max(10_000, calls / 4))

        var bestBatch = UInt64.max
        for _ in 0..<passes {
            let start = now(CLOCK_THREAD_CPUTIME_ID)
            let margins = model.margins(for: rows)
            bestBatch = min(bestBatch, now(CLOCK_THREAD_CPUTIME_ID) - start)
            sink += margins[0]
        }
        var bestReference = UInt64.max
        for _ in 0..<max(1, passes / 2) {
            let start = now(CLOCK_THREAD_CPUTIME_ID)
            for row in rowArrays { sink += walk.margin(for: row) }
            bestReference = min(bestReference, now(CLOCK_THREAD_CPUTIME_ID) - start)
        }
        if sink == .infinity { print("") }  // keeps the work observable to the optimiser
        return ModelBenchmark(
            layout: model.layoutDescription, rows: rows.rowCount, calls: calls,
            singleRowMedianMicros: fastSingle, referenceSingleRowMedianMicros: referenceSingle,
            batchRowsPerSecond: Double(rows.rowCount) / (Double(bestBatch) / 1e9),
            referenceBatchRowsPerSecond: Double(rows.rowCount) / (Double(bestReference) / 1e9),
            fastPathsMatchReference: matches)
    }

    var json: String {
        "{\"layout\":\"\(layout)\",\"rows\":\(rows),\"calls\":\(calls),"
            + "\"singleRowMedianMicros\":\(rounded(singleRowMedianMicros)),"
            + "\"batchRowsPerSecond\":\(Int(batchRowsPerSecond.rounded())),"
            + "\"referenceSingleRowMedianMicros\":\(rounded(referenceSingleRowMedianMicros)),"
            + "\"referenceBatchRowsPerSecond\":\(Int(referenceBatchRowsPerSecond.rounded())),"
            + "\"fastPathsMatchReference\":\(fastPathsMatchReference)}"
    }

    var table: [String] {
        [
            "layout: \(layout); \(rows) rows; single row: median of \(calls) calls; batch: best of passes, one thread",
            "                 single row (us)   batch (rows/s)",
            "fast paths       \(pad(rounded(singleRowMedianMicros), 18))\(Int(batchRowsPerSecond.rounded()))",
            "plain walk       \(pad(rounded(referenceSingleRowMedianMicros), 18))\(Int(referenceBatchRowsPerSecond.rounded()))",
            "fast paths bit-exact with the plain walk on every row: \(fastPathsMatchReference ? "yes" : "NO")",
        ]
    }

    private func rounded(_ value: Double) -> String {
        let scaled = (value * 1000).rounded() / 1000
        return "\(scaled)"
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
