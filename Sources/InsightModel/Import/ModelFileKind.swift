/// What a model file is, told from its first bytes, so that a file given to the wrong importer, or a dump that is
/// not a model, is refused with what to do rather than with a syntax error at byte 0.
public enum ModelFileKind: Sendable, Equatable {
    /// LightGBM's `save_model` text: it opens with the line `tree`.
    case lightGBMText
    /// LightGBM's `dump_model()` JSON.
    case lightGBMDump
    /// XGBoost's `save_model` JSON or UBJSON.
    case xgboostModel
    /// XGBoost's `get_dump` or `dump_model`, as text (`booster[0]:`) or JSON (`"nodeid"`).
    case xgboostDump

    /// How far into a file the kinds are looked for: each shows in its first few hundred bytes.
    static let window = 512

    /// The kind of `bytes`, if it is one of the above; nil for anything else, which the importer then reads and
    /// refuses in its own words.
    public static func of(_ bytes: [UInt8]) -> ModelFileKind? {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        let head = bytes[start..<min(bytes.count, start + window)]
        func contains(_ text: String) -> Bool {
            let needle = Array(text.utf8)
            guard head.count >= needle.count else { return false }
            return (head.startIndex...(head.endIndex - needle.count)).contains { head[$0..<($0 + needle.count)].elementsEqual(needle) }
        }
        if head.starts(with: "tree\n".utf8) || head.starts(with: "tree\r\n".utf8) { return .lightGBMText }
        if head.starts(with: "booster[".utf8) { return .xgboostDump }
        guard let first = head.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return nil }
        // The model first: its feature names, early in the file, could be any of the words the dumps are told by.
        if first == UInt8(ascii: "{"), XGBoostImporter.looksLikeUBJSON(Array(head)) || contains("\"learner\"") {
            return .xgboostModel
        }
        if contains("\"nodeid\"") { return .xgboostDump }
        if contains("\"num_tree_per_iteration\"") || contains("\"tree_structure\"") { return .lightGBMDump }
        return nil
    }

    /// What to do with a file of this kind, given to the importer of `source` (`xgboost` or `lightgbm`).
    func advice(importing source: String) -> String {
        switch self {
        case .lightGBMText:
            "this is a LightGBM model text file (it opens with 'tree'): import it with --from lightgbm"
        case .xgboostModel:
            "this is an XGBoost model (save_model JSON or UBJSON): import it with --from xgboost"
        case .lightGBMDump:
            "this is LightGBM's dump_model() JSON, which is not read: save the model with booster.save_model('model.txt') "
                + "and import that file with --from lightgbm"
        case .xgboostDump:
            "this is an XGBoost dump (get_dump or dump_model), which rounds the thresholds and leaves out the base score: "
                + "save the model with booster.save_model('model.json') and import that file with --from xgboost"
        }
    }
}
