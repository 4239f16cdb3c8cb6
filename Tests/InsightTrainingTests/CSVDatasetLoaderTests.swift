import Foundation
import Testing

@testable import InsightTraining

@Suite struct CSVDatasetLoaderTests {
    let loader = CSVDatasetLoader()

    /// A file too large to hold, or a device that never ends, is refused by name before memory runs out (the
    /// trainer crashed on /dev/zero, allocating gigabytes for a line that never ended).
    @Test func aFileBeyondTheLimitIsRefusedNamingIt() {
        #expect(throws: DatasetError.tooLarge(path: "/dev/zero", limit: 1 << 20)) {
            try CSVDatasetLoader.readFile("/dev/zero", maximumBytes: 1 << 20)
        }
        #expect(DatasetError.tooLarge(path: "big.csv", limit: CSVDatasetLoader.maximumBytes).description
            == "cannot read big.csv: larger than 1 GiB, the most a data file may hold: it is read whole into memory (sample or split the data)")
    }

    /// A regular file is judged by its size before it is read: a sparse one far over the bound is refused at once,
    /// and one of exactly the bound is read whole.
    @Test func aRegularFileIsJudgedByItsSize() throws {
        let path = NSTemporaryDirectory() + "sparse-\(UUID().uuidString).csv"
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data("label,a\n".utf8)))
        #expect(try CSVDatasetLoader.readFile(path, maximumBytes: 8).count == 8)
        #expect(truncate(path, 1 << 40) == 0)
        let started = ContinuousClock.now
        #expect(throws: DatasetError.tooLarge(path: path, limit: 1 << 20)) { try CSVDatasetLoader.readFile(path, maximumBytes: 1 << 20) }
        #expect(ContinuousClock.now - started < .seconds(5))
    }

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
        #expect(throws: DatasetError.wrongFieldCount(path: "t", line: 2, expected: 3, found: 4)) {
            try loader.parse(text: "label,a,b\n1,2,3,4\n", name: "t")
        }
        // A row short of a field is a wrong count, not a bad number in the column it shifted into.
        #expect(throws: DatasetError.wrongFieldCount(path: "t", line: 2, expected: 3, found: 2)) {
            try loader.parse(text: "label,a,b\n1,x\n", name: "t")
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

    /// The shared fixtures are not part of the repository (see InsightModelTests' `Fixtures`).
    static let sharedFixture: String = {
        if let given = ProcessInfo.processInfo.environment["TRUST_INSIGHTS_GBDT_FIXTURES"], !given.isEmpty {
            return given + "/heldout_20k.csv"
        }
        let root = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        return "/\(root)/../shared/fixtures/gbdt/heldout_20k.csv"
    }()

    @Test(.enabled(if: FileManager.default.fileExists(atPath: sharedFixture),
                   "the shared GBDT fixtures are not in ../shared/fixtures/gbdt (set TRUST_INSIGHTS_GBDT_FIXTURES to their folder)"))
    func readsTheSharedFixture() throws {
        let data = try loader.load(path: Self.sharedFixture)
        #expect(data.rowCount == 20_000)
        #expect(data.featureCount == 32)
        #expect(data.values.contains { $0.isNaN })
    }

    @Test func reordersValidationColumnsByName() throws {
        let data = try loader.parse(text: "label,b,a\n1,2,1\n", name: "v")
        let reordered = try data.reordered(toMatch: ["a", "b"])
        #expect(reordered.values == [1, 2])
        #expect(throws: DatasetError.featuresDiffer(path: "v", missing: ["c"], extra: ["b"])) {
            try data.reordered(toMatch: ["a", "c"])
        }
    }

    /// The validation file's difference is named column by column, and the file with it.
    @Test func namesTheColumnsTheValidationDataLacksOrAdds() throws {
        let valid = try loader.parse(text: "label,a,extra\n1,2,3\n", name: "valid.csv")
        do {
            _ = try valid.reordered(toMatch: ["a", "b", "c"])
            Issue.record("expected an error")
        } catch {
            #expect(error == .featuresDiffer(path: "valid.csv", missing: ["b", "c"], extra: ["extra"]))
            #expect(error.description == "valid.csv: its feature columns differ from the training data's: missing 'b', 'c'; extra 'extra'")
        }
    }

    /// A header of one 200 MB name made a 200 MB message (trainer probe, 6 December): long names are cut, with
    /// their length, and long lists end with a count.
    @Test func messagesCutLongNamesAndLongLists() {
        let long = String(repeating: "a", count: 1_000_000)
        let message = DatasetError.featuresDiffer(path: "v.csv", missing: [long], extra: (0..<25).map { "x\($0)" }).description
        #expect(message.count < 400, "\(message.count)")
        #expect(message.contains("'\(String(repeating: "a", count: 48))...' (1000000 bytes)"))
        #expect(message.contains("'x19' and 5 more"))
        #expect(!message.contains("x20"))
        #expect(DatasetError.invalidNumber(path: "t.csv", line: 2, column: long).description.count < 200)
        // One letter and 100,000 combining marks is a single Character: the cut counts code points.
        let combining = "a" + String(repeating: "\u{301}", count: 100_000)
        #expect(DatasetError.invalidNumber(path: "t.csv", line: 2, column: combining).description.utf8.count < 300)
    }

    /// `models score` reads a column named `label` as the label: a model with such a feature could not be scored,
    /// and one trained on a copy of the label would leak it.
    @Test func refusesAFeatureNamedLabel() {
        do {
            _ = try loader.parse(text: "label,a,label\n0,1,0\n1,2,1\n", name: "t.csv")
            Issue.record("expected an error")
        } catch {
            #expect(error == .reservedFeatureName(path: "t.csv", column: 3))
            #expect(error.description.contains("t.csv: column 3"))
            #expect(error.description.contains("a feature may not be named 'label'"))
        }
    }

    @Test func refusesAnEmptyFeatureNameNamingItsColumn() {
        #expect(throws: DatasetError.emptyFeatureName(path: "t.csv", column: 3)) {
            try loader.parse(text: "label,a,\n0,1,\n1,2,\n", name: "t.csv")
        }
        #expect(throws: DatasetError.emptyFeatureName(path: "t.csv", column: 2)) {
            try loader.parse(text: "label,\"\",b\n0,1,2\n", name: "t.csv")
        }
    }

    @Test func headerErrorsNameTheFileAndTheFeature() {
        let duplicate = DatasetError.duplicateFeatureName(path: "t.csv", name: "activeCall", columns: [2, 4])
        #expect(throws: duplicate) { try loader.parse(text: "label,activeCall,b,activeCall\n0,1,2,3\n", name: "t.csv") }
        #expect(duplicate.description == "t.csv: the header names the feature 'activeCall' more than once (columns 2, 4)")
        // A repeated name is quoted before the rule on line breaks is reached: written inert (regression probe,
        // 7 December: a repeated `a\u{2028}b` printed a second line).
        let forged = DatasetError.duplicateFeatureName(path: "t.csv", name: "a\u{2028}b\u{202E}", columns: [2, 3]).description
        #expect(forged == "t.csv: the header names the feature 'a\\u{2028}b\\u{202E}' more than once (columns 2, 3)")
        #expect(throws: DatasetError.noFeatures(path: "t.csv")) { try loader.parse(text: "label\n0\n1\n", name: "t.csv") }
        #expect(DatasetError.noFeatures(path: "t.csv").description.hasPrefix("t.csv: "))
        #expect(throws: DatasetError.empty(path: "t.csv")) { try loader.parse(text: "\u{FEFF}", name: "t.csv") }
    }

    /// A Latin-1 export's `é` would have been read as U+FFFD, making two different names one (and a name no
    /// request can carry); a line break inside a quoted name would break every message that quotes it.
    @Test func refusesHeaderNamesThatAreNotUTF8OrHoldControlCharacters() throws {
        let directory = NSTemporaryDirectory() + "latin1-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/t.csv"
        try Data(Array("label,a,f".utf8) + [0xE9] + Array(",f".utf8) + [0xE8] + Array("\n0,1,2,3\n".utf8)).write(to: URL(fileURLWithPath: path))
        #expect(throws: DatasetError.notUTF8(path: path, line: 1, column: 3)) { try loader.load(path: path) }
        #expect(DatasetError.notUTF8(path: path, line: 1, column: 3).description.contains("column 3 is not UTF-8"))
        #expect(throws: DatasetError.controlCharacterInFeatureName(path: "t.csv", column: 3)) {
            try loader.parse(text: "label,a,\"f\n0\"\n0,1,2\n", name: "t.csv")
        }
        #expect(throws: DatasetError.controlCharacterInFeatureName(path: "t.csv", column: 2)) {
            try loader.parse(text: "label,a\tb\n0,1\n", name: "t.csv")
        }
        // Unicode's line and paragraph separators are line breaks too, and a direction override reorders the line it
        // is printed on; a zero-width joiner (in emoji) is neither.
        for separator in ["\u{2028}", "\u{2029}", "\u{202E}", "\u{2067}"] {
            #expect(throws: DatasetError.controlCharacterInFeatureName(path: "t.csv", column: 3)) {
                try loader.parse(text: "label,a,x\(separator)y\n0,1,2\n", name: "t.csv")
            }
        }
        #expect(try loader.parse(text: "label,a,👩\u{200D}💻\n0,1,2\n1,2,3\n", name: "t.csv").featureNames == ["a", "👩\u{200D}💻"])
    }

    @Test func sayWhenLinesEndInACarriageReturnAlone() {
        let error = DatasetError.carriageReturnLineEnding(path: "mac.csv", line: 1)
        #expect(throws: error) { try loader.parse(text: "label,a\r0,1\r1,2\r", name: "mac.csv") }
        #expect(error.description.contains("CR-only line endings"))
        // A stray one in a row.
        #expect(throws: DatasetError.carriageReturnLineEnding(path: "t", line: 3)) {
            try loader.parse(text: "label,a\n0,1\n1,2\r0,1\n", name: "t")
        }
    }

    /// A carriage return inside a quoted field is text (RFC 4180), as `models score` reads it: refused for what it
    /// is, a control character in a name or a value that is no number, not as CR-only line endings, in files whose
    /// lines end in CRLF or LF throughout (ML probe, 7 December).
    @Test func aQuotedCarriageReturnIsTextNotALineEnding() {
        #expect(throws: DatasetError.controlCharacterInFeatureName(path: "h1.csv", column: 2)) {
            try loader.parse(text: "label,\"a\r\nz\",b\r\n1,0.5,0.2\r\n0,0.1,0.3\r\n", name: "h1.csv")
        }
        #expect(throws: DatasetError.controlCharacterInFeatureName(path: "h2.csv", column: 4)) {
            try loader.parse(text: "label,a,b,\"n\ry\"\n1,0.5,0.2,1\n0,0.1,0.3,2\n", name: "h2.csv")
        }
        #expect(throws: DatasetError.invalidNumber(path: "h4.csv", line: 2, column: "n")) {
            try loader.parse(text: "label,a,b,n\n1,0.5,0.2,\"x\ry\"\n0,0.1,0.3,2\n", name: "h4.csv")
        }
        // Outside quotes, after a quoted field, one still is.
        #expect(throws: DatasetError.carriageReturnLineEnding(path: "h5.csv", line: 2)) {
            try loader.parse(text: "label,a,b\n1,\"0.5\",2\r0,1,2\n", name: "h5.csv")
        }
    }

    @Test func aMissingFileIsNamedWithTheSystemsReason() {
        do {
            _ = try loader.load(path: "/nonexistent/train.csv")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "cannot read /nonexistent/train.csv: no such file")
        }
    }

    /// A folder is named as one, as the service's loaders name it, not by the read's "Is a directory".
    @Test func aFolderIsNamedAsOne() {
        let error = #expect(throws: DatasetError.self) { try loader.load(path: NSTemporaryDirectory()) }
        #expect(error?.description == "cannot read \(NSTemporaryDirectory()): it is a folder, not a file")
    }

    /// `strtof` skips any whitespace, a line feed included, so a last field holding a tab read on into the next line.
    @Test func whitespaceOtherThanSpacesNeverJoinsALineToTheNext() throws {
        for whitespace in ["\t", "\u{0B}", "\u{0C}", "1\t", "\t1"] {
            #expect(throws: DatasetError.disallowedWhitespace(path: "t", line: 3, column: "b"), "\(whitespace.utf8.map { $0 })") {
                try loader.parse(text: "label,a,b\n0,1,1\n1,2,\(whitespace)\n0,1,1\n1,2,2\n", name: "t")
            }
        }
        // Spaces around a value are what every reader tolerates; a field of spaces is missing.
        let data = try loader.parse(text: "label,a,b\n0, 1 ,  \n1,2,2\n")
        #expect(data.rowCount == 2)
        #expect(data.values[0] == 1 && data.values[1].isNaN)
    }

    @Test func labelsAreTheDecimalsZeroAndOne() throws {
        let data = try loader.parse(text: "label,a\n0.0,1\n1.0,2\n\"1\",3\n 0 ,4\n")
        #expect(data.labels == [0, 1, 1, 0])
        for label in ["0.99999999999", "0x1", "1e0", "+1", "-0", "2", "0.5", "nan", "", "1.01", "01"] {
            #expect(throws: DatasetError.invalidLabel(path: "t", line: 3), "\(label)") {
                try loader.parse(text: "label,a\n0,1\n\(label),2\n", name: "t")
            }
        }
    }

    @Test func aValueBeyondFloat32IsOutOfRangeNotInfinite() {
        for value in ["1e39", "-3.5e38", "1e400"] {
            let error = DatasetError.outsideFloat32Range(path: "t", line: 2, column: "a")
            #expect(throws: error, "\(value)") { try loader.parse(text: "label,a\n1,\(value)\n", name: "t") }
            #expect(error.description.contains("outside float32's range"))
        }
        #expect(throws: DatasetError.nonFiniteValue(path: "t", line: 2, column: "a")) {
            try loader.parse(text: "label,a\n1,-Infinity\n", name: "t")
        }
    }

    @Test func refusesHexadecimalFloats() {
        #expect(throws: DatasetError.invalidNumber(path: "t", line: 2, column: "a")) {
            try loader.parse(text: "label,a\n1,0x1p3\n", name: "t")
        }
    }

    /// A blank line in a table of several columns is refused by `models score`; the trainer does not skip it either.
    @Test func aBlankLineIsAnErrorNamingItsLine() {
        #expect(throws: DatasetError.blankLine(path: "t", line: 3, expected: 2)) {
            try loader.parse(text: "label,a\n0,1\n\n1,2\n", name: "t")
        }
        #expect(throws: DatasetError.blankLine(path: "t", line: 3, expected: 2)) {
            try loader.parse(text: "label,a\r\n0,1\r\n\r\n", name: "t")
        }
    }

    @Test func quotesFollowRFC4180() throws {
        #expect(throws: DatasetError.badQuote(path: "t", line: 2)) { try loader.parse(text: "label,a\n1,\"1\"2\n", name: "t") }
        #expect(throws: DatasetError.badQuote(path: "t", line: 2)) { try loader.parse(text: "label,a\n1,\"12\n", name: "t") }
        #expect(throws: DatasetError.badQuote(path: "t", line: 2)) { try loader.parse(text: "label,a\n1,1\"2\n", name: "t") }
        #expect(throws: DatasetError.badQuote(path: "t", line: 1)) { try loader.parse(text: "label,a\"b\"\n1,1\n", name: "t") }
        // A quoted field may span lines (RFC 4180), but a feature name may not hold a line break.
        #expect(throws: DatasetError.controlCharacterInFeatureName(path: "t", column: 2)) {
            try loader.parse(text: "label,\"a\nb\"\n1,2\n0,x\n", name: "t")
        }
    }

    /// XGBoost, and `models score` for a float32 model, round a decimal to double and then to float32; a decimal
    /// just past a float32 midpoint parses to the midpoint as a double, which rounds to even.
    @Test func roundsThroughDoubleAsModelsScoreDoes() throws {
        let text = "1.0000000596046447753906251"
        #expect(Float(text)! == Float(1).nextUp)
        #expect(try loader.parse(text: "label,a\n1,\(text)\n").values == [1])
    }
}
