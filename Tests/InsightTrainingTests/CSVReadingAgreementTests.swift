import InsightModel
import Testing

@testable import InsightTraining

/// `train` and `models score` read one CSV the same way, so a model can always score the file it was trained on:
/// the same names, labels and float32 values from every file either accepts.
@Suite struct CSVReadingAgreementTests {
    @Test(arguments: [
        // R's write.csv: every name quoted, missing as NA.
        "\"label\",\"a\",\"b\"\n1,1.5,NA\n0,-2,3\n",
        // A quoted name holding a doubled quote and a comma; pandas' nan.
        "label,\"a\"\"q\",\"x,y\"\n1,1.5,nan\n0,-2,3\n",
        // Excel's "CSV UTF-8": a byte order mark, CRLF, quoted values.
        "\u{FEFF}label,a,b\r\n\"1\",\"1.5\",\"\"\r\n\"0\",\"-2\",\"3\"\r\n",
        // Padded columns, no final line break.
        "label,a,b\n1, 1.5 ,\n0,-2 , 3",
        // Digits and exponents both readers must round alike: past 19 digits, at float32 midpoints, subnormals.
        "label,a,b\n1,1.0000000596046447753906251,1e-45\n0,0.1234567890123456789012,-7.006e-46\n",
        "label,a,b\n1,3.4028235e38,NaN\n0,16777217,.5\n",
    ])
    func bothReadersGiveTheSameTable(csv: String) throws {
        let dataset = try CSVDatasetLoader().parse(text: csv)
        let table = try FeatureTable(csv: csv)
        #expect(dataset.featureNames == table.columnNames)
        #expect(table.labels == dataset.labels.map { Int($0) })
        let scored = try table.matrix(for: dataset.featureNames).values
        #expect(scored.count == dataset.values.count)
        for (trained, scored) in zip(dataset.values, scored) {
            #expect(trained.bitPattern == Float(scored).bitPattern || (trained.isNaN && scored.isNaN))
        }
    }

    /// What `train` refuses, a float32 model's `models score` refuses too, for the same reason and at the same place.
    @Test(arguments: [
        ("label,a,a\n0,1,2\n", DatasetError.duplicateFeatureName(path: "t", name: "a", columns: [2, 3]),
         FeatureTable.ReadError.repeatedColumnName(name: "a", columns: [2, 3])),
        ("label,a,b\n0,1,2\n1,3,-inf\n", .nonFiniteValue(path: "t", line: 3, column: "b"),
         .infiniteValue(line: 3, column: "b")),
        ("label,a,b\n0,1e39,2\n", .outsideFloat32Range(path: "t", line: 2, column: "a"),
         .outsideFloat32Range(line: 2, column: "a")),
        ("label,a,b\n0,1e400,2\n", .outsideFloat32Range(path: "t", line: 2, column: "a"),
         .outsideFloat32Range(line: 2, column: "a")),
        ("label,a,b\n0.5,1,2\n", .invalidLabel(path: "t", line: 2), .badLabel(line: 2)),
        // Lines ending in CR alone.
        ("label,a,b\r0,1,2\r", .carriageReturnLineEnding(path: "t", line: 1), .carriageReturnLineEnding(line: 1)),
        // Numbers equal to a class but not written as one.
        ("label,a,b\n0,1,2\n+1,1,2\n", .invalidLabel(path: "t", line: 3), .badLabel(line: 3)),
        ("label,a,b\n01,1,2\n", .invalidLabel(path: "t", line: 2), .badLabel(line: 2)),
        ("label,a,b\n1e0,1,2\n", .invalidLabel(path: "t", line: 2), .badLabel(line: 2)),
        ("label,a,b\n-0,1,2\n", .invalidLabel(path: "t", line: 2), .badLabel(line: 2)),
    ])
    func bothReadersRefuseTheSameFields(csv: String, trained: DatasetError, scored: FeatureTable.ReadError) {
        #expect(throws: trained) { try CSVDatasetLoader().parse(text: csv, name: "t") }
        #expect(throws: scored) { try FeatureTable(csv: csv).matrix(for: ["a", "b"]) }
        // Both say it in the same words, after the file's name.
        let trainedText = trained.description.split(separator: ": ", maxSplits: 1)[1]
        #expect(scored.description.hasSuffix(trainedText.replacing("the feature", with: "the column")))
    }
}
