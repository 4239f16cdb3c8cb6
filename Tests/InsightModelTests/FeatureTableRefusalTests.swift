import Testing
@testable import InsightModel

/// What a feature CSV may not hold, as `train` refuses it too: a header naming a column twice, a value that would
/// be scored as an infinity, a label other than 0 or 1. Each error names the line and the column.
@Suite struct FeatureTableRefusalTests {
    @Test func refusesAHeaderNamingAColumnTwiceNamingBothColumns() {
        let repeated = FeatureTable.ReadError.repeatedColumnName(name: "x0", columns: [2, 3])
        #expect(throws: repeated) { try FeatureTable(csv: "label,x0,x0\n0,-0.5,0.5\n1,0.5,-0.5\n") }
        #expect(repeated.description == "the header names the column 'x0' more than once (columns 2, 3)")
        // Written inert and cut, as `train` quotes it (regression probe, 7 December: a repeated `a\u{2028}b` printed
        // two lines, and a repeated name of a megabyte a message of a megabyte).
        #expect(FeatureTable.ReadError.repeatedColumnName(name: "a\u{2028}b\u{202E}", columns: [2, 3]).description
            == "the header names the column 'a\\u{2028}b\\u{202E}' more than once (columns 2, 3)")
        #expect(FeatureTable.ReadError.repeatedColumnName(name: String(repeating: "n", count: 1_000_000), columns: [2, 3]).description.count < 200)
        // Quoting a name does not make it another name.
        #expect(throws: repeated) { try FeatureTable(csv: "label,\"x0\",x0\n0,1,2\n") }
        #expect(throws: FeatureTable.ReadError.repeatedColumnName(name: "a", columns: [1, 3, 4])) {
            try FeatureTable(csv: "a,b,a,a\n1,2,3,4\n")
        }
        // A second label column would otherwise be read as a feature named `label`.
        #expect(throws: FeatureTable.ReadError.repeatedColumnName(name: "label", columns: [1, 3])) {
            try FeatureTable(csv: "label,a,label\n0,1,1\n")
        }
    }

    /// Nothing says which of the two columns the writer meant, even where the model reads neither.
    @Test func refusesARepeatedNameInAColumnTheModelDoesNotRead() {
        #expect(throws: FeatureTable.ReadError.repeatedColumnName(name: "id", columns: [1, 3])) {
            try FeatureTable(csv: "id,a,id\nx,1,y\n")
        }
    }

    /// XGBoost refuses infinite input, so a float32 model refuses it too.
    @Test func aFloat32ModelRefusesInfiniteValuesNamingLineAndColumn() {
        for value in ["inf", "-inf", "Infinity", "+INF", " -infinity ", "\"inf\""] {
            #expect(throws: FeatureTable.ReadError.infiniteValue(line: 3, column: "b"), "\(value)") {
                try FeatureTable(csv: "a,b\n1,2\n1,\(value)\n").matrix(for: ["a", "b"])
            }
        }
        #expect(FeatureTable.ReadError.infiniteValue(line: 3, column: "b").description == "line 3: column 'b' is infinite")
    }

    /// LightGBM trains on and predicts infinities; a float64 model reads them, and a decimal beyond a double's range
    /// (`1e400`) as the infinity a CSV parser (strtod, pandas) makes of it.
    @Test func aFloat64ModelReadsInfinitiesAsLightGBMDoes() throws {
        let table = try FeatureTable(
            csv: "a,b,c,d,e,f\ninf,-Infinity, +INF ,\"-inf\",1e400,-1\(String(repeating: "0", count: 400))\n",
            parseAsDouble: true)
        #expect(try table.matrix(for: ["a", "b", "c", "d", "e", "f"]).values == [.infinity, -.infinity, .infinity, -.infinity, .infinity, -.infinity])
        for value in ["1e400", "-1e400"] {
            #expect(throws: FeatureTable.ReadError.outsideFloat32Range(line: 2, column: "a"), "\(value)") {
                try FeatureTable(csv: "a\n\(value)\n").matrix(for: ["a"])
            }
        }
    }

    /// A float32 model rounds its input to float32, as XGBoost does: `1e39` would become an infinity there, as it does
    /// in `train`, which refuses it the same way. A float64 model reads it as the double it is.
    @Test func aFloat32ModelRefusesADecimalBeyondFloat32AndAFloat64ModelReadsIt() throws {
        for value in ["1e39", "-3.5e38"] {
            #expect(throws: FeatureTable.ReadError.outsideFloat32Range(line: 2, column: "a"), "\(value)") {
                try FeatureTable(csv: "a\n\(value)\n").matrix(for: ["a"])
            }
            #expect(try FeatureTable(csv: "a\n\(value)\n", parseAsDouble: true).values == [Double(value)!])
        }
        #expect(
            FeatureTable.ReadError.outsideFloat32Range(line: 2, column: "a").description
                == "line 2: column 'a' is outside float32's range (magnitude at most 3.4028235e38)")
        // Below the midpoint to 2^128, a decimal rounds to float32's largest value, which is finite.
        for value in ["3.4028235e38", "3.4028235677e38"] {
            #expect(try FeatureTable(csv: "a\n\(value)\n").values == [Double(Float.greatestFiniteMagnitude)])
        }
    }

    /// Underflow rounds to zero, as the libraries' parsers round it; missing values stay missing.
    @Test(arguments: [false, true])
    func underflowReadsAsZeroAndMissingValuesStayMissing(parseAsDouble: Bool) throws {
        let table = try FeatureTable(csv: "a,b,c,d,e,f\n1e-400,-1e-400,,NA,nan,-NaN\n", parseAsDouble: parseAsDouble)
        let values = try table.matrix(for: ["a", "b", "c", "d", "e", "f"]).values
        #expect(values[0].bitPattern == (0.0).bitPattern)
        #expect(values[1].bitPattern == (-0.0).bitPattern)
        #expect(values[2...].allSatisfy { $0.isNaN })
    }

    /// An ID column may hold anything until it is asked for, an infinity included.
    @Test func aColumnTheModelDoesNotReadMayHoldAnInfinity() throws {
        let table = try FeatureTable(csv: "id,a\ninf,1\n1e400,2\n")
        #expect(try table.matrix(for: ["a"]).values == [1, 2])
        #expect(throws: FeatureTable.ReadError.infiniteValue(line: 2, column: "id")) { try table.matrix(for: ["id"]) }
    }

    @Test func theEarliestLineIsNamedWhenSeveralFieldsCannotBeScored() {
        #expect(throws: FeatureTable.ReadError.infiniteValue(line: 2, column: "b")) {
            try FeatureTable(csv: "a,b\n1,inf\nx,2\n").matrix(for: ["a", "b"])
        }
        #expect(throws: FeatureTable.ReadError.badField(line: 2, column: "a")) {
            try FeatureTable(csv: "a,b\nx,2\n1,-inf\n").matrix(for: ["a", "b"])
        }
    }

    /// A tab around a value is named as `train` names it, with the same words: they share the number parser, and
    /// `models score` said only "is not a number" (found by a probe).
    @Test func aTabInAFieldIsNamedAsTrainNamesIt() {
        for field in ["\t1.5", "1.5\t", "\u{0B}2", "3\u{0C}"] {
            #expect(throws: FeatureTable.ReadError.disallowedWhitespace(line: 2, column: "a"), "\(field.debugDescription)") {
                try FeatureTable(csv: "a\n\(field)\n").matrix(for: ["a"])
            }
        }
        #expect(FeatureTable.ReadError.disallowedWhitespace(line: 2, column: "a").description
            == "line 2: column 'a' holds a tab or other whitespace: only spaces may surround a value")
        #expect(throws: FeatureTable.ReadError.badField(line: 2, column: "a")) { try FeatureTable(csv: "a\nx\n").matrix(for: ["a"]) }
    }

    /// `0.5` is a number, so "not a number" was the wrong thing to say: it is not a class.
    @Test func aLabelThatIsNotZeroOrOneIsAWrongLabel() {
        for label in ["0.5", "2", "-1", "3.0", "0.9999999999", "1e300", "inf", "nan", "NA", ""] {
            #expect(throws: FeatureTable.ReadError.badLabel(line: 3), "\(label)") {
                try FeatureTable(csv: "a,label\n1,1\n1,\(label)\n")
            }
        }
        #expect(FeatureTable.ReadError.badLabel(line: 3).description.hasPrefix("line 3: label must be 0 or 1"))
    }
}
