import Testing
@testable import InsightModel

/// Feature CSVs as other tools write them: the same table must come out of each.
@Suite struct FeatureTableTests {
    static let plain = "a,b,label\n1.5,,1\n-2,3,0\n"

    @Test(arguments: [
        // R's write.csv: every name quoted, missing as NA.
        "\"a\",\"b\",\"label\"\n1.5,NA,1\n-2,3,0\n",
        // Windows line endings, no final line break.
        "a,b,label\r\n1.5,,1\r\n-2,3,0",
        // Excel's "CSV UTF-8": a byte order mark, then quoted values.
        "\u{FEFF}a,b,label\r\n\"1.5\",\"\",\"1\"\r\n\"-2\",\"3\",\"0\"\r\n",
        // pandas' "nan".
        "a,b,label\n1.5,nan,1\n-2,3,0\n",
    ])
    func readsTheSameTableWhateverTheToolQuotedOrEndedLinesWith(csv: String) throws {
        let expected = try FeatureTable(csv: Self.plain)
        let table = try FeatureTable(csv: csv)
        #expect(table.columnNames == expected.columnNames)
        #expect(table.labels == expected.labels)
        #expect(table.values.count == expected.values.count)
        for (value, reference) in zip(table.values, expected.values) {
            #expect(value == reference || (value.isNaN && reference.isNaN))
        }
    }

    @Test func readsQuotedNamesHoldingCommasQuotesAndLineBreaks() throws {
        let table = try FeatureTable(csv: "\"x,y\",\"say \"\"hi\"\"\",\"two\nlines\"\n1,2,3\n")
        #expect(table.columnNames == ["x,y", "say \"hi\"", "two\nlines"])
        #expect(table.values == [1, 2, 3])
        #expect(try table.matrix(for: ["two\nlines", "x,y"]).values == [3, 1])
    }

    @Test func namesTheLineOfEachMistake() throws {
        #expect(throws: FeatureTable.ReadError.badQuote(line: 2)) { try FeatureTable(csv: "a,b\n\"1,2\n3,4\n") }
        #expect(throws: FeatureTable.ReadError.badQuote(line: 2)) { try FeatureTable(csv: "a,b\n\"1\"x,2\n") }
        #expect(throws: FeatureTable.ReadError.badQuote(line: 3)) { try FeatureTable(csv: "a,b\n1,2\n1\"5,2\n") }
        #expect(throws: FeatureTable.ReadError.wrongFieldCount(line: 3, expected: 2, found: 3)) {
            try FeatureTable(csv: "a,b\n1,2\n1,2,3\n")
        }
        #expect(throws: FeatureTable.ReadError.wrongFieldCount(line: 2, expected: 2, found: 1)) { try FeatureTable(csv: "a,b\n1\n") }
        #expect(throws: FeatureTable.ReadError.badField(line: 3, column: "b")) {
            try FeatureTable(csv: "a,b\n1,2\n1,x\n4,y\n").matrix(for: ["a", "b"])
        }
        // A label that is no number at all is named as such; any number but 0 or 1 is a wrong label
        // (FeatureTableRefusalTests).
        for label in ["yes", "0x1"] {
            #expect(throws: FeatureTable.ReadError.badField(line: 2, column: "label")) { try FeatureTable(csv: "a,label\n1,\(label)\n") }
        }
        // Labels are 0 or 1, as train reads them: another coding is refused, not counted as negatives.
        // A number equal to 0 or 1 but written otherwise is refused too, as train refuses it.
        for label in ["2", "-1", "3.0", "+1", "01", "1e0", "-0", "1.01"] {
            #expect(throws: FeatureTable.ReadError.badLabel(line: 3), "\(label)") {
                try FeatureTable(csv: "a,label\n1,1\n1,\(label)\n")
            }
        }
        #expect(try FeatureTable(csv: "a,label\n1,1.0\n2,0\n3, 0. \n4,\"1\"\n").labels == [1, 0, 0, 1])
        #expect(throws: FeatureTable.ReadError.empty) { try FeatureTable(csv: "\n\n") }
    }

    /// The rule `train` reads values by (`CSVNumberField`): a file the trainer accepted, padded columns included,
    /// scores; a hexadecimal float, which `Double(_:)` would accept, is no number in either.
    @Test func readsValuesByTheTrainersRule() throws {
        let padded = try FeatureTable(csv: "a,b,label\n 1.5 ,  , 1\n-2 ,3,0\n")
        let plain = try FeatureTable(csv: Self.plain)
        #expect(padded.labels == plain.labels)
        #expect(padded.values.map(\.bitPattern) == plain.values.map(\.bitPattern))
        #expect(throws: FeatureTable.ReadError.badField(line: 2, column: "a")) {
            try FeatureTable(csv: "a\n0x1p3\n").matrix(for: ["a"])
        }
        #expect(throws: FeatureTable.ReadError.badField(line: 2, column: "label")) { try FeatureTable(csv: "a,label\n1,0x1\n") }
    }
}
