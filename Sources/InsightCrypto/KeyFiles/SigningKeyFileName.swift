/// Key files are named `es256-<createdAt, Unix milliseconds>-<kid>.pem`, so the directory listing alone tells
/// which keys exist, when each was made, and which is newest (the active one). No separate index file can then
/// disagree with the keys, and rotation is a single atomic rename.
struct SigningKeyFileName: Equatable {
    let createdAtMilliseconds: Int64
    let kid: String

    private static let prefix = "es256-"
    private static let suffix = ".pem"

    var fileName: String {
        "\(Self.prefix)\(createdAtMilliseconds)-\(kid)\(Self.suffix)"
    }

    init(createdAtMilliseconds: Int64, kid: String) {
        self.createdAtMilliseconds = createdAtMilliseconds
        self.kid = kid
    }

    /// Nil for names that are not key files (temporary files, anything an operator left there). Only the name this
    /// type writes is one: a time with a leading zero or a sign (`es256-0179...`, `es256-+179...`) named a file
    /// that was then opened under its canonical name, which was not there (regression probe, 6 December).
    /// A time after 9999-12-31T23:59:59.999Z, which no RFC 3339 timestamp can write, would be published as a
    /// `createdAt` no strict client parses (a five-digit year); `rotate --at` refuses such times, and a file naming
    /// one is no key file either (signed-payload probe, 6 December).
    static let latestMilliseconds: Int64 = 253_402_300_799_999

    init?(fileName: String) {
        guard fileName.hasPrefix(Self.prefix), fileName.hasSuffix(Self.suffix) else { return nil }
        let middle = fileName.dropFirst(Self.prefix.count).dropLast(Self.suffix.count)
        let parts = middle.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy({ $0.isASCII && $0.isWholeNumber }),
              parts[0] == "0" || !parts[0].hasPrefix("0"),
              let milliseconds = Int64(parts[0]), milliseconds >= 0, milliseconds <= Self.latestMilliseconds,
              parts[1].count == 16, parts[1].allSatisfy({ $0.isHexDigit && !$0.isUppercase })
        else {
            return nil
        }
        createdAtMilliseconds = milliseconds
        kid = String(parts[1])
    }
}
