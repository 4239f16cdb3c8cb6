/// The log line for a connection the write deadline cut with answers still queued: each answer's access line is
/// written when it is queued, with its status and size, so without this line a client that stopped reading looked
/// served in the log (observability probe, 6 December). It names the last answer queued; the undelivered bytes may
/// span it and the answers pipelined before it on the same connection.
struct UndeliveredAnswersLine {
    var lastRequestID: String?
    var undeliveredBytes: Int
    var writeTimeoutSeconds: Double

    func render(time: String = UTCTimestamp.iso8601()) -> String {
        #"{"time":"\#(time)","level":"warning","event":"answers not delivered: write timeout","#
            + (lastRequestID.map { #""lastRequestID":"\#(JSONText.escape($0))","# } ?? "")
            + #""undeliveredBytes":\#(undeliveredBytes),"writeTimeoutSeconds":\#(writeTimeoutSeconds),"#
            + #""action":"the client stopped reading for writeTimeoutSeconds; the connection was reset and the answers up to lastRequestID may not have reached it"}"#
    }
}
