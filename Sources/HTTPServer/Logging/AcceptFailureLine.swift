/// The log line for connections the listener could not accept for want of file descriptors (EMFILE, ENFILE):
/// clients then wait in the kernel's backlog, unanswered and unlogged, which an operator must be told. One line
/// per loop at most every `interval` seconds, with the count since the last.
struct AcceptFailureLine {
    static let intervalSeconds = 10

    var failures: Int
    /// `EMFILE` (the process's limit) or `ENFILE` (the system's).
    var reason: String
    var openConnections: Int
    var maxConnections: Int

    func render(time: String = UTCTimestamp.iso8601()) -> String {
        #"{"time":"\#(time)","level":"warning","event":"cannot accept connections: out of file descriptors","#
            + #""reason":"\#(reason)","failures":\#(failures),"openConnections":\#(openConnections),"maxConnections":\#(maxConnections),"#
            + #""action":"raise the open-file limit (LimitNOFILE) above maxConnections, or lower maxConnections: new clients wait until a connection closes"}"#
    }
}
