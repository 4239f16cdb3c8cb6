import FoundationEssentials
import InsightModel

/// `trust-insights models list`: the manifest's entries with a summary of each model file.
enum ModelsListCommand {
    static var spec: CommandSpec {
        CommandSpec(
            name: "list",
            abstract: "List the models in the manifest.",
            options: [ModelsCatalogue.manifestOption(), ModelsCatalogue.configurationOption]
        ) { arguments, environment in
            let manifestPath = try ModelsCatalogue.manifestPath(arguments, environment)
            let manifest: ModelManifest
            let bytes: Data
            do {
                bytes = try ModelManifest.fileBytes(atPath: manifestPath)
            } catch {
                // Worded as `verify` and `serve` say it, so one search finds the three.
                throw CommandLineError.failure("\(manifestPath): cannot read the manifest: \(FileErrorText.reason(error))")
            }
            do {
                manifest = try ModelManifest(jsonData: bytes)
            } catch {
                throw CommandLineError.failure("\(manifestPath): not a valid manifest (\(error))")
            }
            let directory = URL(fileURLWithPath: AbsolutePath.of(manifestPath)).deletingLastPathComponent()
            environment.print("INSIGHT                CATEGORY       VERSION      STATUS     TREES  FEATURES  MEDIUM  HIGH   PATH")
            var unreadable: [String] = []
            // A file whose bytes are not the ones its entry pins reads as a model here, but the service refuses it.
            var changed: [String] = []
            for entry in manifest.models {
                let path = directory.appendingPathComponent(entry.path).path
                // Padded like the columns it stands for, so the path stays in its column.
                var summary = pad("(unreadable)", 32)
                if let data = try? ModelManifest.modelBytes(atPath: path),
                    let document = try? ModelDocument(jsonData: data)
                {
                    summary = "\(pad(String(document.trees.count), 7))\(pad(String(document.featureNames.count), 10))"
                        + "\(pad(short(document.thresholds.medium), 8))\(pad(short(document.thresholds.high), 7))"
                    if let pinned = entry.sha256, ModelFileDigest.mismatch(data, expected: pinned) != nil {
                        changed.append(entry.path)
                    }
                } else {
                    unreadable.append(entry.path)
                }
                environment.print(
                    pad(shown(entry.insightType), 23) + pad(shown(entry.category), 15) + pad(shown(entry.version), 13)
                        + pad(entry.status.rawValue, 11) + summary + shown(entry.path)
                        + (changed.last == entry.path ? "  (changed since registered)" : ""))
            }
            if !changed.isEmpty {
                environment.printError(
                    "\(changed.count) of \(manifest.models.count) model files are not the bytes the manifest pins, and the "
                        + "service refuses them: \(changed.joined(separator: ", ")) (`models verify` says more)")
            }
            // The listing is complete either way; the status tells a script that the manifest names files the
            // service could not load, as `ls` does for names it cannot read.
            guard unreadable.isEmpty else {
                environment.printError(
                    "\(unreadable.count) of \(manifest.models.count) model files could not be read as models: "
                        + "\(unreadable.joined(separator: ", ")) (`models verify` says why)")
                return 1
            }
            return changed.isEmpty ? 0 : 1
        }
    }

    /// Four decimals are enough to tell thresholds apart in a listing.
    static func short(_ value: Double) -> String {
        String((value * 10_000).rounded() / 10_000)
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    /// A manifest's text as one line of the table: its control characters written as `\u{1B}` (a terminal would
    /// act on an escape sequence) and its line breaks as `\n` (one would start a row of anything).
    static func shown(_ text: String) -> String {
        CommandEnvironment.escapingControlCharacters(text, lineBreaksToo: true)
    }
}
