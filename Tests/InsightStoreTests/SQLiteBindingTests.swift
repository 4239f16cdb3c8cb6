import Foundation
import Testing
@testable import InsightStore

/// Text is bound by pointer and length, not as a C string: every kind of Swift string must arrive byte for byte,
/// the empty string must stay text (a null pointer would bind NULL), and NUL bytes inside must survive.
@Suite struct SQLiteBindingTests {
    private static let staticSQL: StaticString = "SELECT ?1, typeof(?1), length(CAST(?1 AS BLOB))"

    @Test(arguments: [
        "", "a", "acme", "exactly15 bytes", "sixteen bytes!!!", String(repeating: "long text ", count: 40),
        "caf\u{E9} \u{1F600}", "nul\u{0}inside", String("a substring, then a string".dropFirst(2)),
        NSString(string: "bridged from Foundation") as String,
    ])
    func textArrivesByteForByte(_ value: String) throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("db.sqlite"))
        let statement = try connection.statement(Self.staticSQL).bind(1, value)
        #expect(try statement.step())
        #expect(statement.string(1) == "text")
        #expect(statement.int(2) == value.utf8.count)
        #expect(statement.blob(0) == Array(value.utf8))
        statement.reset()
    }

    @Test func columnTextIsLentByteForByteAndNullLendsNothing() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("db.sqlite"))
        let statement = try connection.statement("SELECT ?1, NULL, 42").bind(1, "caf\u{E9} nul\u{0}inside")
        #expect(try statement.step())
        #expect(statement.withUTF8(0) { Array($0) } == Array("caf\u{E9} nul\u{0}inside".utf8))
        #expect(statement.withUTF8(1) { $0.count } == 0)
        #expect(statement.withUTF8(2) { Array($0) } == Array("42".utf8))
    }

    @Test func aStaticStatementIsPreparedOnceAndRebound() throws {
        let directory = try TemporaryDirectory()
        let connection = try SQLiteConnection(path: directory.file("db.sqlite"))
        let first = try connection.statement(Self.staticSQL).bind(1, "one")
        #expect(try first.step())
        let second = try connection.statement(Self.staticSQL).bind(1, "two")
        #expect(first === second)
        #expect(try second.step())
        #expect(second.string(0) == "two")
        second.reset()
    }
}
