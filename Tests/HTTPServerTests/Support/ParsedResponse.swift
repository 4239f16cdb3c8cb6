import Foundation

/// A response read back from raw bytes, for tests.
struct ParsedResponse {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// Parses one response from the front of `bytes`; nil if incomplete. Bodies are Content-Length framed
    /// (our server never sends chunked responses); `bodyless` is for answers to HEAD.
    static func parse(_ bytes: [UInt8], bodyless: Bool = false) -> (ParsedResponse, consumed: Int)? {
        let terminator = Array("\r\n\r\n".utf8)
        guard bytes.count >= 4,
            let end = (0...(bytes.count - 4)).first(where: { Array(bytes[$0..<($0 + 4)]) == terminator })
        else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        let headers = lines.map { line -> (name: String, value: String) in
            let pieces = line.split(separator: ":", maxSplits: 1)
            return (String(pieces[0]), pieces.count > 1 ? String(pieces[1]).trimmingCharacters(in: .whitespaces) : "")
        }
        var response = ParsedResponse(status: status, headers: headers, body: [])
        let bodyStart = end + 4
        let length = (bodyless || status < 200 || status == 204) ? 0 : Int(response.header("Content-Length") ?? "0") ?? 0
        guard bytes.count >= bodyStart + length else { return nil }
        response.body = Array(bytes[bodyStart..<(bodyStart + length)])
        return (response, bodyStart + length)
    }

    /// Every complete response in `bytes`, in order.
    static func parseAll(_ bytes: [UInt8]) -> [ParsedResponse] {
        var rest = bytes
        var responses: [ParsedResponse] = []
        while let (response, consumed) = parse(rest) {
            responses.append(response)
            rest.removeFirst(consumed)
        }
        return responses
    }
}
