/// The log line for a connection the write deadline cut with answers still queued: each answer's access line is
/// written when it is queued, with its status and size, so without this line a client that stopped reading looked
/// served in the log (observability probe, 6 December). It names the last answer queued; what was lost may span it
/// and the answers pipelined before it on the same connection, and is more than `queuedBytes` by what the kernel's
/// send buffer held, which the reset drops too.
struct UndeliveredAnswersLine {
    var lastRequestID: String?
    var queuedBytes: Int
    var writeTimeoutSeconds: Double

    func render(time: String = UTCTimestamp.iso8601()) -> String {
        #"{"time":"\#(time)","level":"warning","event":"answers not delivered: write timeout","#
            + (lastRequestID.map { #""lastRequestID":"\#(JSONText.escape($0))","# } ?? "")
            + #""queuedBytes":\#(queuedBytes),"writeTimeoutSeconds":\#(writeTimeoutSeconds),"#
            + #""action":"the client read too slowly or stopped reading: its answers did not drain within writeTimeoutSeconds, so the connection was reset, and the answers up to lastRequestID may not have reached it"}"#
    }
}
