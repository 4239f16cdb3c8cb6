/// What one key's batches stored on a day and on the day after, by day. The day after has a tally only when the
/// clock was stepped back across midnight.
public struct LabelStorageTally: Sendable, Equatable {
    public var bytesByDay: [Int64: Int64]

    public init(bytesByDay: [Int64: Int64]) {
        self.bytesByDay = bytesByDay
    }

    /// How close to midnight the clock must be for the next day's tally to count: a step back across midnight by
    /// NTP or a restored snapshot lands within it, while a clock that was set a day or more ahead and then mended
    /// lands further back, and counting its tally would hold the key back for up to two days (third regression probe,
    /// 6 December: 140,400 s after a clock two days ahead was mended).
    public static let stepBackWindowMilliseconds: Int64 = 3_600_000

    /// The tally as judged at `now`: the next day's counts only within `stepBackWindowMilliseconds` of midnight.
    public func judged(at now: Int64) -> LabelStorageTally {
        let day = LabelStorageQuota.day(of: now)
        guard now < (day + 1) * LabelStorageQuota.dayMilliseconds - Self.stepBackWindowMilliseconds else { return self }
        return LabelStorageTally(bytesByDay: bytesByDay.filter { $0.key <= day })
    }

    /// The latest day on which `stored` more bytes would pass `quota`, nil when none would. Each day's tally is judged
    /// on its own: the day the clock returns to against its own tally (so a step back grants no fresh quota for it),
    /// and the day after's too, since a batch stored now would have been stored before what that day holds. Adding
    /// the days together instead refused a small batch that fitted both (docs probe, 6 December).
    public func latestDayRefusing(_ stored: Int64, quota: Int64) -> Int64? {
        // Compared by subtraction: a tally edited by hand to near Int64.max must refuse, not overflow.
        bytesByDay.filter { $0.value > quota - stored }.keys.max()
    }
}

/// How many bytes one partner key may add to the database per UTC day with label batches: the label versions it
/// stores and the answers kept for its `Idempotency-Key`s. Labels are not rate limited (a back office uploads in
/// large batches), so without this one key could fill the data volume, and at the disk reserve writes stop for every
/// tenant (security probe, 6 December: 6.6 bytes stored per byte sent, about 45 MB/s from one connection).
///
/// The figures are estimates of what the rows take in SQLite's pages (their values, their index entries, a fixed
/// overhead per row, whole rows per page and overflow pages), not a measurement of the file: close enough to bound a
/// flood, and computed without I/O.
public struct LabelStorageQuota: Sendable, Equatable {
    public static let defaultBytesPerDay: Int64 = 256 * 1024 * 1024
    /// The smallest quota a setting may give: every single batch the route admits fits (1000 items, each with an
    /// answer of at most about two kilobytes, or a label row), so a quota never refuses a batch forever.
    public static let minimumBytesPerDay: Int64 = 16 * 1024 * 1024
    public static let maximumBytesPerDay: Int64 = 1 << 40

    static let dayMilliseconds: Int64 = 86_400_000
    /// SQLite's default page size, which the store keeps.
    static let pageSize = 4096
    /// Per row beside its values: the cell pointer, the rowid and payload-length varints, the record header and an
    /// 8-byte integer column (a time or a rowid).
    static let rowOverhead = 2 + 9 + 3 + 8 + 8

    public var bytesPerDay: Int64

    public init(bytesPerDay: Int64 = Self.defaultBytesPerDay) {
        self.bytesPerDay = bytesPerDay
    }

    /// A label version: its row, and its entry in the index by insight.
    public static func storedBytes(of version: LabelVersion) -> Int64 {
        let content = version.content
        let values = version.insightID.utf8.count + version.tenant.rawValue.utf8.count
            + content.verdict.rawValue.utf8.count + content.fraudType.rawValue.utf8.count + content.occurredOn.utf8.count
            + (content.amountBand?.rawValue.utf8.count ?? 0)
        return bytesInPages(row: values + rowOverhead) + bytesInPages(row: version.insightID.utf8.count + rowOverhead)
    }

    /// An idempotency record: its row (the answer, the body's hash and the key columns), its key in the index by
    /// key, and its entry in the index by time.
    public static func storedBytes(of record: IdempotencyRecord) -> Int64 {
        let keyColumns = record.tenant.rawValue.utf8.count + record.environment.rawValue.utf8.count + record.keyDigest.utf8.count
        return bytesInPages(row: record.response.count + record.bodyHash.count + keyColumns + rowOverhead)
            + bytesInPages(row: keyColumns + rowOverhead) + bytesInPages(row: rowOverhead)
    }

    /// What a row of `row` bytes takes in B-tree pages, by SQLite's file format: a row that fits in a leaf shares
    /// its page with as many whole rows of its size as fit, so one of 2.1 KB has a page to itself (counted by its
    /// bytes alone, answers of 1.9 to 2.3 KB grew the file up to 1.9 times their tally: quota probe, 6 December);
    /// a longer row keeps a part in the leaf and the rest in overflow pages of `pageSize - 4` bytes each.
    static func bytesInPages(row: Int) -> Int64 {
        let maximumLocal = pageSize - 35
        guard row > maximumLocal else { return leafShare(of: row) }
        let minimumLocal = (pageSize - 12) * 32 / 255 - 23
        var local = minimumLocal + (row - minimumLocal) % (pageSize - 4)
        if local > maximumLocal { local = minimumLocal }
        let overflowPages = (row - local + pageSize - 5) / (pageSize - 4)
        return Int64(overflowPages * pageSize) + leafShare(of: local + 4)
    }

    /// A leaf page's share per cell of `cell` bytes: whole cells only, after the page's 8-byte header.
    private static func leafShare(of cell: Int) -> Int64 {
        let perPage = max(1, (pageSize - 8) / cell)
        return Int64((pageSize + perPage - 1) / perPage)
    }

    /// The UTC day `now` falls in, which names the key's tally.
    public static func day(of now: Int64) -> Int64 { now.floorDividedWithRemainder(dayMilliseconds).0 }

    /// Whole seconds from `now` to the next UTC day, or to the day after `refusingDay` when that is later (a clock
    /// stepped back: that day's tally refuses until then), rounded up (a client that waits that long is never early).
    public static func secondsUntilNextDay(from now: Int64, refusingDay: Int64? = nil) -> Int {
        let left = (max(day(of: now), refusingDay ?? .min) + 1) * dayMilliseconds - now
        return Int((left + 999) / 1000)
    }
}
