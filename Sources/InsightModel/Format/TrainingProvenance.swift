/// Free-form description of how a model was produced. Never holds feature values.
public struct TrainingProvenance: Codable, Sendable, Hashable {
    /// Where the model came from: `trained`, `imported:xgboost`, `imported:lightgbm`, ...
    public var source: String
    /// The tool and its version, e.g. `xgboost 3.2.0` or `trust-insights train 0.1.0`.
    public var tool: String
    /// Training parameters as the tool names them, e.g. `["max_depth": "6", "eta": "0.1"]`.
    public var parameters: [String: String]
    /// What data it was trained on (a description, never the data).
    public var dataDescription: String

    public init(source: String, tool: String, parameters: [String: String] = [:], dataDescription: String = "") {
        self.source = source
        self.tool = tool
        self.parameters = parameters
        self.dataDescription = dataDescription
    }
}
