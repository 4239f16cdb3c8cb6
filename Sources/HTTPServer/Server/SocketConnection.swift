/// One accepted socket and its HTTP session, owned by exactly one event loop.
final class SocketConnection {
    let fd: Int32
    var session: ConnectionSession
    /// The epoll events currently registered, to skip redundant epoll_ctl calls.
    var registeredEvents: UInt32
    /// After an error response: our side is shut down and we read and discard until the peer closes.
    var isLingering = false
    var lingerBytesDrained = 0
    /// When the lingering read last took bytes (or began): at the connection cap, a connection whose peer has sent
    /// nothing for a while after its answer is reclaimed before idle keep-alive ones.
    var lingerQuietSince: UInt64 = 0
    /// The peer closed its sending side; close once our output is written.
    var peerClosed = false

    init(fd: Int32, session: ConnectionSession, registeredEvents: UInt32) {
        self.fd = fd
        self.session = session
        self.registeredEvents = registeredEvents
    }
}
