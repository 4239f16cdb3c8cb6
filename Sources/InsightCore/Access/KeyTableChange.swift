/// What a reload of the key table changed, for the server's log: a `keys revoke` or `keys create` from the command
/// line took effect within a second and left no line in the server's log (operations probe, 7 December). Key IDs
/// only: they are no secret (the access log carries them), and a key's secret never reaches the table anyway.
public struct KeyTableChange: Sendable, Equatable {
    public struct StatusChange: Sendable, Equatable {
        public var keyID: String
        public var from: KeyStatus
        public var to: KeyStatus

        public init(keyID: String, from: KeyStatus, to: KeyStatus) {
            self.keyID = keyID
            self.from = from
            self.to = to
        }
    }

    /// Key IDs, sorted.
    public var added: [String]
    public var removed: [String]
    /// Sorted by key ID.
    public var statusChanges: [StatusChange]
    /// Keys whose other settings (rate, burst) changed, sorted.
    public var updated: [String]

    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && statusChanges.isEmpty && updated.isEmpty }

    public init(from old: [String: APIKeyRecord], to new: [String: APIKeyRecord]) {
        added = new.keys.filter { old[$0] == nil }.sorted()
        removed = old.keys.filter { new[$0] == nil }.sorted()
        var statusChanges: [StatusChange] = []
        var updated: [String] = []
        for (keyID, record) in new {
            guard let before = old[keyID] else { continue }
            if before.status != record.status {
                statusChanges.append(StatusChange(keyID: keyID, from: before.status, to: record.status))
            }
            var unchangedStatus = record
            unchangedStatus.status = before.status
            if unchangedStatus != before { updated.append(keyID) }
        }
        self.statusChanges = statusChanges.sorted { $0.keyID < $1.keyID }
        self.updated = updated.sorted()
    }
}
