/// RFC 3339 timestamps in UTC with milliseconds (`2026-11-21T00:41:22.123Z`), formatted without Foundation on the
/// hot path, and calendar days for label dates.
public enum Timestamp {
    public static func iso8601(milliseconds: Int64) -> String {
        let (days, millisOfDay) = milliseconds.floorDividedWithRemainder(86_400_000)
        let (year, month, day) = civilDate(fromDays: days)
        let hour = millisOfDay / 3_600_000
        let minute = millisOfDay / 60_000 % 60
        let second = millisOfDay / 1000 % 60
        let millis = millisOfDay % 1000
        guard (0...9999).contains(year) else {
            return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(millis, 3))Z"
        }
        // Every answer carries two of these: written digit by digit into the string's own storage, one allocation
        // instead of the interpolation's eight intermediate strings.
        return String(unsafeUninitializedCapacity: 24) { buffer in
            var position = 0
            func put(_ value: Int64, _ width: Int) {
                var divisor: Int64 = 1
                for _ in 1..<width { divisor *= 10 }
                while divisor > 0 {
                    buffer[position] = UInt8(truncatingIfNeeded: 48 + value / divisor % 10)
                    position += 1
                    divisor /= 10
                }
            }
            func put(_ byte: Unicode.Scalar) {
                buffer[position] = UInt8(byte.value)
                position += 1
            }
            put(year, 4); put("-"); put(month, 2); put("-"); put(day, 2); put("T")
            put(hour, 2); put(":"); put(minute, 2); put(":"); put(second, 2); put("."); put(millis, 3); put("Z")
            return position
        }
    }

    /// `YYYY-MM-DD` of the UTC day containing `milliseconds`.
    public static func day(milliseconds: Int64) -> String {
        let (days, _) = milliseconds.floorDividedWithRemainder(86_400_000)
        let (year, month, day) = civilDate(fromDays: days)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// Days since 1970-01-01 of a strict `YYYY-MM-DD` date; nil if malformed or not a real date, and for a date
    /// before 1970 unless `before1970` (a label's operation date: every evaluation is later, so such a date is
    /// named as before its evaluation rather than as no date).
    public static func days(fromDate text: String, before1970: Bool = false) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                let digit = bytes[index] &- 48
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month), before1970 || year >= 1970
        else { return nil }
        return daysFromCivil(year: year, month: month, day: day)
    }

    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's civil-from-days and days-from-civil algorithms (proleptic Gregorian calendar).
    static func civilDate(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

extension Int64 {
    func floorDividedWithRemainder(_ divisor: Int64) -> (Int64, Int64) {
        var quotient = self / divisor
        var remainder = self % divisor
        if remainder < 0 {
            quotient -= 1
            remainder += divisor
        }
        return (quotient, remainder)
    }
}
