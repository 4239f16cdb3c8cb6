extension SQLiteStore {
    /// Running totals of the group-commit writer since the store was opened, for `/metrics`.
    public struct WriterActivity: Sendable, Equatable {
        /// Transactions run (each commits a batch of writes, or fails it whole).
        public var batches: Int
        /// Writes committed; `writes / batches` is the average batch, which grows with load.
        public var writes: Int
        /// Checkpoints the writer had to run itself because the WAL outgrew its limit.
        public var checkpointCatchUps: Int
        /// Catch-ups that failed with an error: the database file refused the copy, and the WAL keeps growing.
        public var checkpointFailures: Int = 0
        /// Why catch-ups fail, while they do; nil once one succeeds.
        public var failingCheckpoint: String?
        /// Frames in the WAL after the last commit (the file itself keeps its size for reuse, up to 64 MiB).
        public var walFrames: Int = 0
    }

    public var writerActivity: WriterActivity {
        WriterActivity(
            batches: writer.batchesCommitted, writes: writer.writesCommitted,
            checkpointCatchUps: writer.checkpointCatchUps, checkpointFailures: writer.checkpointFailures,
            failingCheckpoint: writer.failingCheckpoint, walFrames: writer.walFrames)
    }
}
