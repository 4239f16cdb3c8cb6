import JSONStream

/// libFuzzer entry for the JSONStream pull reader and writer.
///
/// Checks, beyond "does not crash": skipping a document and reading it into values agree on whether it is valid;
/// a valid document written back with JSONWriter reads back to the same values (strings, escapes and numbers
/// survive the round trip); a document deeper than the limit is refused, never overflowing the stack; and the
/// grammar check refusals use agrees with the reader wherever the reader reads to the end (it differs only where
/// the reader stops at its depth limit or half a surrogate pair, which the grammar allows).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let skipError = JSONValue.skipError(bytes)
    let skips = skipError == nil
    let value = JSONValue.read(bytes)
    if skips != (value != nil) { fatalError("skipValue and reading disagree on validity") }
    let grammarError = JSONReader.firstGrammarError(in: bytes)
    if skips && grammarError != nil { fatalError("the grammar check refuses a document the reader reads") }
    // Where the reader stops short (its depth limit, half a surrogate pair) the grammar may go either way.
    let stopsShort = skipError.map { $0.reason == .tooDeep || $0.reason == .unpairedSurrogate } ?? false
    if !skips, grammarError == nil, !stopsShort {
        fatalError("the grammar check passes a document the reader refuses for its syntax")
    }
    guard let value else { return 0 }
    var writer = JSONWriter(capacity: bytes.count + 16)
    value.write(to: &writer)
    guard let again = JSONValue.read(writer.bytes) else { fatalError("JSONWriter output does not read back") }
    if again != value { fatalError("values change in a write and read round trip") }
    return 0
}

indirect enum JSONValue: Equatable {
    struct Member: Equatable {
        var key: String
        var value: JSONValue
    }

    case object([Member])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case boolean(Bool)
    case null

    /// Why skipping `bytes` as one document fails, or nil when it succeeds.
    static func skipError(_ bytes: [UInt8]) -> JSONSyntaxError? {
        var reader = JSONReader(bytes)
        do {
            try reader.skipValue()
            try reader.finish()
            return nil
        } catch let error as JSONSyntaxError {
            return error
        } catch {
            return JSONSyntaxError(.unexpectedCharacter, at: 0)
        }
    }

    static func read(_ bytes: [UInt8]) -> JSONValue? {
        var reader = JSONReader(bytes)
        do {
            let value = try read(&reader)
            try reader.finish()
            return value
        } catch {
            return nil
        }
    }

    static func read(_ reader: inout JSONReader) throws -> JSONValue {
        switch try reader.peekKind() {
        case .object:
            var members: [Member] = []
            try reader.readObject { key, reader in members.append(Member(key: key, value: try read(&reader))) }
            return .object(members)
        case .array:
            var items: [JSONValue] = []
            try reader.readArray { _, reader in items.append(try read(&reader)) }
            return .array(items)
        case .string:
            return .string(try reader.readString())
        case .number:
            // JSON has no infinities: the writer turns them into null, as a reader's overflow would be refused.
            let number = try reader.readNumber()
            return number.isFinite ? .number(number) : .null
        case .boolean:
            return .boolean(try reader.readBool())
        case .null:
            try reader.readNull()
            return .null
        }
    }

    func write(to writer: inout JSONWriter) {
        switch self {
        case .object(let members):
            writer.beginObject()
            for member in members {
                writer.key(member.key)
                member.value.write(to: &writer)
            }
            writer.endObject()
        case .array(let items):
            writer.beginArray()
            for item in items { item.write(to: &writer) }
            writer.endArray()
        case .string(let text): writer.string(text)
        case .number(let number): writer.double(number)
        case .boolean(let flag): writer.bool(flag)
        case .null: writer.null()
        }
    }
}
