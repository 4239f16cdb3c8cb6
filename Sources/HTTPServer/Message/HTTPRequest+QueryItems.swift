extension HTTPRequest {
    /// The query's `name=value` pairs in order, percent-decoded, with `+` read as a space (HTML forms).
    public var queryItems: [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentDecoding.decode(parts[0], plusAsSpace: true)
            let value = parts.count > 1 ? PercentDecoding.decode(parts[1], plusAsSpace: true) : ""
            return (name: name, value: value)
        }
    }

    /// The first decoded value of the query item called `name`.
    public func queryItem(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }
}
