extension JSONReader {
    /// Reads an object whose members may each appear once. JSON's grammar allows a repeated member, which a
    /// strict reader of a configuration file must refuse rather than let it silently replace (or, for an array,
    /// extend) the first; `repeated` makes the error for the second occurrence of a name.
    public mutating func readObject(
        eachMemberOnce repeated: (String) -> any Error, _ body: (String, inout JSONReader) throws -> Void
    ) throws {
        var seen = Set<String>()
        try readObject { key, reader in
            guard seen.insert(key).inserted else { throw repeated(key) }
            try body(key, &reader)
        }
    }
}
