/// What a reload changed among the models in service, for the reload's log line: a candidate added, a promotion, a
/// rollback and a reload of the same manifest all logged the same line but for the generation (operations probe,
/// 7 December), so an operator could not tell from the log which model now answers `current`.
extension RegistrySnapshot {
    /// One entry per model whose place changed since `previous`, in this manifest's order (then the removed ones in
    /// the previous order): `payment isLikelyBeingCoached 2026.12.1: candidate -> current`, `... added as candidate`,
    /// `... removed (was prior)`, `... file changed` (other bytes under the same version, by their SHA-256, pinned or
    /// not), `... another file (<path>)` (other bytes at another path), `... same file at another path (<path>)`. Empty when the same models serve in the same places.
    public func changes(since previous: RegistrySnapshot) -> [String] {
        func key(_ model: LoadedModel) -> String {
            "\(model.entry.category) \(model.entry.insightType) \(model.version)"
        }
        let before = Dictionary(previous.allModels.map { (key($0), $0) }, uniquingKeysWith: { first, _ in first })
        var changes: [String] = []
        var seen = Set<String>()
        for model in allModels {
            let name = key(model)
            guard seen.insert(name).inserted else { continue }
            guard let old = before[name] else {
                changes.append("\(name): added as \(model.status.rawValue)")
                continue
            }
            if old.entry.status != model.status { changes.append("\(name): \(old.entry.status.rawValue) -> \(model.status.rawValue)") }
            // By the bytes loaded, pinned or not: a pin spelt in the other case is the same file.
            let moved = AbsolutePath.spelling(of: old.entry.path) != AbsolutePath.spelling(of: model.entry.path)
            if old.fileDigest != model.fileDigest {
                // The new path too when it moved: "file changed" alone sent the operator to the old file.
                changes.append(moved ? "\(name): another file (\(model.entry.path))" : "\(name): file changed")
            } else if moved {
                changes.append("\(name): same file at another path (\(model.entry.path))")
            }
        }
        for model in previous.allModels where !seen.contains(key(model)) {
            seen.insert(key(model))
            changes.append("\(key(model)): removed (was \(model.status.rawValue))")
        }
        return changes
    }
}
