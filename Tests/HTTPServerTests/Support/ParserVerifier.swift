@testable import HTTPServer
import Testing

/// Feeds a parser the same bytes whole, byte by byte, and split in two at every boundary, and requires the
/// same events each way (after swift-nio's ByteToMessageDecoderVerifier).
enum ParserVerifier {
    static func events(_ chunks: [[UInt8]], limits: HTTPParserLimits) -> [HTTPParserEvent] {
        var parser = HTTPRequestParser(limits: limits)
        var events: [HTTPParserEvent] = []
        for chunk in chunks {
            parser.append(chunk)
            while let event = parser.next() {
                events.append(event)
                if case .failure = event { return events }
            }
        }
        return events
    }

    /// The events of `input`, after checking that every way of splitting it gives the same ones.
    static func verify(
        _ input: [UInt8], limits: HTTPParserLimits = HTTPParserLimits(), everySplit: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [HTTPParserEvent] {
        let whole = events([input], limits: limits)
        let dripped = events(input.map { [$0] }, limits: limits)
        #expect(dripped == whole, "byte-by-byte feeding differs from whole", sourceLocation: sourceLocation)
        if everySplit && input.count > 1 {
            let differing = (1..<input.count).filter { split in
                events([Array(input[..<split]), Array(input[split...])], limits: limits) != whole
            }
            #expect(differing.isEmpty, "splits at \(differing.prefix(5)) differ from whole", sourceLocation: sourceLocation)
        }
        return whole
    }

    static func verify(
        _ text: String, limits: HTTPParserLimits = HTTPParserLimits(), everySplit: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> [HTTPParserEvent] {
        verify(Array(text.utf8), limits: limits, everySplit: everySplit, sourceLocation: sourceLocation)
    }
}

extension HTTPParserEvent {
    var head: HTTPRequestHead? {
        if case .head(let head) = self { return head }
        return nil
    }

    var body: [UInt8]? {
        if case .complete(let body) = self { return body }
        return nil
    }

    var failure: HTTPParseError? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
