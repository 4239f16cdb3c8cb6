/// The `Date` header line, rebuilt at most once per second per event loop.
struct DateCache {
    private(set) var second = -1
    private(set) var line: [UInt8] = []

    mutating func update(wallClockSeconds: Int) {
        guard wallClockSeconds != second else { return }
        second = wallClockSeconds
        line = Array("Date: \(UTCTimestamp.imfFixdate(wallClockSeconds))\r\n".utf8)
    }
}
