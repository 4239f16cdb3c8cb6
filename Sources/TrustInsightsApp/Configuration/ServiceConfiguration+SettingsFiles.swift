import InsightCore

/// Where `serve` finds its settings files under `configDir`. Both the loading (ServiceRuntime) and the SIGHUP check
/// of files read at start only (ServeCommand) take the paths from here, so that a file added to one is not missed by
/// the other: the list was written out twice, once per side, until the read-through of 6 December.
extension ServiceConfiguration {
    var featureCatalogueFolder: String { configDir + "/features" }
    var velocitySettingsFile: String { configDir + "/velocity.json" }
    var rateLimitsFile: String { configDir + "/rate-limits.json" }

    /// Read once, at start; SIGHUP reloads the signing keys and the models only.
    var filesReadAtStartOnly: [String] {
        [velocitySettingsFile, rateLimitsFile]
            + OperationCategory.allCases.map { featureCatalogueFolder + "/" + $0.rawValue + ".json" }
    }
}
