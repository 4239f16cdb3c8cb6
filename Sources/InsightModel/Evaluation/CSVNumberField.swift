#if canImport(Glibc)
import Glibc
#endif

/// How the text of one CSV field reads as a number: the one rule `models score` (`FeatureTable`) and `train`
/// (`CSVDatasetLoader`) share, so a model can always score the file it was trained on.
///
/// - A number is a decimal: `[+-]digits[.digits][e[+-]digits]` (`.5` and `5.` too), correctly rounded to a double.
///   Hexadecimal floats (`0x1p3`, which `strtod` and Swift's `Double(_:)` accept) are not numbers in a CSV.
/// - `inf` or `infinity` (any case, optionally signed) is an infinity.
/// - An empty field, `NA` (R) and `nan` (any case, optionally signed; pandas, numpy) are missing values.
/// - ASCII spaces around the text are ignored (some writers pad columns), so a field of spaces is missing. Other
///   whitespace is not: a tab or form feed is no part of a number, and `strtod` would skip a line feed after it.
public enum CSVNumberField {
    public enum Reading: Sendable, Equatable {
        case missing
        /// A decimal number; infinite if beyond the range of a double (`1e400`).
        case number(Double)
        /// `inf`, `infinity`.
        case infinity(negative: Bool)
        case invalid
    }

    /// Reads a whole field.
    public static func read(_ field: UnsafeBufferPointer<UInt8>) -> Reading {
        guard let start = field.baseAddress else { return .missing }
        let end = start + field.count
        let (reading, stop) = scan(from: start, to: end)
        return stop == end ? reading : .invalid
    }

    public static func read(_ field: String) -> Reading {
        var field = field
        return field.withUTF8 { read($0) }
    }

    /// Reads the number that starts at `start` (spaces before and after it included) and returns where it stopped:
    /// at the first byte that cannot continue it, `end` at the latest. The caller checks that the field ends there;
    /// this lets a reader parse a field in place without first looking for its end.
    public static func scan(
        from start: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>
    ) -> (reading: Reading, stop: UnsafePointer<UInt8>) {
        var position = start
        skipSpaces(&position, end)
        guard position < end else { return (.missing, position) }
        let textStart = position
        var negative = false
        if position.pointee == plus || position.pointee == minus {
            negative = position.pointee == minus
            position += 1
        }
        if position < end, !isDigit(position.pointee), position.pointee != point {
            return word(at: position, end, negative: negative, signed: position != textStart)
        }

        // Up to 19 significant digits fit a UInt64; a longer decimal is left to strtod.
        var significand: UInt64 = 0
        var significantDigits = 0
        var exponent = 0
        var digits = 0
        while position < end, isDigit(position.pointee) {
            accumulate(position.pointee, into: &significand, &significantDigits, exponent: &exponent, isFraction: false)
            position += 1
            digits += 1
        }
        if position < end, position.pointee == point {
            position += 1
            while position < end, isDigit(position.pointee) {
                accumulate(position.pointee, into: &significand, &significantDigits, exponent: &exponent, isFraction: true)
                position += 1
                digits += 1
            }
        }
        guard digits > 0 else { return (.invalid, position) }
        if position < end, position.pointee | 0x20 == UInt8(ascii: "e") {
            position += 1
            var exponentNegative = false
            if position < end, position.pointee == plus || position.pointee == minus {
                exponentNegative = position.pointee == minus
                position += 1
            }
            guard position < end, isDigit(position.pointee) else { return (.invalid, position) }
            var written = 0
            while position < end, isDigit(position.pointee) {
                // Saturate: beyond a few hundred the value is 0 or infinite anyway.
                written = min(written * 10 + Int(position.pointee &- zero), 100_000)
                position += 1
            }
            exponent += exponentNegative ? -written : written
        }
        let textEnd = position
        skipSpaces(&position, end)

        let value: Double
        if significand == 0 && significantDigits == 0 {
            value = 0
        } else if significantDigits <= 19, significand <= 1 << 53, abs(exponent) <= 22 {
            // Clinger's fast path: both operands are exact doubles, so one correctly rounded operation is exact
            // rounding of the decimal. This covers what the simulator, numpy and pandas write.
            let scale = powersOfTen[abs(exponent)]
            value = exponent < 0 ? Double(significand) / scale : Double(significand) * scale
        } else {
            value = parseWithStrtod(from: textStart, to: textEnd)
            return (.number(value), position)
        }
        return (.number(negative ? -value : value), position)
    }

    private static let plus = UInt8(ascii: "+"), minus = UInt8(ascii: "-"), point = UInt8(ascii: ".")
    private static let zero = UInt8(ascii: "0"), space = UInt8(ascii: " ")

    private static let powersOfTen: [Double] = (0...22).map { power in
        (0..<power).reduce(1.0) { product, _ in product * 10 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- zero < 10 }

    private static func skipSpaces(_ position: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) {
        while position < end, position.pointee == space { position += 1 }
    }

    private static func accumulate(
        _ digit: UInt8, into significand: inout UInt64, _ significantDigits: inout Int, exponent: inout Int,
        isFraction: Bool
    ) {
        let value = UInt64(digit &- zero)
        if significantDigits == 0 && value == 0 {
            // A leading zero: no significant digit, but one of the fraction moves the point.
            if isFraction { exponent -= 1 }
            return
        }
        significantDigits += 1
        if significantDigits <= 19 {
            significand = significand * 10 + value
            if isFraction { exponent -= 1 }
        }
    }

    /// `NA`, `nan`, `inf`, `infinity`, each ending where its letters end; `.missing` without moving if the text starts
    /// with none of them, as an empty field does.
    private static func word(
        at position: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, negative: Bool, signed: Bool
    ) -> (reading: Reading, stop: UnsafePointer<UInt8>) {
        func matches(_ word: StaticString) -> Bool {
            guard end - position >= word.utf8CodeUnitCount else { return false }
            for index in 0..<word.utf8CodeUnitCount where position[index] | 0x20 != word.utf8Start[index] {
                return false
            }
            return true
        }
        var stop = position
        let reading: Reading
        if matches("infinity") {
            stop += 8
            reading = .infinity(negative: negative)
        } else if matches("inf") {
            stop += 3
            reading = .infinity(negative: negative)
        } else if matches("nan") {
            stop += 3
            reading = .missing
        } else if !signed, end - position >= 2, position[0] == UInt8(ascii: "N"), position[1] == UInt8(ascii: "A") {
            stop += 2
            reading = .missing
        } else {
            // Nothing a number starts with: an empty field if it ends here (the caller checks), else no number.
            return (signed ? .invalid : .missing, position)
        }
        skipSpaces(&stop, end)
        return (reading, stop)
    }

    /// A decimal the fast path cannot round exactly (more than 19 digits, or a large exponent): glibc's strtod
    /// rounds correctly. The text was checked to be a decimal, so strtod reads all of it and nothing else.
    private static func parseWithStrtod(from start: UnsafePointer<UInt8>, to end: UnsafePointer<UInt8>) -> Double {
        let count = end - start
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { buffer in
            let text = buffer.baseAddress!
            UnsafeMutableRawPointer(text).copyMemory(from: start, byteCount: count)
            text[count] = 0
            return strtod(text, nil)
        }
    }
}
