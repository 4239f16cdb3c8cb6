#if canImport(Glibc)
import Glibc
#endif

/// Reads `label,<feature names>` CSV files (the simulator's output and the shared fixtures): one header line,
/// labels 0 or 1, float32 feature values, an empty field for a missing value. Values are parsed with `strtof`,
/// which rounds correctly, so a `%.9g` float32 written by another tool comes back bit for bit.
public struct CSVDatasetLoader: Sendable {
    public init() {}

    public func load(path: String) throws(DatasetError) -> Dataset {
        var bytes = try Self.readFile(path)
        guard !bytes.isEmpty else { throw .empty(path: path) }
        bytes.append(0)  // strtof needs a terminator after the last field
        return try bytes.withUnsafeBufferPointer { buffer throws(DatasetError) in
            try parse(buffer, path: path)
        }
    }

    /// Parses CSV text already in memory (tests, tools that generate data).
    public func parse(text: String, name: String = "<memory>") throws(DatasetError) -> Dataset {
        var bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw .empty(path: name) }
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { buffer throws(DatasetError) in
            try parse(buffer, path: name)
        }
    }

    private func parse(_ buffer: UnsafeBufferPointer<UInt8>, path: String) throws(DatasetError) -> Dataset {
        let base = buffer.baseAddress!
        let end = buffer.count - 1  // index of the terminator
        var position = 0
        let header = Self.headerFields(base, end: end, position: &position)
        guard let first = header.first, first == "label" else { throw .missingLabelColumn(path: path) }
        let featureNames = Array(header.dropFirst())
        guard !featureNames.isEmpty else { throw .noFeatures }
        guard Set(featureNames).count == featureNames.count else { throw .duplicateFeatureName }
        let width = featureNames.count
        var values: [Float] = []
        var labels: [UInt8] = []
        values.reserveCapacity(end / (width * 4 + 1) * width)
        var line = 1
        var rowValues = [Float](repeating: .nan, count: width)
        while position < end {
            line += 1
            if base[position] == UInt8(ascii: "\n") || base[position] == UInt8(ascii: "\r") {
                position += 1  // blank line
                continue
            }
            var field = 0
            var label: UInt8 = 0
            while true {
                let value = try Self.field(base, at: &position, path: path, line: line, column: field == 0 ? "label" : featureNames[min(field - 1, width - 1)])
                if field == 0 {
                    guard let value, value == 0 || value == 1 else { throw .invalidLabel(path: path, line: line) }
                    label = value == 1 ? 1 : 0
                } else if field <= width {
                    rowValues[field - 1] = value ?? .nan
                }
                field += 1
                let terminator = base[position]
                if terminator == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                // End of the line: "\n", "\r\n" or the end of the text.
                if terminator == UInt8(ascii: "\r") { position += 1 }
                if base[position] == UInt8(ascii: "\n") { position += 1 }
                break
            }
            guard field == width + 1 else {
                throw .wrongFieldCount(path: path, line: line, expected: width + 1, found: field)
            }
            labels.append(label)
            values.append(contentsOf: rowValues)
        }
        guard !labels.isEmpty else { throw .noRows(path: path) }
        return Dataset(checkedFeatureNames: featureNames, values: values, labels: labels)
    }

    /// Parses one field starting at `position` and leaves `position` on its terminator (`,`, `\r`, `\n` or NUL).
    /// Returns nil for an empty field (a missing value).
    private static func field(
        _ base: UnsafePointer<UInt8>, at position: inout Int, path: String, line: Int, column: String
    ) throws(DatasetError) -> Float? {
        // Skip leading spaces here: strtof would also skip a newline and read the next line's first field.
        while base[position] == UInt8(ascii: " ") { position += 1 }
        let start = base + position
        if Self.isTerminator(start.pointee) { return nil }
        var endPointer: UnsafeMutablePointer<CChar>?
        let value = start.withMemoryRebound(to: CChar.self, capacity: 1) { text in
            strtof(text, &endPointer)
        }
        guard let endPointer else { throw .invalidNumber(path: path, line: line, column: column) }
        var stop = UnsafeRawPointer(endPointer).assumingMemoryBound(to: UInt8.self)
        // Tolerate trailing spaces, as other CSV writers emit them.
        while stop.pointee == UInt8(ascii: " ") { stop += 1 }
        guard stop != start, isTerminator(stop.pointee) else {
            throw .invalidNumber(path: path, line: line, column: column)
        }
        position = stop - base
        if value.isNaN { return nil }
        guard value.isFinite else { throw .nonFiniteValue(path: path, line: line, column: column) }
        return value
    }

    private static func isTerminator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == 0
    }

    private static func headerFields(_ base: UnsafePointer<UInt8>, end: Int, position: inout Int) -> [String] {
        var fields: [String] = []
        var current: [UInt8] = []
        while position < end {
            let byte = base[position]
            position += 1
            if byte == UInt8(ascii: "\n") { break }
            if byte == UInt8(ascii: "\r") { continue }
            if byte == UInt8(ascii: ",") {
                fields.append(Self.trimmed(current))
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(byte)
            }
        }
        fields.append(Self.trimmed(current))
        return fields
    }

    private static func trimmed(_ bytes: [UInt8]) -> String {
        var text = String(decoding: bytes, as: UTF8.self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        if text.count >= 2, text.first == "\"", text.last == "\"" { text = String(text.dropFirst().dropLast()) }
        return text
    }

    static func readFile(_ path: String) throws(DatasetError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotRead(path: path, errno: errno) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(path: path, errno: errno)
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }
}
