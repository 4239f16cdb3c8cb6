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
    /// A model in our own format (`"format": "trust-insights.gbdt"`), or a manifest: already what an import writes.
    case trustInsights

    /// How far into a file the kinds are looked for: each shows in its first bytes.
    static let window = 512

    /// The kind of `bytes`, if it is one of the above; nil for anything else, which the importer then reads and
    /// refuses in its own words. JSON is told by its first member's name (`learner`, `nodeid`, or `name` holding
    /// `tree`, or one of our own document's members), never by a word further in, where a feature name could be any
    /// word.
    public static func of<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> ModelFileKind? {
        let head = opening(of: bytes)
        if head.starts(with: "tree\n".utf8) || head.starts(with: "tree\r\n".utf8) || head.elementsEqual("tree".utf8) {
            return .lightGBMText
        }
        if head.starts(with: "booster[".utf8) || startsLikeATreeDump(head) || head.starts(with: "digraph".utf8) {
            return .xgboostDump
        }
        if XGBoostImporter.looksLikeUBJSON(head) { return .xgboostModel }
        var reader = FirstMember(bytes: head)
        guard let name = reader.name() else { return nil }
        switch name {
        case "learner": return .xgboostModel
        case "nodeid": return .xgboostDump
        case "name": return reader.stringValue() == "tree" ? .lightGBMDump : nil
        // Our writer sorts its members, so a model opens with `baseMargin`; a hand-made one may open with any of
        // them, and a manifest opens with `formatVersion`. None of these names opens an XGBoost or LightGBM file.
        case "baseMargin", "featureNames", "format", "formatVersion": return .trustInsights
        default: return nil
        }
    }

    /// The first `window` bytes after a byte order mark and any run of blank space, however long; only they are
    /// copied.
    static func opening<Bytes: Collection<UInt8>>(of bytes: Bytes) -> [UInt8] {
        let afterMark = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes.dropFirst(0)
        return Array(afterMark.drop(while: isSpace).prefix(window))
    }

    private static func isSpace(_ byte: UInt8) -> Bool { [0x20, 0x09, 0x0A, 0x0D].contains(byte) }

    /// `get_dump()` text, which has no `booster[0]:` lines: `0:[f0<0.5] yes=1,...` or `0:leaf=0.25`.
    private static func startsLikeATreeDump(_ head: [UInt8]) -> Bool {
        let digits = head.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
        guard digits > 0 else { return false }
        let rest = head.dropFirst(digits)
        return rest.starts(with: ":[".utf8) || rest.starts(with: ":leaf=".utf8)
    }

    /// Reads the name of a JSON object's first member, inside an array if the file is one (XGBoost's JSON dumps),
    /// and then that member's value if it is a plain string.
    private struct FirstMember {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, ModelFileKind.isSpace(bytes[index]) { index += 1 }
        }

        mutating func expect(_ byte: UInt8) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// A string without escapes (the names looked for have none); nil for anything else.
        mutating func plainString() -> String? {
            guard expect(UInt8(ascii: "\"")) else { return nil }
            guard let end = bytes[index...].firstIndex(of: UInt8(ascii: "\"")),
                !bytes[index..<end].contains(UInt8(ascii: "\\"))
            else { return nil }
            defer { index = end + 1 }
            return String(decoding: bytes[index..<end], as: UTF8.self)
        }

        mutating func name() -> String? {
            _ = expect(UInt8(ascii: "["))
            guard expect(UInt8(ascii: "{")) else { return nil }
            return plainString()
        }

        mutating func stringValue() -> String? {
            guard expect(UInt8(ascii: ":")) else { return nil }
            return plainString()
        }
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
        case .trustInsights:
            "this is already a trust-insights model (or a manifest), which needs no import: list the model in "
                + "models/manifest.json (docs/MODEL-FORMAT.md, \"Manifest\") and check it with `trust-insights models verify`"
        }
    }
}
