import FoundationEssentials
import Testing

@testable import TrustInsightsApp

/// `models import` and `models score` never write over what they read, and `--register` never writes the model over
/// the manifest or over a model the manifest already lists: each is a refusal that leaves every file as it was.
@Suite struct ModelsFileSafetyTests {
    private static let catalogue = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("config/features").path

    @Test func anImportWhoseOutputNamesItsSourceOrHeldOutFileIsAUsageErrorThatChangesNothing() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.xgboostOneFeature, to: "source.json")
        try harness.write("f0,label\n0.1,0\n0.9,1\n", to: "held-out.csv")
        try FileManager.default.createSymbolicLink(atPath: harness.path("link.json"), withDestinationPath: harness.path("source.json"))
        try FileManager.default.createDirectory(atPath: harness.path("sub"), withIntermediateDirectories: true)
        for (out, named) in [("source.json", "source.json"), (".//source.json", "source.json"), ("sub/../source.json", "source.json"), ("link.json", "source.json")] {
            let result = harness.importModel("source.json", from: "xgboost", to: out)
            #expect(result.status == 64, "\(out): \(result.errors)")
            #expect(result.errors.contains("'--out' names the input file") && result.errors.contains(named), "\(result.errors)")
            // The value is quoted as typed when it names the file another way than `./` and repeated slashes.
            #expect(result.errors.contains("(the value: ") == !["source.json", ".//source.json"].contains(out), "\(result.errors)")
        }
        let evaluated = harness.importModel("source.json", from: "xgboost", to: "held-out.csv", ["--evaluate", harness.path("held-out.csv")])
        #expect(evaluated.status == 64, "\(evaluated.errors)")
        #expect(try harness.read("source.json") == ModelsCommandHarness.xgboostOneFeature)
        #expect(try harness.read("held-out.csv") == "f0,label\n0.1,0\n0.9,1\n")
    }

    @Test func scoresWhoseOutputNamesTheRowsOrTheModelAreAUsageErrorThatChangesNothing() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.xgboostOneFeature, to: "source.json")
        #expect(harness.importModel("source.json", from: "xgboost", to: "m.json").status == 0)
        let model = try harness.read("m.json")
        try harness.write("f0\n0.4\n", to: "rows.csv")
        for output in ["rows.csv", "m.json"] {
            let result = harness.run(["models", "score", "--model", harness.path("m.json"), "--input", harness.path("rows.csv"),
                                      "--output", harness.path(output)])
            #expect(result.status == 64, "\(output): \(result.errors)")
            #expect(result.errors.contains("'--output' names the input file"), "\(result.errors)")
        }
        #expect(try harness.read("rows.csv") == "f0\n0.4\n")
        #expect(try harness.read("m.json") == model)
        // A device is written through, not replaced: naming one is no overwrite.
        let toDevice = harness.run(["models", "score", "--model", harness.path("m.json"), "--input", harness.path("rows.csv"),
                                    "--output", "/dev/null"])
        #expect(toDevice.status == 0, "\(toDevice.errors)")
    }

    @Test func registeringOverTheManifestOrAModelItListsIsRefusedAndChangesNothing() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.lightGBMStump(featureNames: "activeCall callDurationSeconds"), to: "source.txt")
        let register = ["--register", "--manifest", harness.path("models/manifest.json"), "--catalogue", Self.catalogue]
        try FileManager.default.createDirectory(atPath: harness.path("models"), withIntermediateDirectories: true)
        let first = harness.importModel("source.txt", from: "lightgbm", to: "models/payment-2027.01.1.json", register)
        #expect(first.status == 0, "\(first.errors)")
        let manifest = try harness.read("models/manifest.json")
        let listedModel = try harness.read("models/payment-2027.01.1.json")

        let overManifest = harness.importModel("source.txt", from: "lightgbm", to: "models/manifest.json", version: "2027.01.2", register)
        #expect(overManifest.status == 1)
        #expect(overManifest.errors.contains("the model's file is the manifest itself"), "\(overManifest.errors)")
        let overListed = harness.importModel(
            "source.txt", from: "lightgbm", to: "models/./payment-2027.01.1.json", version: "2027.01.2", register)
        #expect(overListed.status == 1)
        #expect(overListed.errors.contains("the manifest already lists this file, for isLikelyBeingCoached/payment 2027.01.1 (candidate)"),
                "\(overListed.errors)")
        #expect(try harness.read("models/manifest.json") == manifest)
        #expect(try harness.read("models/payment-2027.01.1.json") == listedModel)
        let verify = harness.run(["models", "verify", "--manifest", harness.path("models/manifest.json"), "--catalogue", Self.catalogue])
        #expect(verify.status == 0, "\(verify.errors)")
    }

    /// Without `--register` too: the manifest beside the output pins the listed file's SHA-256, so writing over it
    /// would take that model out of service at the next start or reload (a newcomer following the import example
    /// with the shipped prior model's version did exactly that).
    @Test func anImportWithoutRegisteringOverAModelTheManifestBesideItListsIsRefused() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.lightGBMStump(featureNames: "activeCall callDurationSeconds"), to: "source.txt")
        let register = ["--register", "--manifest", harness.path("models/manifest.json"), "--catalogue", Self.catalogue]
        try FileManager.default.createDirectory(atPath: harness.path("models"), withIntermediateDirectories: true)
        #expect(harness.importModel("source.txt", from: "lightgbm", to: "models/payment-2027.01.1.json", register).status == 0)
        let listedModel = try harness.read("models/payment-2027.01.1.json")
        try FileManager.default.createSymbolicLink(
            atPath: harness.path("alias.json"), withDestinationPath: harness.path("models/payment-2027.01.1.json"))
        // Through a link outside the folder too: the output is written through it, over the listed file.
        for out in ["models/payment-2027.01.1.json", "models/../models/payment-2027.01.1.json", "alias.json"] {
            let result = harness.importModel("source.txt", from: "lightgbm", to: out, version: "2027.01.2")
            #expect(result.status == 1, "\(out): \(result.errors)")
            #expect(result.errors.contains("is listed in") && result.errors.contains("isLikelyBeingCoached/payment 2027.01.1 (candidate)")
                    && result.errors.contains("write to a file of its own"), "\(result.errors)")
        }
        #expect(try harness.read("models/payment-2027.01.1.json") == listedModel)
        // A link that names the listed file while it is gone (a restore half done): written through, it made that
        // file, with another SHA-256 than the manifest pins (train probe, 7 December).
        try FileManager.default.moveItem(atPath: harness.path("models/payment-2027.01.1.json"), toPath: harness.path("kept.json"))
        try FileManager.default.createSymbolicLink(atPath: harness.path("dangling.json"), withDestinationPath: "models/payment-2027.01.1.json")
        for out in ["dangling.json", "models/payment-2027.01.1.json"] {
            let result = harness.importModel("source.txt", from: "lightgbm", to: out, version: "2027.01.2")
            #expect(result.status == 1 && result.errors.contains("is listed in"), "\(out): \(result.errors)")
        }
        #expect(!FileManager.default.fileExists(atPath: harness.path("models/payment-2027.01.1.json")))
        try FileManager.default.moveItem(atPath: harness.path("kept.json"), toPath: harness.path("models/payment-2027.01.1.json"))
        // A file of its own beside the manifest, or one outside the models folder, is written as before.
        #expect(harness.importModel("source.txt", from: "lightgbm", to: "models/payment-2027.01.2.json", version: "2027.01.2").status == 0)
        #expect(harness.importModel("source.txt", from: "lightgbm", to: "elsewhere.json", version: "2027.01.2").status == 0)
        let verify = harness.run(["models", "verify", "--manifest", harness.path("models/manifest.json"), "--catalogue", Self.catalogue])
        #expect(verify.status == 0, "\(verify.errors)")
    }

    /// A manifest that is a symbolic link is written through, as the commands' other outputs are: the link stays,
    /// and the file it names gets the entry (before, the link was replaced by a file, lifecycle probe 6 December).
    @Test func registeringThroughAManifestThatIsALinkWritesTheFileItNames() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.lightGBMStump(featureNames: "activeCall callDurationSeconds"), to: "source.txt")
        try FileManager.default.createDirectory(atPath: harness.path("models"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: harness.path("alt"), withIntermediateDirectories: true)
        let register = ["--register", "--manifest", harness.path("models/manifest.json"), "--catalogue", Self.catalogue]
        // A dangling link first: the manifest is made where it points.
        try FileManager.default.createSymbolicLink(atPath: harness.path("models/manifest.json"), withDestinationPath: "../alt/manifest.json")
        for version in ["2027.01.1", "2027.01.2"] {
            let result = harness.importModel("source.txt", from: "lightgbm", to: "models/payment-\(version).json", version: version, register)
            #expect(result.status == 0, "\(version): \(result.errors)")
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: harness.path("models/manifest.json")) == "../alt/manifest.json")
        let written = try harness.read("alt/manifest.json")
        #expect(written.contains("2027.01.1") && written.contains("2027.01.2"), "\(written)")
        #expect(written.contains("\"payment-2027.01.2.json\""), "entries stay relative to the link's folder: \(written)")
        let verify = harness.run(["models", "verify", "--manifest", harness.path("models/manifest.json"), "--catalogue", Self.catalogue])
        #expect(verify.status == 0, "\(verify.errors)")
        // A loop of links, or a link into a folder that does not exist, is refused before the model is written
        // (regression probe: the loop was replaced by a one-entry manifest, and the other failed after the model).
        try FileManager.default.createSymbolicLink(atPath: harness.path("models/loop.json"), withDestinationPath: "other.json")
        try FileManager.default.createSymbolicLink(atPath: harness.path("models/other.json"), withDestinationPath: "loop.json")
        try FileManager.default.createSymbolicLink(atPath: harness.path("models/lost.json"), withDestinationPath: "../no/such/manifest.json")
        for (manifest, reason) in [("models/loop.json", "is a loop of symbolic links"), ("models/lost.json", "whose folder")] {
            let result = harness.importModel(
                "source.txt", from: "lightgbm", to: "models/payment-2027.01.3.json", version: "2027.01.3",
                ["--register", "--manifest", harness.path(manifest), "--catalogue", Self.catalogue])
            #expect(result.status == 1 && result.errors.contains(reason) && result.errors.contains("nothing was written"), "\(manifest): \(result.errors)")
            #expect(!FileManager.default.fileExists(atPath: harness.path("models/payment-2027.01.3.json")))
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: harness.path(manifest))) != nil, "the link stays")
        }
        #expect(!FileManager.default.fileExists(atPath: harness.path("no")))
        // `..` in a link's target is the system's to resolve: behind a folder that is a link, it leads elsewhere than
        // the text says (second regression probe: the run refused one link and wrote another's manifest astray).
        let fileManager = FileManager.default
        for folder in ["deep/a/b", "deep/a/target2"] { try fileManager.createDirectory(atPath: harness.path(folder), withIntermediateDirectories: true) }
        try fileManager.createSymbolicLink(atPath: harness.path("symdir"), withDestinationPath: "deep/a/b")
        try fileManager.createSymbolicLink(atPath: harness.path("deep/a/b/in2"), withDestinationPath: "../target2/manifest.json")
        try fileManager.createSymbolicLink(atPath: harness.path("deep/a/b/in3"), withDestinationPath: "../target3/manifest.json")
        try fileManager.createSymbolicLink(atPath: harness.path("models/tricky2.json"), withDestinationPath: "../symdir/in2")
        try fileManager.createSymbolicLink(atPath: harness.path("models/tricky3.json"), withDestinationPath: "../symdir/in3")
        let through = harness.importModel(
            "source.txt", from: "lightgbm", to: "models/payment-2027.01.4.json", version: "2027.01.4",
            ["--register", "--manifest", harness.path("models/tricky2.json"), "--catalogue", Self.catalogue])
        #expect(through.status == 0, "\(through.errors)")
        #expect(try harness.read("deep/a/target2/manifest.json").contains("2027.01.4"))
        #expect(!fileManager.fileExists(atPath: harness.path("target2")))
        let astray = harness.importModel(
            "source.txt", from: "lightgbm", to: "models/payment-2027.01.5.json", version: "2027.01.5",
            ["--register", "--manifest", harness.path("models/tricky3.json"), "--catalogue", Self.catalogue])
        #expect(astray.status == 1 && astray.errors.contains("cannot be reached"), "\(astray.errors)")
        #expect(!fileManager.fileExists(atPath: harness.path("target3")) && !fileManager.fileExists(atPath: harness.path("models/payment-2027.01.5.json")))
        // `--out` and `--manifest` the same way: `symdir/../target4` is `deep/a/target4`, not `./target4`, as it is
        // without `--register` (third regression probe: the model overwrote the file the folded text named).
        for folder in ["target4", "deep/a/target4"] { try fileManager.createDirectory(atPath: harness.path(folder), withIntermediateDirectories: true) }
        try harness.write("precious", to: "target4/victim.json")
        let folded = harness.importModel(
            "source.txt", from: "lightgbm", to: "symdir/../target4/victim.json", version: "2027.01.6",
            ["--register", "--manifest", harness.path("symdir/../target4/manifest.json"), "--catalogue", Self.catalogue])
        #expect(folded.status == 0, "\(folded.errors)")
        #expect(try harness.read("target4/victim.json") == "precious")
        #expect(fileManager.fileExists(atPath: harness.path("deep/a/target4/victim.json")))
        #expect(try harness.read("deep/a/target4/manifest.json").contains("\"victim.json\""))
        #expect(!fileManager.fileExists(atPath: harness.path("target4/manifest.json")))
        // An `--out` that is a link is written through, as without `--register`; the link stays and the entry names it
        // (fourth regression probe: the link was replaced by a file). A loop there is refused, nothing written.
        try fileManager.createDirectory(atPath: harness.path("store"), withIntermediateDirectories: true)
        try fileManager.createSymbolicLink(atPath: harness.path("models/linked-model.json"), withDestinationPath: "../store/kept.json")
        let linked = harness.importModel(
            "source.txt", from: "lightgbm", to: "models/linked-model.json", version: "2027.01.8",
            ["--register", "--manifest", harness.path("target4/manifest.json"), "--catalogue", Self.catalogue])
        #expect(linked.status == 0, "\(linked.errors)")
        #expect(try fileManager.destinationOfSymbolicLink(atPath: harness.path("models/linked-model.json")) == "../store/kept.json")
        #expect(try harness.read("store/kept.json").contains("2027.01.8"))
        #expect(try harness.read("target4/manifest.json").contains("linked-model.json"))
        try fileManager.createSymbolicLink(atPath: harness.path("models/looped.json"), withDestinationPath: "looped.json")
        let looped = harness.importModel(
            "source.txt", from: "lightgbm", to: "models/looped.json", version: "2027.01.9",
            ["--register", "--manifest", harness.path("target4/manifest.json"), "--catalogue", Self.catalogue])
        #expect(looped.status == 1 && looped.errors.contains("loop"), "\(looped.errors)")
        #expect(!(try harness.read("target4/manifest.json")).contains("2027.01.9"))
        let beyond = harness.importModel(
            "source.txt", from: "lightgbm", to: "nowhere/../models/payment-2027.01.7.json", version: "2027.01.7",
            ["--register", "--manifest", harness.path("models/manifest.json"), "--catalogue", Self.catalogue])
        #expect(beyond.status == 1 && beyond.errors.contains("which does not exist"), "\(beyond.errors)")
    }

    /// `--features` that moves one of the file's names to another column is refused and writes nothing; one that
    /// renames columns in place is taken and says what it renamed.
    @Test func givenFeatureNamesMayRenameButNotReorderTheFilesColumns() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.lightGBMStump(featureNames: "a b"), to: "source.txt")
        let reordered = harness.importModel("source.txt", from: "lightgbm", to: "m.json", ["--features", "b,a"])
        #expect(reordered.status == 1, "\(reordered.errors)")
        #expect(reordered.errors.contains("put 'b' at column 0, but the file names column 1 'b'"), "\(reordered.errors)")
        #expect(!FileManager.default.fileExists(atPath: harness.path("m.json")))
        let renamed = harness.importModel("source.txt", from: "lightgbm", to: "m.json", ["--features", "activeCall,b"])
        #expect(renamed.status == 0, "\(renamed.errors)")
        #expect(renamed.output.contains("note: --features renamed 1 of the file's features, each read from the same column: a -> activeCall"),
                "\(renamed.output)")
    }

    /// What no manifest would take is refused before the model is read, registered or not.
    @Test func anImportForAnUnknownInsightOrCategoryIsAUsageError() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.xgboostOneFeature, to: "source.json")
        for (flag, value) in [("--insight", "fooInsight"), ("--category", "banking"), ("--category", "Payment")] {
            var options = ["--insight": "isLikelyBeingCoached", "--category": "payment"]
            options[flag] = value
            let result = harness.run(["models", "import", "--from", "xgboost", "--insight", options["--insight"]!,
                                      "--category", options["--category"]!, "--version", "1.0", "--out", harness.path("m.json"),
                                      harness.path("source.json")])
            #expect(result.status == 64, "\(flag) \(value): \(result.errors)")
            #expect(result.errors.contains("The value '\(value)' is invalid for '\(flag)'"), "\(result.errors)")
            #expect(!FileManager.default.fileExists(atPath: harness.path("m.json")))
        }
    }

    /// Held-out metrics written into a model need both classes and labels coded 0/1, as `train` reads them.
    @Test func heldOutRowsOfOneClassOrAnotherLabelCodingAreRefused() throws {
        let harness = try ModelsCommandHarness()
        try harness.write(ModelsCommandHarness.xgboostOneFeature, to: "source.json")
        for (csv, expected) in [
            ("f0,label\n0.1,0\n0.9,0\n", "all negatives (label 0)"),
            ("f0,label\n0.1,1\n0.9,1\n", "all positives (label 1)"),
            ("f0,label\n0.1,1\n0.9,2\n", "line 3: label must be 0 or 1"),
        ] {
            try harness.write(csv, to: "held-out.csv")
            let result = harness.importModel("source.json", from: "xgboost", to: "m.json", ["--evaluate", harness.path("held-out.csv")])
            #expect(result.status == 1, "\(csv)")
            #expect(result.errors.contains(expected), "\(result.errors)")
            #expect(!FileManager.default.fileExists(atPath: harness.path("m.json")))
        }
    }
}
