import Testing
@testable import InsightModel

@Suite struct FastPathParityTests {
    @Test(Fixtures.needed) func xgboostFastPathsMatchFixtureMarginsBitForBit() throws {
        let model = try CompiledModel(document: Fixtures.xgboostModel())
        let rows = try Fixtures.heldOut().matrix(for: model.featureNames)
        let expected = try Fixtures.predictions("xgb_200x6_preds_20k.csv").map { Float($0.0)!.bitPattern }
        let batch = model.margins(for: rows)
        var singleMismatches = 0
        var batchMismatches = 0
        for index in 0..<rows.rowCount {
            if Float(model.margin(for: Array(rows.row(index)))).bitPattern != expected[index] { singleMismatches += 1 }
            if Float(batch[index]).bitPattern != expected[index] { batchMismatches += 1 }
        }
        #expect(singleMismatches == 0)
        #expect(batchMismatches == 0)
    }

    @Test(Fixtures.needed) func lightGBMFastPathsMatchFixtureRawScoresExactly() throws {
        let model = try CompiledModel(document: Fixtures.lightGBMModel())
        let rows = try Fixtures.heldOut().matrix(for: model.featureNames)
        let expected = try Fixtures.predictions("lgb_200x63_preds_20k.csv")
        let batch = model.margins(for: rows)
        var mismatches = 0
        var worstProbability = 0.0
        for index in 0..<rows.rowCount {
            let raw = Double(expected[index].0)!
            if model.margin(for: Array(rows.row(index))) != raw || batch[index] != raw { mismatches += 1 }
            let probability = model.score(Array(rows.row(index))).probability
            worstProbability = max(worstProbability, abs(probability - Double(expected[index].1)!))
        }
        #expect(mismatches == 0)
        #expect(worstProbability <= 1e-12)
    }
}
