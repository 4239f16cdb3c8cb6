/// Writing simulated sessions as CSV: `label,<feature names in catalogue order>`, label 0/1, empty field =
/// missing. The bytes depend only on the catalogue, seed and positive rate.
extension SessionSimulator {
    /// The header line, with its newline.
    public var csvHeader: String {
        "label," + featureNames.joined(separator: ",") + "\n"
    }

    /// Writes the header and `rows` sessions, handing `sink` chunks of about `chunkBytes` bytes; returns how
    /// many rows were positive.
    @discardableResult
    public mutating func writeCSV(
        rows: Int, chunkBytes: Int = 1 << 20, to sink: ([UInt8]) throws -> Void
    ) rethrows -> Int {
        var positives = 0
        var bytes: [UInt8] = []
        bytes.reserveCapacity(chunkBytes + 4096)
        bytes.append(contentsOf: csvHeader.utf8)
        var row = [Double](repeating: .nan, count: plan.count)
        for _ in 0..<rows {
            let outcome = row.withUnsafeMutableBufferPointer { nextRow(into: $0) }
            if outcome.label { positives += 1 }
            bytes.append(outcome.label ? UInt8(ascii: "1") : UInt8(ascii: "0"))
            for value in row {
                bytes.append(UInt8(ascii: ","))
                CSVNumber.append(value, to: &bytes)
            }
            bytes.append(UInt8(ascii: "\n"))
            if bytes.count >= chunkBytes {
                try sink(bytes)
                bytes.removeAll(keepingCapacity: true)
            }
        }
        if !bytes.isEmpty { try sink(bytes) }
        return positives
    }

    /// The whole CSV in memory, for tests and small runs.
    public mutating func csv(rows: Int) -> [UInt8] {
        var all: [UInt8] = []
        writeCSV(rows: rows) { all.append(contentsOf: $0) }
        return all
    }
}
