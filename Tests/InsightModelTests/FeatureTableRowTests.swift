import Testing
@testable import InsightModel

/// Which lines of a feature CSV are rows, and how their values are read.
@Suite struct FeatureTableRowTests {
    /// A one-feature model's row whose only value is missing is a blank line (pandas writes NaN as nothing).
    @Test func aBlankLineInAOneColumnTableIsARowWithItsValueMissing() throws {
        let table = try FeatureTable(csv: "f0\n0.5\n\n-1\n")
        #expect(table.rowCount == 3)
        #expect(table.values[0] == 0.5 && table.values[1].isNaN && table.values[2] == -1)
        #expect(try FeatureTable(csv: "f0\n0.5\n\n").rowCount == 2)
        #expect(try FeatureTable(csv: "f0\r\n\r\n0.5\r\n").rowCount == 2)
    }

    @Test func theLineBreakEndingTheLastRowIsNotARow() throws {
        #expect(try FeatureTable(csv: "f0\n0.5\n").rowCount == 1)
        #expect(try FeatureTable(csv: "f0\n0.5").rowCount == 1)
        #expect(try FeatureTable(csv: "a,b\n1,2\n").rowCount == 1)
        #expect(try FeatureTable(csv: "a,b\n").rowCount == 0)
    }

    @Test func aBlankLineInAWiderTableIsAnErrorNamingItsLine() {
        #expect(throws: FeatureTable.ReadError.blankLine(line: 3, expected: 2)) { try FeatureTable(csv: "a,b\n1,2\n\n3,4\n") }
        #expect(throws: FeatureTable.ReadError.blankLine(line: 3, expected: 3)) {
            try FeatureTable(csv: "a,b,label\r\n1,2,0\r\n\r\n")
        }
        #expect(FeatureTable.ReadError.blankLine(line: 3, expected: 2).description.hasPrefix("line 3 is blank"))
    }

    /// An ID or free-text column the model does not read may hold anything; a feature column may not.
    @Test func aColumnOnlyHasToHoldNumbersWhenItIsAskedFor() throws {
        let table = try FeatureTable(csv: "id,a,label,note\nx-17,1,0,hello\ny-2,2.5,1,\"a, b\"\n")
        #expect(try table.matrix(for: ["a"]).values == [1, 2.5])
        #expect(table.labels == [0, 1])
        #expect(throws: FeatureTable.ReadError.badField(line: 2, column: "id")) { try table.matrix(for: ["a", "id"]) }
        #expect(throws: FeatureTable.ReadError.badField(line: 2, column: "note")) { try table.matrix(for: ["note"]) }
    }

    /// XGBoost rounds a double to float32; a caller's parser made that double from the text. A decimal just past a
    /// float32 midpoint parses to the midpoint as a double, which rounds to even: not what rounding the text does.
    @Test func roundsThroughDoubleForFloat32Models() throws {
        let text = "1.0000000596046447753906251"
        #expect(Float(text)! == Float(1).nextUp)
        #expect(try FeatureTable(csv: "a\n\(text)\n").values == [1])
        #expect(try FeatureTable(csv: "a\n\(text)\n", parseAsDouble: true).values == [Double(text)!])
    }

    @Test func keepsEveryDigitOfADoubleForFloat64Models() throws {
        #expect(try FeatureTable(csv: "a\n0.1\n", parseAsDouble: true).values == [0.1])
        #expect(try FeatureTable(csv: "a\n0.1\n").values == [Double(Float(0.1))])
    }
}
