import InsightModel

#if canImport(Glibc)
import Glibc
#endif

/// Reads `label,<feature names>` CSV files (the simulator's output and the shared fixtures) as `models score`
/// reads them, so a model can always score the file it was trained on: RFC 4180 records (`CSVRecords` reads the
/// header), values by `CSVNumberField` (decimals, an empty field, `NA` or `nan` missing, spaces around a value
/// ignored), each parsed as a double and then rounded to float32, as XGBoost receives input and as `models score`
/// reads it for a float32 model. Labels are 0 or 1.
///
/// Rows are read in place by `CSVRowReader`, which only leaves its byte-level path for a quoted field.
public struct CSVDatasetLoader: Sendable {
    public init() {}

    public func load(path: String) throws(DatasetError) -> Dataset {
        try parse(Self.readFile(path), path: path)
    }

    /// Parses CSV text already in memory (tests, tools that generate data).
    public func parse(text: String, name: String = "<memory>") throws(DatasetError) -> Dataset {
        try parse(Array(text.utf8), path: name)
    }

    private func parse(_ bytes: [UInt8], path: String) throws(DatasetError) -> Dataset {
        var bytes = bytes
        // A line feed after the last row lets the row reader find every field's end without an end-of-text test.
        if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        return try bytes.withUnsafeBufferPointer { buffer throws(DatasetError) in
            var index = CSVRecords.contentStart(of: buffer)
            guard buffer.count - index > 1 else { throw .empty(path: path) }
            var line = 1
            let header: [String]
            do throws(CSVRecordError) {
                header = try CSVRecords.record(in: buffer, from: &index, line: &line)
            } catch {
                throw DatasetError(error, path: path)
            }
            // A carriage return left in a name was quoted (CSVRecords refuses one outside quotes as a CR-only line
            // ending): the name check refuses it as the control character it is, as it does a quoted line feed.
            guard header.first == FeatureTable.labelColumn else { throw .missingLabelColumn(path: path) }
            let featureNames = Array(header.dropFirst())
            try Dataset.checkFeatureNames(featureNames, source: path)
            var reader = CSVRowReader(buffer: buffer, from: index, line: line, featureNames: featureNames, path: path)
            let (values, labels) = try reader.readRows()
            guard !labels.isEmpty else { throw .noRows(path: path) }
            return Dataset(checkedFeatureNames: featureNames, values: values, labels: labels, source: path)
        }
    }

    static func readFile(_ path: String, maximumBytes: Int = maximumBytes) throws(DatasetError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            var status = stat()
            if code == ENXIO && stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK { throw .socket(path: path) }
            throw .cannotRead(path: path, errno: code)
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        // A regular file announces its size: one over the bound is refused unread, not after reading 1 GiB of it.
        var status = stat()
        if fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG {
            guard Int(status.st_size) <= maximumBytes else { throw .tooLarge(path: path, limit: maximumBytes) }
            bytes.reserveCapacity(Int(status.st_size))
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(path: path, errno: errno)
            }
            if count == 0 { break }
            guard bytes.count + count <= maximumBytes else { throw .tooLarge(path: path, limit: maximumBytes) }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    /// The largest data file read: it is held whole in memory (with its parsed values beside it), and 1 GiB of CSV
    /// is about ten million rows of ten features, beyond what this trainer is for.
    public static let maximumBytes = 1 << 30
}
