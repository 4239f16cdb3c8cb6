/// Whether a label-latency quantile may stand beside a histogram some of whose buckets are withheld (METRICS.md,
/// rule 4). A quantile says how many labels lie below its day and how many at or below it. With withheld buckets on
/// both sides of its bucket, or in it, that bounds how the withheld labels split between them, which the sums leave
/// open (a p90 of 90 days told that of 5 withheld labels at least 4 were in bucket `1`). With them on one side only it
/// bounds their total, which a computable histogram total gives anyway; withheld buckets known to be empty (the
/// total less the published buckets is zero) leave nothing to bound. The API and the report apply the same rule.
public enum QuantileDisclosure {
    /// `bucketCounts`: the exact histogram; `withheld`: which of its buckets are withheld; `totalComputable`: whether
    /// the histogram's total follows from what is published.
    public static func mayPublish(days: Int, bucketCounts: [Int], withheld: [Bool], totalComputable: Bool) -> Bool {
        let withheldBuckets = withheld.indices.filter { withheld[$0] }
        guard !withheldBuckets.isEmpty else { return true }
        guard totalComputable else { return false }
        if withheldBuckets.allSatisfy({ bucketCounts[$0] == 0 }) { return true }
        let bucket = LatencyBucket.index(of: days)
        return !withheldBuckets.contains(bucket)
            && (withheldBuckets.allSatisfy { $0 < bucket } || withheldBuckets.allSatisfy { $0 > bucket })
    }
}
