import Testing
@testable import InsightCore
@testable import InsightService

/// An empty or over-long label field is named by what the contract says the field must be (a vocabulary, a date,
/// an insightID), not by a length rule the contract never states: a partner's reviewer was told "must be 1 to 64
/// characters long" for an empty `label`.
@Suite struct LabelFieldMessageTests {
    private let insightID = "0195f3c2-9b1e-7d4a-8c2f-3e5a6b7c8d9e"

    private func reason(_ fields: String) throws -> String {
        let drafts = try LabelBatchDecoder.decode(Array(#"{"items": [{\#(fields)}]}"#.utf8))
        guard case .failure(let rejection) = drafts[0].validated(today: 30_000) else {
            Issue.record("a bad item was accepted")
            return ""
        }
        return rejection.reason
    }

    private func item(insightID: String? = nil, label: String = "confirmedFraud", occurredOn: String = "2026-01-02",
                      amountBand: String? = nil) -> String {
        #""insightID": "\#(insightID ?? self.insightID)", "label": "\#(label)", "fraudType": "other", "occurredOn": "\#(occurredOn)""#
            + (amountBand.map { #", "amountBand": "\#($0)""# } ?? "")
    }

    @Test(arguments: ["", String(repeating: "confirmedFraud", count: 10)])
    func aLabelOutsideTheVocabularyListsTheVocabulary(label: String) throws {
        #expect(try reason(item(label: label)) == "/items/0/label must be one of confirmedFraud, confirmedLegitimate")
    }

    @Test(arguments: ["", String(repeating: "1kTo10k", count: 10)])
    func anAmountBandOutsideTheVocabularyListsTheBands(band: String) throws {
        #expect(try reason(item(amountBand: band))
            == "/items/0/amountBand must be one of under10, 10to100, 100to1k, 1kTo10k, over10k")
    }

    @Test(arguments: ["", String(repeating: "a", count: 200)])
    func anInsightIDOfNoShapeSaysWhatItMustBe(insightID: String) throws {
        #expect(try reason(item(insightID: insightID)) == "/items/0/insightID must be an insightID from an evaluation")
    }

    @Test func anOverLongDateSaysWhatADateIs() throws {
        #expect(try reason(item(occurredOn: "2026-01-02" + String(repeating: " ", count: 64)))
            == "/items/0/occurredOn must be a date as YYYY-MM-DD")
    }

    @Test func theLongestValueAFieldCanHoldIsStillJudgedByItsVocabulary() throws {
        // 64 characters is kept and judged as sent: the message is the vocabulary's, as for any other unknown word.
        #expect(try reason(item(label: String(repeating: "x", count: 64)))
            == "/items/0/label must be one of confirmedFraud, confirmedLegitimate")
    }
}
