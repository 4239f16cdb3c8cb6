#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import InsightModel

@testable import TrustInsightsApp

/// What the `models` commands say about an input that is not a readable file.
@Suite struct ModelsInputFileTests {
    @Test func aDirectoryGivenAsTheSourceModelIsNamedAsOne() throws {
        let harness = try ModelsCommandHarness()
        try harness.write("x", to: "folder/inside.txt")
        let result = harness.importModel("folder", from: "xgboost", to: "m.json")
        #expect(result.status != 0)
        #expect(result.errors.contains("cannot read \(harness.path("folder")): it is a folder, not a file"), "\(result.errors)")
        #expect(!result.errors.contains("CocoaError"))
    }

    @Test func aDirectoryGivenAsRowsToScoreIsNamedAsOne() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.xgboostOneFeature, to: "model.json")
        #expect(harness.importModel("model.json", from: "xgboost", to: "m.json").status == 0)
        try harness.write("x", to: "rows/inside.txt")
        let result = harness.run(["models", "score", "--model", harness.path("m.json"), "--input", harness.path("rows")])
        #expect(result.errors.contains("it is a folder, not a file"), "\(result.errors)")
    }

    @Test func aSocketGivenAsRowsToScoreIsNamedAsOne() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.xgboostOneFeature, to: "model.json")
        #expect(harness.importModel("model.json", from: "xgboost", to: "m.json").status == 0)
        let socket = try #require(BoundUnixSocket(path: harness.path("rows.csv")))
        defer { socket.close() }
        let result = harness.run(["models", "score", "--model", harness.path("m.json"), "--input", harness.path("rows.csv")])
        #expect(result.status == 1)
        #expect(result.errors.contains("cannot read \(harness.path("rows.csv")): not a regular file (a socket)"), "\(result.errors)")
    }

    @Test func aMissingFileIsNamed() throws {
        let harness = try ModelsCommandHarness()
        let result = harness.importModel("absent.json", from: "xgboost", to: "m.json")
        #expect(result.errors.contains("cannot read \(harness.path("absent.json")): no such file"), "\(result.errors)")
    }

    /// A named pipe reads like a file (as `<(...)` gives one), and an empty input is named for what it holds, not
    /// refused as a permission problem.
    @Test func aPipeIsReadAndAnEmptyInputIsNamedForItsContent() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.xgboostOneFeature, to: "model.json")
        let fifo = harness.path("fifo.json")
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            let descriptor = open(fifo, O_WRONLY)
            let bytes = Array(ModelsCommandHarness.xgboostOneFeature.utf8)
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        }
        writer.start()
        let piped = harness.importModel("fifo.json", from: "xgboost", to: "m.json")
        #expect(piped.status == 0, "\(piped.errors)")
        let empty = harness.run(["models", "score", "--model", "/dev/null", "--input", "/dev/null"])
        #expect(empty.status == 1)
        #expect(empty.errors.contains("/dev/null: not a trust-insights model document"), "\(empty.errors)")
        #expect(!empty.errors.contains("permission denied"))
    }

    @Test func foundationErrorsReadAsTheSystemsReason() {
        let error = CocoaError(.fileReadUnknown, userInfo: ["NSUnderlyingError": POSIXError(.EACCES)])
        #expect(FileErrorText.reason(error) == "permission denied")
    }
}
