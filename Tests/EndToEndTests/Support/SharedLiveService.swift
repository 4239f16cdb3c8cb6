import Testing

/// One live service for a whole suite (loading the shipped models dominates a debug build's start-up), started
/// before its first test and stopped, its data folder removed, after its last. A `static let` would keep it, and
/// its folder, until the process ends, where no deinit runs.
struct SharedLiveService: SuiteTrait, TestScoping {
    @TaskLocal static var current: LiveService?

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let service = try LiveService()
        try await Self.$current.withValue(service) { try await function() }
    }

    /// The suite's service; a test of a suite without the trait fails here rather than starting one of its own.
    static func service() throws -> LiveService {
        try #require(current, "the suite needs the .sharedLiveService trait")
    }
}

extension Trait where Self == SharedLiveService {
    static var sharedLiveService: Self { Self() }
}
