/// The syntax of `metadata.createdAt`: an RFC 3339 `date-time` in UTC, `2026-09-14T10:00:00Z`, with optional
/// fractional seconds. Each field is checked against its range, the day against its month (29 February only in
/// leap years); a leap second (`:60`) is allowed where RFC 3339 §5.7 allows it, at the end of a month (23:59:60 on
/// its last day, in UTC), and nowhere else: `12:30:60Z` is a time that never exists.
public enum RFC3339UTC {
    /// The text with a lowercase `t` or `z` in their places capitalised: RFC 3339 §5.6 allows either case where a
    /// person types a time (a command's option), and what is written back uses the capitals every reader takes.
    /// Model documents are checked as they stand.
    public static func capitalized(_ text: String) -> String {
        var bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return text }
        if bytes[10] == UInt8(ascii: "t") { bytes[10] = UInt8(ascii: "T") }
        if bytes[bytes.count - 1] == UInt8(ascii: "z") { bytes[bytes.count - 1] = UInt8(ascii: "Z") }
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        // YYYY-MM-DDTHH:MM:SS, then an optional fraction, then Z.
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return false }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
        for (index, separator) in separators where bytes[index] != separator.asciiValue! { return false }
        guard let year = number(0..<4), let month = number(5..<7), (1...12).contains(month),
            let day = number(8..<10), (1...daysIn(month: month, year: year)).contains(day), let hour = number(11..<13), hour < 24,
            let minute = number(14..<16), minute < 60, let second = number(17..<19),
            second < 60 || (second == 60 && hour == 23 && minute == 59 && day == daysIn(month: month, year: year))
        else { return false }
        let rest = bytes[19..<(bytes.count - 1)]
        if rest.isEmpty { return true }
        // Only digits: any number of them, so not read as a number (which could overflow).
        return rest.first == UInt8(ascii: ".") && rest.count > 1
            && rest.dropFirst().allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
