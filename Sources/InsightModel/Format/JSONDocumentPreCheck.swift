import FoundationEssentials

/// What JSONDecoder does not say about our documents (models, manifests): it takes the first of two members of the
/// same name without a word, and it reports a number it cannot hold (`1e400`, a fraction where a whole number
/// belongs, a child index past `Int`) as "not valid JSON" with no path. This reads the document once with the
/// strict `JSONParser` first, so that both are refused and named.
enum JSONDocumentPreCheck {
    /// One step of a path: a member name or an array position.
    enum Step: Equatable {
        case member(String)
        case index(Int)
    }

    /// Throws the first problem: a syntax error (a member name twice in one object among them) with its byte
    /// offset, or a number out of range with its path. `wholeNumberAt` says which paths hold whole numbers.
    /// Returns the parsed document, so a caller can decode from it without parsing again.
    @discardableResult
    static func check(_ data: Data, wholeNumberAt: ([Step]) -> Bool) throws(JSONShapeError) -> JSONValue {
        let value = try parse(data)
        try checkNumbers(in: value, wholeNumberAt: wholeNumberAt)
        return value
    }

    /// The syntax half of `check`.
    /// Reads the bytes in place: a copy of a large model would be its size again in memory.
    static func parse(_ data: Data) throws(JSONShapeError) -> JSONValue {
        let parsed = data.withUnsafeBytes { raw -> Result<JSONValue, JSONParser.SyntaxError> in
            var bytes = raw.bindMemory(to: UInt8.self)
            // JSONDecoder skips a byte order mark; so does this check (offsets count from after it).
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = UnsafeBufferPointer(rebasing: bytes[3...]) }
            return Result { () throws(JSONParser.SyntaxError) -> JSONValue in try JSONParser.parse(bytes) }
        }
        switch parsed {
        case .success(let value): return value
        case .failure(let error): throw JSONShapeError(path: "", problem: .syntax(offset: error.offset, message: error.message))
        }
    }

    /// The numbers half of `check`: the first number, by path in name order, out of range for what its path holds.
    static func checkNumbers(in value: JSONValue, wholeNumberAt: ([Step]) -> Bool) throws(JSONShapeError) {
        var path: [Step] = []
        try visit(value, path: &path, wholeNumberAt: wholeNumberAt)
    }

    private static func visit(_ value: JSONValue, path: inout [Step], wholeNumberAt: ([Step]) -> Bool) throws(JSONShapeError) {
        switch value {
        case .object(let members):
            // Sorted, so the problem reported is the same on every run.
            for name in members.keys.sorted() {
                path.append(.member(name))
                try visit(members[name]!, path: &path, wholeNumberAt: wholeNumberAt)
                path.removeLast()
            }
        case .array(let items):
            for (position, item) in items.enumerated() {
                path.append(.index(position))
                try visit(item, path: &path, wholeNumberAt: wholeNumberAt)
                path.removeLast()
            }
        case .number(let text):
            if wholeNumberAt(path) {
                guard wholeNumber(text) != nil else {
                    throw JSONShapeError(path: Self.text(path), problem: .badValue("\(text) is not a whole number from \(Int.min) to \(Int.max)"))
                }
            } else if !(Double(text)?.isFinite ?? false) {
                throw JSONShapeError(path: Self.text(path), problem: .badValue("\(text) is beyond the range of a double"))
            }
        case .string, .bool, .null:
            break
        }
    }

    /// The whole number `text` stands for: written as one (`1`), or as a decimal whose nearest double is whole and
    /// within `Int` (`1.0`, `1e0`, which Python's json.dump of a float writes), as JSONDecoder and the other
    /// configuration files read it (lifecycle probe, 6 December); nil for a fraction or one beyond 64 bits.
    static func wholeNumber(_ text: String) -> Int? {
        if let exact = Int(text) { return exact }
        guard let read = Double(text), read.isFinite, read == read.rounded() else { return nil }
        return Int(exactly: read)
    }

    /// `trees[3].leftChildren[0]`, as `JSONShapeError` writes paths.
    static func text(_ path: [Step]) -> String {
        var text = ""
        for step in path {
            switch step {
            case .index(let position): text += "[\(position)]"
            case .member(let name): text += text.isEmpty ? name : ".\(name)"
            }
        }
        return text
    }
}
