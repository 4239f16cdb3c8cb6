import FoundationEssentials
import Synchronization
import Testing
import Glibc

@testable import TrustInsightsApp

@Suite struct ModelsImportCommandTests {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    private static let catalogue = root.appendingPathComponent("config/features").path

    private func run(_ arguments: [String], _ variables: [String: String] = [:]) -> (status: Int32, errors: String) {
        let run = CommandRun(arguments, variables: variables)
        return (run.status, run.errors)
    }

    /// A one-stump XGBoost model over two features (save_model JSON).
    private static let stump = """
        {"learner":{"attributes":{},"feature_names":[],"feature_types":[],
         "gradient_booster":{"model":{"gbtree_model_param":{"num_parallel_tree":"1","num_trees":"1"},"tree_info":[0],
          "trees":[{"base_weights":[0,0,0],"categories":[],"categories_nodes":[],"categories_segments":[],
            "categories_sizes":[],"default_left":[1,0,0],"id":0,"left_children":[1,-1,-1],
            "loss_changes":[1,0,0],"parents":[2147483647,0,0],"right_children":[2,-1,-1],
            "split_conditions":[5E-1,-2.5E-1,7.5E-1],"split_indices":[1,0,0],"split_type":[0,0,0],
            "sum_hessian":[10,4,6],"tree_param":{"num_deleted":"0","num_feature":"2","num_nodes":"3","size_leaf_vector":"1"}}]},
          "name":"gbtree"},
         "learner_model_param":{"base_score":"5E-1","boost_from_average":"1","num_class":"0","num_feature":"2","num_target":"1"},
         "objective":{"name":"binary:logistic","reg_loss_param":{"scale_pos_weight":"1"}}},
         "version":[3,2,0]}
        """

    /// Runs `models import --register` (or, not registering, with `catalogue` only) of the stump with `features` into a
    /// fresh folder; `check` sees the result and the paths of the model (`--out`) and the manifest.
    private func importStump(
        features: String, registering: Bool = true, catalogue: Bool = true,
        _ check: (_ result: (status: Int32, errors: String), _ out: String, _ manifest: String) throws -> Void
    ) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("models-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("stump.json")
        try Data(Self.stump.utf8).write(to: source)
        let out = directory.appendingPathComponent("models/payment-2027.01.1.json").path
        let manifest = directory.appendingPathComponent("models/manifest.json").path
        // Registering makes the manifest's folder; a conversion alone writes into a folder that is there.
        if !registering { try FileManager.default.createDirectory(atPath: directory.path + "/models", withIntermediateDirectories: false) }
        let result = run(["models", "import", "--from", "xgboost", "--insight", "isLikelyBeingCoached", "--category", "payment",
                          "--version", "2027.01.1", "--features", features, "--out", out]
                         + (registering ? ["--register", "--manifest", manifest] : [])
                         + (catalogue ? ["--catalogue", Self.catalogue] : []) + [source.path])
        try check(result, out, manifest)
    }

