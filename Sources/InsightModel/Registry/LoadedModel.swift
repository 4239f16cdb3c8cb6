/// One servable model: its document, compiled scorer and manifest entry. Immutable; shared by every request
/// that holds the snapshot it belongs to.
public final class LoadedModel: Sendable {
    public let entry: ModelManifest.Entry
    public let scorer: CompiledModel
    /// The SHA-256 of the file it was loaded from (lower-case hex), pinned or not: what tells a reload that a model's
    /// bytes changed under the same version and path (an unpinned model edited in place logged `none`; regression
    /// probe, 7 December). Empty for a model not loaded from a file.
    public let fileDigest: String

    public init(entry: ModelManifest.Entry, scorer: CompiledModel, fileDigest: String = "") {
        self.entry = entry
        self.scorer = scorer
        self.fileDigest = fileDigest
    }

    public var document: ModelDocument { scorer.document }
    public var version: String { entry.version }
    public var status: ModelStatus { entry.status }
}
