import Testing
@testable import InsightSimulation

@Suite("Seedable random source")
struct SimulationRandomTests {
    @Test func matchesReferenceXoshiro256StarStarSeededBySplitMix64() {
        // Values from an independent Python implementation of SplitMix64 seeding and xoshiro256**.
        var random = SimulationRandom(seed: 42)
        #expect(random.next() == 0x1578_0b2e_0c2e_c716)
        #expect(random.next() == 0x6104_d986_6d11_3a7e)
        #expect(random.next() == 0xae17_5332_39e4_99a1)
    }

    @Test func distributionsHaveTheirDocumentedMeans() {
        var random = SimulationRandom(seed: 9)
        let count = 50_000
        var uniform = 0.0, normal = 0.0, normalSquares = 0.0, poisson = 0.0, heads = 0
        for _ in 0..<count {
            uniform += random.uniform()
            let z = random.normal()
            normal += z
            normalSquares += z * z
            poisson += Double(random.poisson(2.5))
            if random.bernoulli(0.3) { heads += 1 }
        }
        #expect(abs(uniform / Double(count) - 0.5) < 0.01)
        #expect(abs(normal / Double(count)) < 0.02)
        #expect(abs(normalSquares / Double(count) - 1) < 0.03)
        #expect(abs(poisson / Double(count) - 2.5) < 0.05)
        #expect(abs(Double(heads) / Double(count) - 0.3) < 0.01)
        var medianProbe: [Double] = []
        for _ in 0..<10_001 { medianProbe.append(random.logNormal(median: 100, spread: 0.8)) }
        let median = medianProbe.sorted()[5_000]
        #expect(median > 95 && median < 105)
    }

    @Test func categoricalFollowsWeights() {
        var random = SimulationRandom(seed: 3)
        var counts = [0, 0, 0]
        for _ in 0..<30_000 { counts[random.categorical([1, 0, 3])] += 1 }
        #expect(counts[1] == 0)
        #expect(abs(Double(counts[2]) / 30_000 - 0.75) < 0.015)
    }
}
