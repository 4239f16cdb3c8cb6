import Foundation
import InsightCore
@testable import InsightSimulation

/// Loads the package's shipped catalogue (package root is three levels above this file).
enum SimulationTestSupport {
    static func catalogue() throws -> FeatureCatalogue {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return try FeatureCatalogue.load(from: url.path + "/config/features")
    }

    static func csv(_ category: OperationCategory, rows: Int, seed: UInt64, positiveRate: Double = 0.1) throws -> [UInt8] {
        var simulator = try SessionSimulator(category: category, catalogue: try catalogue(), seed: seed, positiveRate: positiveRate)
        return simulator.csv(rows: rows)
    }

    /// The CSV split into lines and fields (the simulator never writes quotes or commas inside fields).
    static func table(_ bytes: [UInt8]) -> [[Substring]] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    }

    /// FNV-1a, to pin the exact bytes of a run in a test.
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }
}
