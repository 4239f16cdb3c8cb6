/// How many bytes one partner key may add to the database per UTC day with label batches: the label versions it
/// stores and the answers kept for its `Idempotency-Key`s. Labels are not rate limited (a back office uploads in
/// large batches), so without this one key could fill the data volume, and at the disk reserve writes stop for every
/// tenant (security probe, 6 December: 6.6 bytes stored per byte sent, about 45 MB/s from one connection).
///
/// The figures are estimates of what the rows take in SQLite (their values, their index entries and a fixed
/// overhead per row), not a measurement of the file: close enough to bound a flood, and computed without I/O.
public struct LabelStorageQuota: Sendable, Equatable {
    public static let defaultBytesPerDay: Int64 = 256 * 1024 * 1024
    /// The smallest quota a setting may give: every single batch the route admits fits (1000 items, each with an
    /// answer of at most about a kilobyte, and its label row), so a quota never refuses a batch forever.
    public static let minimumBytesPerDay: Int64 = 16 * 1024 * 1024
    public static let maximumBytesPerDay: Int64 = 1 << 40

    /// Record headers, integer columns, the rowid and the cell pointers of a row and its index entries.
    static let rowOverhead = 48
    static let dayMilliseconds: Int64 = 86_400_000

    public var bytesPerDay: Int64

    public init(bytesPerDay: Int64 = Self.defaultBytesPerDay) {
        self.bytesPerDay = bytesPerDay
    }

    /// A label version: its row, and its entry in the index by insight.
    public static func storedBytes(of version: LabelVersion) -> Int64 {
        let content = version.content
        let values = version.insightID.utf8.count * 2 + version.tenant.rawValue.utf8.count
            + content.verdict.rawValue.utf8.count + content.fraudType.rawValue.utf8.count + content.occurredOn.utf8.count
            + (content.amountBand?.rawValue.utf8.count ?? 0)
        return Int64(values + rowOverhead * 2)
    }

    /// An idempotency record: the answer, the body's hash, and the key columns twice (the row and its index).
    public static func storedBytes(of record: IdempotencyRecord) -> Int64 {
        let keyColumns = record.tenant.rawValue.utf8.count + record.environment.rawValue.utf8.count + record.keyDigest.utf8.count
        return Int64(record.response.count + record.bodyHash.count + keyColumns * 2 + rowOverhead * 2)
    }

    /// The UTC day `now` falls in, which names the key's tally.
    public static func day(of now: Int64) -> Int64 { now.floorDividedWithRemainder(dayMilliseconds).0 }

    /// Whole seconds from `now` to the next UTC day, rounded up (a client that waits that long is never early).
    public static func secondsUntilNextDay(from now: Int64) -> Int {
        let left = (day(of: now) + 1) * dayMilliseconds - now
        return Int((left + 999) / 1000)
    }
}
