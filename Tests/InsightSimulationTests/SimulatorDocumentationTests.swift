import Foundation
import InsightCore
import Testing
@testable import InsightSimulation

/// The figures docs/SIMULATOR.md gives for the simulator's output are the simulator's.
@Suite("Simulator documentation")
struct SimulatorDocumentationTests {
    /// "in payment (100,000 rows, seed 7, positive rate 0.1), `callDurationSeconds` is missing for G% of genuine and
    /// C% of coached sessions ..., typing cadence for G% and C%": measured on the first 30,000 of those rows.
    @Test func missingRatesInTheDocsAreTheSimulators() throws {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let text = try String(contentsOfFile: url.path + "/docs/SIMULATOR.md", encoding: .utf8)
            .replacingOccurrences(of: "\n", with: " ")
        func percentages(after marker: String, count: Int) throws -> [Double] {
            let start = try #require(text.range(of: marker), "no '\(marker)' in docs/SIMULATOR.md")
            let words = text[start.upperBound...].split(separator: " ").filter { $0.contains("%") }
            return words.prefix(count).map { Double($0.prefix { $0 != "%" })! / 100 }
        }
        let documentedCall = try percentages(after: "`callDurationSeconds` is missing for", count: 2)
        let documentedTyping = try percentages(after: "typing cadence for", count: 2)

        var simulator = try SessionSimulator(
            category: .payment, catalogue: try SimulationTestSupport.catalogue(), seed: 7, positiveRate: 0.1)
        let drawn = (0..<30_000).map { _ in simulator.next() }
        func missingRate(_ name: String, label: Bool) -> Double {
            let group = drawn.filter { $0.label == label }
            return Double(group.filter { $0.features.first { $0.name == name }!.value == nil }.count) / Double(group.count)
        }
        for (name, documented) in [("callDurationSeconds", documentedCall), ("typingCadenceVarianceMillis", documentedTyping)] {
            for (index, label) in [false, true].enumerated() {
                let measured = missingRate(name, label: label)
                #expect(abs(measured - documented[index]) < 0.02, "\(name) label \(label): docs \(documented[index]), measured \(measured)")
            }
        }
    }
}
