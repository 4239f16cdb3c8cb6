#if canImport(Glibc)
import Glibc
#endif
import Testing

@testable import InsightModel

/// The number rule `models score` and `train` share.
@Suite struct CSVNumberFieldTests {
    func read(_ text: String) -> CSVNumberField.Reading { CSVNumberField.read(text) }

    /// The fast path (a significand of up to 19 digits, a power of ten up to 22) and the strtod fallback both round
    /// correctly: the same double as glibc's strtod for every decimal, long or short.
    @Test func roundsEveryDecimalAsStrtodDoes() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        for _ in 0..<20_000 {
            let digitCount = Int(next() % 24) + 1
            var digits = (0..<digitCount).map { _ in Character(String(next() % 10)) }
            if next() % 2 == 0 { digits.insert(".", at: Int(next() % UInt64(digitCount + 1))) }
            var text = (next() % 4 == 0 ? "-" : "") + String(digits)
            if next() % 3 == 0 { text += "e\(Int(next() % 700) - 350)" }
            let expected = strtod(text, nil)
            guard case .number(let value) = read(text) else {
                Issue.record("\(text) not read as a number")
                continue
            }
            #expect(value.bitPattern == expected.bitPattern, "\(text)")
        }
    }

    @Test func missingValues() {
        for text in ["", "   ", "NA", " NA ", "nan", "NaN", "NAN", "-nan", "+nan"] {
            #expect(read(text) == .missing, "\(text)")
        }
    }

    @Test func infinities() {
        #expect(read("inf") == .infinity(negative: false))
        #expect(read("-Infinity") == .infinity(negative: true))
        #expect(read(" +INF ") == .infinity(negative: false))
    }

    @Test func spacesAroundANumberAreIgnored() {
        #expect(read(" 1") == .number(1))
        #expect(read("2.5  ") == .number(2.5))
        #expect(read(".5") == .number(0.5))
        #expect(read("5.") == .number(5))
        #expect(read("-0") == .number(-0.0))
    }

    /// Hexadecimal floats are accepted by strtod and Swift's `Double(_:)`, not by CSV readers; a tab is no space.
    @Test func refusesWhatIsNotADecimal() {
        for text in ["0x1", "0x1p3", "1e", "1e+", ".", "+", "-", "1 2", "\t1", "1\t", "1\n", "na", "NA1", "-NA", "1,2", "inff", "1.2.3", "e5"] {
            #expect(read(text) == .invalid, "\(text.utf8.map { $0 })")
        }
    }

    /// A reader scanning in place learns where the number stopped, and it never stops past a line end.
    @Test func scanStopsWhereTheNumberEnds() {
        let text = Array("12.5 ,3\n\t\n4".utf8)
        text.withUnsafeBufferPointer { buffer in
            let start = buffer.baseAddress!
            let end = start + buffer.count
            let first = CSVNumberField.scan(from: start, to: end)
            #expect(first.reading == .number(12.5))
            #expect(first.stop - start == 5)
            let second = CSVNumberField.scan(from: start + 6, to: end)
            #expect(second.reading == .number(3) && second.stop - start == 7)
            // Nothing read at a tab: the scan stops on it, where the caller sees no field end, never at the next line.
            let third = CSVNumberField.scan(from: start + 8, to: end)
            #expect(third.stop - start == 8)
        }
    }
}
