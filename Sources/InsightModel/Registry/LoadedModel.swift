/// One servable model: its document, compiled scorer and manifest entry. Immutable; shared by every request
/// that holds the snapshot it belongs to.
public final class LoadedModel: Sendable {
    public let entry: ModelManifest.Entry
    public let scorer: CompiledModel

    public init(entry: ModelManifest.Entry, scorer: CompiledModel) {
        self.entry = entry
        self.scorer = scorer
    }

    public var document: ModelDocument { scorer.document }
    public var version: String { entry.version }
    public var status: ModelStatus { entry.status }
}
