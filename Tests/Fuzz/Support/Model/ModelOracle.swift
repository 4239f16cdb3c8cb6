@testable import InsightModel

/// Checks shared by the model targets, for any document an importer or the JSON loader produced: either the
/// validator refuses it, or it compiles, and then every fast path scores bit for bit as the plain reference walk
/// on a handful of rows (zeros, missing values, extremes, and values sitting exactly on split thresholds), path
/// contributions can be computed, and the document survives a JSON round trip unchanged.
enum ModelOracle {
    static let options = ModelImportOptions(
        insightType: "isLikelyBeingCoached", category: "payment", version: "fuzz", createdAt: "2026-11-21T00:00:00Z")

    static func exercise(_ document: ModelDocument) {
        let compiled: CompiledModel
        do {
            compiled = try CompiledModel(document: document)
        } catch {
            _ = error.description
            return
        }
        let walk = ReferenceWalk(document: document)
        let width = document.featureNames.count
        var matrix = FeatureMatrix(columnCount: width)
        for row in rows(for: document) {
            let reference = walk.margin(for: row)
            if compiled.margin(for: row).bitPattern != reference.bitPattern && !(reference.isNaN && compiled.margin(for: row).isNaN) {
                fatalError("single-row fast path differs from the reference walk")
            }
            _ = compiled.contributions(for: row).topIncreasing(3)
            _ = compiled.score(row)
            matrix.append(row: row)
        }
        for (index, margin) in compiled.margins(for: matrix).enumerated() {
            let reference = walk.margin(for: Array(matrix.row(index)))
            if margin.bitPattern != reference.bitPattern && !(reference.isNaN && margin.isNaN) {
                fatalError("batch fast path differs from the reference walk")
            }
        }
        let again: ModelDocument
        do {
            again = try ModelDocument(jsonData: try document.jsonData())
        } catch {
            fatalError("a valid document does not survive JSON: \(error)")
        }
        if again != document { fatalError("a valid document changes in a JSON round trip") }
    }

    static func rows(for document: ModelDocument) -> [[Double]] {
        let width = document.featureNames.count
        var rows = [
            [Double](repeating: 0, count: width),
            [Double](repeating: .nan, count: width),
            [Double](repeating: 1e300, count: width),
            [Double](repeating: -1e300, count: width),
            (0..<width).map { $0.isMultiple(of: 2) ? Double.nan : 1 },
        ]
        // Rows on the first tree's thresholds, where float32 and float64 comparisons differ if anything does.
        var onThreshold = [Double](repeating: 0, count: width)
        if let tree = document.trees.first {
            for node in 0..<min(tree.splitFeatures.count, 64) where tree.leftChildren[node] != -1 {
                let feature = tree.splitFeatures[node]
                if feature >= 0 && feature < width { onThreshold[feature] = tree.thresholds[node] }
            }
        }
        rows.append(onThreshold)
        rows.append(onThreshold.map { $0.nextUp })
        rows.append(onThreshold.map { $0.nextDown })
        return rows
    }
}
