import Testing
@testable import InsightModel

@Suite struct ImportParityTests {
    @Test(Fixtures.needed) func xgboostReferenceWalkReproducesMarginsBitForBit() throws {
        let document = try Fixtures.xgboostModel()
        try ModelValidator.validate(document)
        let rows = try Fixtures.heldOut().matrix(for: document.featureNames)
        let expected = try Fixtures.predictions("xgb_200x6_preds_20k.csv")
        #expect(rows.rowCount == expected.count)
        let walk = ReferenceWalk(document: document)
        var mismatches = 0
        for index in 0..<rows.rowCount {
            let margin = Float(walk.margin(for: Array(rows.row(index))))
            if margin.bitPattern != Float(expected[index].0)!.bitPattern { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test(Fixtures.needed) func lightGBMReferenceWalkReproducesProbabilities() throws {
        let document = try Fixtures.lightGBMModel()
        try ModelValidator.validate(document)
        let rows = try Fixtures.heldOut().matrix(for: document.featureNames)
        let expected = try Fixtures.predictions("lgb_200x63_preds_20k.csv")
        let walk = ReferenceWalk(document: document)
        var worstProbability = 0.0
        var exactRaw = 0
        for index in 0..<rows.rowCount {
            let raw = walk.margin(for: Array(rows.row(index)))
            if raw == Double(expected[index].0)! { exactRaw += 1 }
            let probability = document.probability(margin: raw)
            worstProbability = max(worstProbability, abs(probability - Double(expected[index].1)!))
        }
        #expect(worstProbability <= 1e-12)
        #expect(exactRaw == rows.rowCount)
    }
}