    /// `models list` and `verify` read the folders the service would: its configuration's, not the working
    /// directory's, when TRUST_INSIGHTS_MODELS_DIR or TRUST_INSIGHTS_CONFIG_DIR says so.
    @Test func listAndVerifyReadTheServicesFolders() {
        let (listed, listErrors) = run(["models", "list"], ["TRUST_INSIGHTS_MODELS_DIR": "/nonexistent-models"])
        #expect(listed == 2)
        #expect(listErrors.contains("TRUST_INSIGHTS_MODELS_DIR: /nonexistent-models is not a folder"), "\(listErrors)")
        let (_, verifyErrors) = run(["models", "verify"], ["TRUST_INSIGHTS_CONFIG_DIR": "/nonexistent-config"])
        #expect(verifyErrors.contains("TRUST_INSIGHTS_CONFIG_DIR: /nonexistent-config is not a folder"), "\(verifyErrors)")
        // A folder that is there is read: one without a catalogue says so.
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("models-empty-config-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let (_, emptyErrors) = run(["models", "verify"], ["TRUST_INSIGHTS_CONFIG_DIR": empty.path])
        #expect(emptyErrors.contains("no feature catalogue at \(empty.path)/features"), "\(emptyErrors)")
        // Something there that is no folder is refused with the reason, as `serve` refuses it, not passed over
        // (regression probe, 7 December).
        #expect(symlink("features", empty.path + "/features") == 0)
        let (looped, loopErrors) = run(["models", "verify"], ["TRUST_INSIGHTS_CONFIG_DIR": empty.path])
        #expect(looped == 1)
        #expect(loopErrors.contains("features/payment.json: cannot be read: too many levels of symbolic links"), "\(loopErrors)")
        let (simulated, simulateErrors) = run(["simulate", "--category", "payment", "--rows", "1", "--out", "-", "--config-dir", empty.path], [:])
        #expect(simulated == 2)
        #expect(simulateErrors.contains("cannot be read: too many levels of symbolic links"), "\(simulateErrors)")
    }

    /// `--config` names the configuration file as it does for `serve` (it was refused as an unknown option), and
    /// the folders it names are the ones read.
    @Test func listAndVerifyTakeTheConfigurationFileAsServeDoes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("models-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("service.json")
        try Data(#"{"modelsDir": "/nonexistent-models-from-file", "configDir": "/nonexistent-config-from-file"}"#.utf8).write(to: file)
        let (listed, listErrors) = run(["models", "list", "--config", file.path], [:])
        #expect(listed == 2)
        #expect(listErrors.contains("modelsDir: /nonexistent-models-from-file is not a folder"), "\(listErrors)")
        try Data(#"{"configDir": "/nonexistent-config-from-file"}"#.utf8).write(to: file)
        let (_, verifyErrors) = run(["models", "verify", "--config", file.path], [:])
        #expect(verifyErrors.contains("configDir: /nonexistent-config-from-file is not a folder"), "\(verifyErrors)")
        let (missing, missingErrors) = run(["models", "list", "--config", "/nonexistent/service.json"], [:])
        #expect(missing == 2)
        #expect(missingErrors.contains("/nonexistent/service.json"), "\(missingErrors)")
    }

    /// A configuration that does not load is refused as `serve` refuses it. Before, `models verify` and `list` fell
    /// back to the built-in folders and reported another manifest than the service's valid, with exit status 0.
    @Test func listAndVerifyRefuseAConfigurationThatDoesNotLoad() {
        for arguments in [["models", "list"], ["models", "verify"]] {
            let (status, errors) = run(arguments, ["TRUST_INSIGHTS_PORT": "abc"])
            #expect(status == 2, "\(arguments)")
            #expect(errors.contains("TRUST_INSIGHTS_PORT"), "\(errors)")
            let (missing, missingErrors) = run(arguments, ["TRUST_INSIGHTS_CONFIG": "/nonexistent/service.json"])
            #expect(missing == 2, "\(arguments)")
            #expect(missingErrors.contains("/nonexistent/service.json"), "\(missingErrors)")
            // A folder that is not there is the setting serve names, with serve's status (before: exit 1, "cannot
            // read .../manifest.json"; found by an operator probe).
            let (folder, folderErrors) = run(arguments, ["TRUST_INSIGHTS_MODELS_DIR": "/nonexistent/models"])
            #expect(folder == 2, "\(arguments)")
            #expect(folderErrors.contains("TRUST_INSIGHTS_MODELS_DIR") && folderErrors.contains("/nonexistent/models is not a folder"), "\(folderErrors)")
        }
    }

    /// With `--manifest` (and for `verify`, `--catalogue`) naming every file read, a `--config` that does not load is
    /// still refused, as the README says: it passed silently with exit status 0 (found by a docs probe).
    @Test func aConfigurationThatDoesNotLoadIsRefusedWhateverFilesTheOptionsName() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("models-bad-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let unknownKey = directory.appendingPathComponent("service.json")
        try Data(#"{"notASetting": 1}"#.utf8).write(to: unknownKey)
        let manifest = ["--manifest", directory.appendingPathComponent("manifest.json").path]
        let catalogue = ["--catalogue", directory.path]
        for arguments in [["models", "list"] + manifest, ["models", "verify"] + manifest + catalogue] {
            let (missing, missingErrors) = run(arguments + ["--config", "/nonexistent/service.json"])
            #expect(missing == 2, "\(arguments)")
            #expect(missingErrors.contains("/nonexistent/service.json"), "\(missingErrors)")
            let (unknown, unknownErrors) = run(arguments + ["--config", unknownKey.path])
            #expect(unknown == 2, "\(arguments)")
            #expect(unknownErrors.contains("notASetting"), "\(unknownErrors)")
        }
    }

    @Test func aModelTheCatalogueRefusesIsNotWrittenAndNotRegistered() throws {
        try importStump(features: "activeCall,notInTheCatalogue") { result, out, manifest in
            #expect(result.status != 0)
            #expect(result.errors.contains("notInTheCatalogue"), "the refusal names what the catalogue lacks: \(result.errors)")
            #expect(!FileManager.default.fileExists(atPath: out))
            #expect(!FileManager.default.fileExists(atPath: manifest))
        }
    }

    /// A `--catalogue` given without `--register` is checked all the same: before, the option was ignored there and a
    /// model whose features the catalogue lacks was written without a word (models probe, 7 December).
    @Test func aCatalogueGivenWithoutRegisteringIsCheckedAndTheModelNotWrittenIfItDoesNotFit() throws {
        try importStump(features: "activeCall,notInTheCatalogue", registering: false) { result, out, manifest in
            #expect(result.status == 1)
            #expect(result.errors.contains("\(out) not written: the model does not fit the feature schema of isLikelyBeingCoached/payment"), "\(result.errors)")
            #expect(result.errors.contains("notInTheCatalogue"))
            #expect(!FileManager.default.fileExists(atPath: out) && !FileManager.default.fileExists(atPath: manifest))
        }
        try importStump(features: "activeCall,callDurationSeconds", registering: false) { result, out, manifest in
            #expect(result.status == 0, "\(result.errors)")
            #expect(FileManager.default.fileExists(atPath: out) && !FileManager.default.fileExists(atPath: manifest))
        }
        // A --catalogue that is no folder is named as such, not by the first catalogue file missing from it.
        let nowhere = FileManager.default.temporaryDirectory.appendingPathComponent("no-catalogue-\(UUID().uuidString)").path
        let missing = run(["models", "verify", "--catalogue", nowhere])
        #expect(missing.status == 1 && missing.errors.contains("--catalogue \(nowhere): no such folder"), "\(missing.errors)")
        // A file, also named with a trailing slash (ENOTDIR), is not a folder; a link that leads nowhere, no folder.
        #expect(FileManager.default.createFile(atPath: nowhere, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: nowhere) }
        for given in [nowhere, nowhere + "/"] {
            let file = run(["models", "verify", "--catalogue", given])
            #expect(file.status == 1 && file.errors.contains("--catalogue \(given): not a folder"), "\(file.errors)")
        }
        let link = nowhere + "-link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: nowhere + "-gone")
        defer { try? FileManager.default.removeItem(atPath: link) }
        #expect(run(["models", "verify", "--catalogue", link]).errors.contains("--catalogue \(link): no such folder"))
        // Neither option: a conversion only, checked against nothing.
        try importStump(features: "f0,f1", registering: false, catalogue: false) { result, out, _ in
            #expect(result.status == 0, "\(result.errors)")
            #expect(FileManager.default.fileExists(atPath: out))
        }
    }

    /// Spaces around a name in `--features` are not part of it: before, `activeCall, callDurationSeconds` named a
    /// feature " callDurationSeconds", which no catalogue or CSV header holds.
    @Test func spacesAroundAFeatureNameAreIgnored() throws {
        try importStump(features: " activeCall ,  callDurationSeconds") { result, out, _ in
            #expect(result.status == 0, "\(result.errors)")
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: out)), as: UTF8.self)
            #expect(text.contains("\"callDurationSeconds\""), "\(text)")
            #expect(!text.contains("\" callDurationSeconds\""))
        }
    }

    /// LightGBM's files record no best iteration (its save_model keeps only the trees up to it already): the flag
    /// is a usage error there, not a note that it did nothing (found by a probe).
    @Test func bestIterationIsForXGBoostOnly() {
        let result = run(["models", "import", "--from", "lightgbm", "--best-iteration", "--insight", "isLikelyBeingCoached",
                          "--category", "payment", "--version", "2027.01.1", "--out", "/nonexistent/out.json", "/nonexistent/model.txt"])
        #expect(result.status == 64)
        #expect(result.errors.contains("--best-iteration is for --from xgboost"), "\(result.errors)")
    }

    /// One run names every model to mend, as start-up would refuse each (before, it stopped at the first and printed
    /// nothing else); a named pipe is "not a regular file", not "permission denied"; and with `--manifest` given,
    /// the service's models folder is not asked for (models probe, 5 December).
    @Test func verifyNamesEveryRefusedModelAndNeedsNoModelsFolderBesideAManifest() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("models-verify-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent("models"), to: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["other-2026.11.1.json", "account-2026.11.1.json"] {
            let file = directory.appendingPathComponent(name)
            try (Data(contentsOf: file) + Data(" ".utf8)).write(to: file)
        }
        #expect(mkfifo(directory.appendingPathComponent("pipe.json").path, 0o600) == 0)
        let manifestFile = directory.appendingPathComponent("manifest.json")
        let manifest = String(decoding: try Data(contentsOf: manifestFile), as: UTF8.self)
        let entry = #"{"insightType": "isLikelyBeingCoached", "category": "payment", "version": "2027.01.9", "status": "candidate", "path": "pipe.json"}, "#
        let edited = try #require(manifest.range(of: "\"models\": [")).upperBound
        try Data((manifest[..<edited] + entry + manifest[edited...]).utf8).write(to: manifestFile)

        let (status, errors) = run(
            ["models", "verify", "--manifest", manifestFile.path, "--catalogue", Self.catalogue],
            ["TRUST_INSIGHTS_MODELS_DIR": "/nonexistent/models"])
        #expect(status == 1, "\(errors)")
        #expect(errors.contains("refused  account-2026.11.1.json: its SHA-256"), "\(errors)")
        #expect(errors.contains("refused  other-2026.11.1.json: its SHA-256"), "\(errors)")
        #expect(errors.contains("refused  pipe.json: cannot read the model: not a regular file (a named pipe)"), "\(errors)")
        #expect(errors.contains("3 of 7 models refused"), "\(errors)")
        #expect(!errors.contains("modelsDir") && !errors.contains("MODELS_DIR"), "\(errors)")

        // `models list` read the edited files as models and exited 0; the service refuses them.
        let listed = CommandRun(["models", "list", "--manifest", manifestFile.path], variables: [:])
        #expect(listed.status == 1)
        #expect(listed.output.contains("account-2026.11.1.json  (changed since registered)"), "\(listed.output)")
        #expect(listed.errors.contains("2 of 7 model files are not the bytes the manifest pins"), "\(listed.errors)")
    }

    @Test func aModelTheCatalogueAcceptsIsWrittenAndRegisteredAsCandidate() throws {
        try importStump(features: "activeCall,callDurationSeconds") { result, out, manifest in
            #expect(result.status == 0, "\(result.errors)")
            #expect(FileManager.default.fileExists(atPath: out))
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: manifest)), as: UTF8.self)
            #expect(text.contains("\"payment-2027.01.1.json\""))
            #expect(text.contains("\"candidate\""))
            #expect(text.contains("\"sha256\""), "registration pins the file's bytes")

            // The pinned bytes are checked: the registered file verifies, the same file edited afterwards does not.
            let verify = ["models", "verify", "--manifest", manifest, "--catalogue", Self.catalogue]
            #expect(run(verify).status == 0, "\(run(verify).errors)")
            try (Data(contentsOf: URL(fileURLWithPath: out)) + Data(" ".utf8)).write(to: URL(fileURLWithPath: out))
            let edited = run(verify)
            #expect(edited.status != 0)
            #expect(edited.errors.contains("payment-2027.01.1.json") && edited.errors.contains("SHA-256"), "\(edited.errors)")
        }
    }
}
