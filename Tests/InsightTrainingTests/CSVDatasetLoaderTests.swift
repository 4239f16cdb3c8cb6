import Testing

@testable import InsightTraining

@Suite struct CSVDatasetLoaderTests {
    let loader = CSVDatasetLoader()

    @Test func readsValuesMissingFieldsAndCRLF() throws {
        let data = try loader.parse(text: "label,a,b\r\n1,0.100000001,\r\n0,,-2.5e3\r\n")
        #expect(data.featureNames == ["a", "b"])
        #expect(data.labels == [1, 0])
        #expect(data.values[0] == Float(0.1))
        #expect(data.values[1].isNaN && data.values[2].isNaN)
        #expect(data.values[3] == -2500)
    }

    @Test func float32TextRoundTripsExactly() throws {
        let value: Float = 0.0723454952
        let data = try loader.parse(text: "label,a\n0,\(value)\n1,\(value.nextUp)\n")
        #expect(data.values == [value, value.nextUp])
    }

    @Test func rejectsAWrongFieldCountWithTheLine() {
        #expect(throws: DatasetError.wrongFieldCount(path: "t", line: 3, expected: 3, found: 2)) {
            try loader.parse(text: "label,a,b\n1,2,3\n0,1\n", name: "t")
        }
    }

    @Test func rejectsBadNumbersWithoutEchoingThem() throws {
        do {
            _ = try loader.parse(text: "label,amount\n1,12secret34\n", name: "t")
            Issue.record("expected an error")
        } catch {
            #expect(error == .invalidNumber(path: "t", line: 2, column: "amount"))
            #expect(!error.description.contains("secret"))
        }
    }

    @Test func rejectsInfinityAndBadLabels() {
        #expect(throws: DatasetError.nonFiniteValue(path: "t", line: 2, column: "a")) {
            try loader.parse(text: "label,a\n1,inf\n", name: "t")
        }
        #expect(throws: DatasetError.invalidLabel(path: "t", line: 2)) {
            try loader.parse(text: "label,a\n2,1\n", name: "t")
        }
        #expect(throws: DatasetError.missingLabelColumn(path: "t")) {
            try loader.parse(text: "y,a\n1,1\n", name: "t")
        }
    }

    @Test func readsTheSharedFixture() throws {
        let root = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        let data = try loader.load(path: "/\(root)/../shared/fixtures/gbdt/heldout_20k.csv")
        #expect(data.rowCount == 20_000)
        #expect(data.featureCount == 32)
        #expect(data.values.contains { $0.isNaN })
    }

    @Test func reordersValidationColumnsByName() throws {
        let data = try loader.parse(text: "label,b,a\n1,2,1\n")
        let reordered = try data.reordered(toMatch: ["a", "b"])
        #expect(reordered.values == [1, 2])
        #expect(throws: DatasetError.featuresDiffer) { try data.reordered(toMatch: ["a", "c"]) }
    }
}
