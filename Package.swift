// swift-tools-version:6.0
// trust-insights: no Swift package dependencies by design (see DESIGN.md). System libraries come in only
// through the two systemLibrary targets, CSQLite and CCrypto.
import PackageDescription

// Release builds optimise across module boundaries, so the generic code of the layers below (JSON reading, HTTP
// fields, the scorer) is specialised where the service calls it: about 6% fewer CPU microseconds per evaluation
// (docs/BENCHMARKS.md, "Cross-module optimisation"). Debug builds and the tests are unaffected.
let optimised: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

let package = Package(
    name: "trust-insights",
    products: [
        .executable(name: "trust-insights", targets: ["TrustInsightsCLI"]),
        .executable(name: "http-conformance-target", targets: ["HTTPConformanceTarget"]),
    ],
    targets: [
        // C shims and system libraries.
        .target(name: "CLinux"),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),

        // Layers, lowest first. Data flows one way: CLI -> Service -> (HTTPServer, Core) -> (Model, Store).
        .target(name: "DetachedThreads", dependencies: ["CLinux"], swiftSettings: optimised),
        .target(name: "HTTPServer", dependencies: ["CLinux", "DetachedThreads"], swiftSettings: optimised),
        .target(name: "JSONStream", swiftSettings: optimised),
        .target(name: "InsightModel", dependencies: ["InsightCrypto"], swiftSettings: optimised),
        .target(name: "InsightCrypto", dependencies: ["CCrypto"], swiftSettings: optimised),
        .target(name: "InsightCore", dependencies: ["InsightModel", "InsightCrypto", "JSONStream", "DetachedThreads"], swiftSettings: optimised),
        .target(name: "InsightStore", dependencies: ["InsightCore", "CSQLite", "DetachedThreads", "JSONStream"], swiftSettings: optimised),
        .target(name: "InsightTraining", dependencies: ["InsightModel"], swiftSettings: optimised),
        .target(name: "InsightSimulation", dependencies: ["InsightCore"], swiftSettings: optimised),
        // docs/openapi.yaml (the repository's, through a symlink) is compiled in and served at GET /openapi.yaml.
        .target(
            name: "InsightService", dependencies: ["HTTPServer", "InsightCore", "InsightCrypto", "JSONStream", "DetachedThreads"],
            resources: [.embedInCode("Contract/openapi.yaml")], swiftSettings: optimised
        ),
        .target(
            name: "TrustInsightsApp",
            dependencies: [
                "HTTPServer", "InsightModel", "InsightCore", "InsightStore", "InsightCrypto",
                "InsightTraining", "InsightSimulation", "InsightService", "JSONStream", "CLinux",
            ],
            swiftSettings: optimised
        ),

        // Executables: thin mains over the libraries above.
        .executableTarget(name: "TrustInsightsCLI", dependencies: ["TrustInsightsApp"], swiftSettings: optimised),
        .executableTarget(name: "HTTPConformanceTarget", dependencies: ["HTTPServer"], swiftSettings: optimised),

        // Tests mirror the sources.
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "CLinux", "DetachedThreads"]),
        .testTarget(name: "JSONStreamTests", dependencies: ["JSONStream"]),
        .testTarget(name: "InsightModelTests", dependencies: ["InsightModel"]),
        .testTarget(name: "InsightCryptoTests", dependencies: ["InsightCrypto"]),
        .testTarget(name: "InsightCoreTests", dependencies: ["InsightCore", "InsightModel", "InsightCrypto"]),
        .testTarget(name: "InsightStoreTests", dependencies: ["InsightStore", "InsightCore"]),
        .testTarget(name: "InsightTrainingTests", dependencies: ["InsightTraining", "InsightModel"]),
        .testTarget(name: "InsightServiceTests", dependencies: ["InsightService", "HTTPServer", "InsightCore"]),
        .testTarget(name: "InsightSimulationTests", dependencies: ["InsightSimulation", "InsightCore"]),
        .testTarget(name: "TrustInsightsAppTests", dependencies: ["TrustInsightsApp"]),
        .testTarget(name: "EndToEndTests", dependencies: ["TrustInsightsApp", "HTTPServer"]),
    ],
    swiftLanguageModes: [.v6]
)
