import CLinux
import Glibc

/// One thread, one epoll instance, one SO_REUSEPORT listener and the connections it accepted.
final class EventLoop {
    private static let listenerToken = UInt64.max - 1
    private static let wakeToken = UInt64.max
    private static let readChunk = 65536
    private static let readInterest = UInt32(EPOLLIN.rawValue) | UInt32(EPOLLRDHUP.rawValue)
    private static let writeInterest = UInt32(EPOLLOUT.rawValue)
    /// How long accepting pauses after EMFILE/ENFILE or at the connection cap.
    private static let acceptBackoff: UInt64 = 100_000_000
    /// How many times a pass's end runs the loop's tasks and `afterEachPass` for answers settled on this thread
    /// before the loop looks at its sockets again (see `endPass()`).
    private static let endOfPassRounds = 16

    let shared: ServerShared
    let services: LoopServices
    let epoll: Int32
    let wakeFD: Int32
    private var listenFD: Int32
    private var listenerArmed = true
    private var acceptResumesAt: UInt64?
    /// Accepts that failed for want of descriptors since the last `AcceptFailureLine`, and that line's second.
    private var descriptorShortages = 0
    private var descriptorShortageLoggedAt = Int.min
    private var connections: [Int32: SocketConnection] = [:]
    /// Connections whose response waits for a gate, by gate; the mailbox says which gates have settled.
    private var awaiting: [ObjectIdentifier: SocketConnection] = [:]
    private let mailbox: LoopMailbox
    private var drainDeadline: UInt64?
    private let readBuffer: UnsafeMutableRawBufferPointer
    private var now: UInt64 = MonotonicClock.now()
    private var nextTimerCheck: UInt64 = 0

    init(shared: ServerShared, listenFD: Int32) throws(HTTPServerError) {
        self.shared = shared
        self.services = LoopServices(shared: shared)
        self.listenFD = listenFD
        epoll = clinux_epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw .socketFailure(operation: "epoll_create1", errno: errno) }
        wakeFD = clinux_eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        guard wakeFD >= 0 else { throw .socketFailure(operation: "eventfd", errno: errno) }
        mailbox = LoopMailbox(wakeFD: wakeFD)
        readBuffer = .allocate(byteCount: Self.readChunk, alignment: 16)
        _ = clinux_epoll_ctl(epoll, EPOLL_CTL_ADD, listenFD, UInt32(EPOLLIN.rawValue), Self.listenerToken)
        _ = clinux_epoll_ctl(epoll, EPOLL_CTL_ADD, wakeFD, UInt32(EPOLLIN.rawValue), Self.wakeToken)
    }

    deinit {
        // wakeFD belongs to the server, which closes it once every loop has stopped.
        readBuffer.deallocate()
        close(epoll)
    }

    /// The loop body; returns when draining is over.
    func run() {
        mailbox.ownerStarted()
        let capacity = 256
        var events = [UInt32](repeating: 0, count: capacity)
        var tokens = [UInt64](repeating: 0, count: capacity)
        // Shutdown may have been asked for before this loop ran (a signal during start-up).
        if shared.draining.load(ordering: .sequentiallyConsistent) { beginDraining() }
        while true {
            // Answers settled on this thread and not yet released (see `endPass()`) are not waited for.
            let timeout: Int32 = mailbox.hasPosts ? 0
                : connections.isEmpty && acceptResumesAt == nil && drainDeadline == nil ? 1000 : 50
            let count = clinux_epoll_wait(epoll, &events, &tokens, Int32(capacity), timeout)
            now = MonotonicClock.now()
            services.date.update(wallClockSeconds: UTCTimestamp.now().tv_sec)
            services.flushSuppressedAccessLogLines()
            if count < 0 && errno != EINTR { break }
            for index in 0..<max(0, Int(count)) {
                let token = tokens[index]
                if token == Self.listenerToken {
                    acceptConnections()
                } else if token == Self.wakeToken {
                    var value: UInt64 = 0
                    _ = read(wakeFD, &value, 8)
                    releaseSettledResponses()
                    if shared.draining.load(ordering: .relaxed) { beginDraining() }
                } else if let connection = connections[Int32(truncatingIfNeeded: token)] {
                    handle(events[index], on: connection)
                    // Answers settled while this pass runs go out now rather than after the eventfd comes round
                    // in the next pass: under load a pass lasts a millisecond or more.
                    if mailbox.hasPosts { releaseSettledResponses() }
                }
            }
            if now >= nextTimerCheck {
                nextTimerCheck = now + 50_000_000
                checkTimers()
            }
            endPass()
            if let drainDeadline {
                if connections.isEmpty { break }
                if now >= drainDeadline {
                    // A connection lingering after its answer, or idle, loses nothing by the close; one with a
                    // request under way or an answer not yet sent is cut off.
                    let cutOff = connections.values.filter { !$0.isLingering && !$0.session.isIdle }.count
                    if cutOff > 0 { shared.connectionsCutOff.add(cutOff, ordering: .relaxed) }
                    for connection in Array(connections.values) { closeConnection(connection) }
                    break
                }
            }
        }
        // Nothing a handler left is dropped, even when the loop stops after the pass that queued it.
        services.tasks.runAll()
        services.flushSuppressedAccessLogLines(final: true)
        if listenFD >= 0 {
            close(listenFD)
            listenFD = -1
        }
        mailbox.close()
    }

    /// Runs the tasks handlers left and the server's `afterEachPass`, then sends the answers they settled on this
    /// thread (posts from this thread wake no eventfd). Sending one goes on to the connection's next pipelined
    /// request, whose handler leaves tasks and held writes of its own: they belong to this pass's end too, or they
    /// would wait for the next event or the 50 ms timeout (a client pipelining evaluations got one answer per
    /// 50 ms). So the end repeats while an answer it sent leaves another held or work queued, a bounded number of
    /// times so that a deep pipeline does not keep the loop from its other sockets; answers left then make the
    /// next wait return at once.
    private func endPass() {
        var rounds = 0
        while true {
            if !services.tasks.isEmpty { services.tasks.runAll() }
            shared.afterEachPass?()
            rounds += 1
            guard mailbox.hasPosts, rounds <= Self.endOfPassRounds else { return }
            // Answers that went without a pipelined request behind them that now waits in its turn need no
            // further round: calling the hook anyway took other loops' records into commits of their own, smaller
            // batches that cost about a sixth of an evaluation's CPU under load.
            let heldAgain = releaseSettledResponses()
            if !heldAgain && services.tasks.isEmpty { return }
        }
    }

    // MARK: accepting

    private func acceptConnections(atMost limit: Int = 64) {
        let configuration = shared.configuration
        // Found by one pass over the loop's connections for the whole batch, not one pass per client: a flood of
        // new connections at the cap would otherwise cost a pass over thousands of connections each.
        var reclaimable: ArraySlice<SocketConnection>?
        for _ in 0..<limit {
            var makingRoom: SocketConnection?
            if shared.openConnections.load(ordering: .relaxed) >= configuration.maxConnections {
                makingRoom = nextReclaimable(&reclaimable, atMost: limit)
                guard makingRoom != nil else {
                    pauseAccepting()
                    return
                }
            }
            var address = SocketAddress()
            let fd = address.withMutableSockAddr {
                clinux_accept4(listenFD, $0, $1, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
            }
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EMFILE, ENFILE:
                    let reason = errno == EMFILE ? "EMFILE" : "ENFILE"
                    // Linux fails `accept4` with EMFILE before it looks at the queue, so the failure says nothing
                    // of whether a client waits: only one that does is worth a connection (closing one for nobody
                    // closed the connection just accepted, its request not yet read, regression probe 6 December).
                    guard Self.hasPendingClient(listenFD) else {
                        pauseAccepting()
                        return
                    }
                    noteDescriptorShortage(reason)
                    // Out of descriptors below the cap (a limit lowered under the running process, or files of
                    // its own): an idle connection makes room as it does at the cap, or the client would wait
                    // for the idle timeout.
                    if let idle = makingRoom ?? nextReclaimable(&reclaimable, atMost: limit) {
                        shared.reclaimedIdleConnections.increment()
                        closeConnection(idle)
                        continue
                    }
                    pauseAccepting()
                case ENOBUFS, ENOMEM: pauseAccepting()
                default: break
                }
                return
            }
            if let makingRoom {
                // Taken only once a client is there to take the slot: the loop's last pass over the listener
                // finds the backlog empty, and must not close a connection for nobody.
                shared.reclaimedIdleConnections.increment()
                closeConnection(makingRoom)
            }
            _ = clinux_set_tcp_nodelay(fd)
            if var bytes = configuration.sendBufferBytes.map(Int32.init(clamping:)) {
                _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, socklen_t(MemoryLayout<Int32>.size))
            }
            let session = ConnectionSession(services: services, remoteAddress: address.hostText, now: now)
            let connection = SocketConnection(fd: fd, session: session, registeredEvents: Self.readInterest)
            guard clinux_epoll_ctl(epoll, EPOLL_CTL_ADD, fd, Self.readInterest, UInt64(fd)) == 0 else {
                close(fd)
                continue
            }
            connections[fd] = connection
            shared.openConnections.add(1, ordering: .relaxed)
            shared.openConnectionsGauge.increment()
        }
    }

    /// The next of `reclaimable` (found on first use) that may be closed for a new client. A candidate whose input
    /// already waits in the kernel is not silent: the loop has not read its request yet (it may have been accepted
    /// in this very batch). Closing it would reset the connection and lose a request the client sent in full.
    private func nextReclaimable(_ reclaimable: inout ArraySlice<SocketConnection>?, atMost limit: Int) -> SocketConnection? {
        if reclaimable == nil { reclaimable = reclaimableConnections(atMost: limit) }
        while let candidate = reclaimable?.popFirst() {
            if connections[candidate.fd] === candidate && !Self.hasUnreadInput(candidate.fd) { return candidate }
        }
        return nil
    }

    /// At the connection cap, the connections to close for new clients, first to close first. First those lingering
    /// after an error's answer whose peer has sent nothing for `lingerQuietBeforeReclaim`: their answer is out and
    /// they will carry no other request, but a client that ignores our FIN would otherwise hold the slot for the
    /// whole linger timeout. Then idle ones (between requests, or opened and silent) by their idle deadline, so the
    /// ones that would be closed soonest anyway. This is how nginx reuses keep-alive connections when it runs out:
    /// otherwise clients that open connections and leave them idle could hold every slot for the idle timeout
    /// while new clients wait in the backlog. A server may close an idle connection at any time (RFC 9112 §9.8), and
    /// one about to time out is the least likely to be in use. A connection with a request or an answer in progress
    /// is never taken, nor one with input waiting (`hasUnreadInput`, checked as each is taken). Only this loop's
    /// connections: its listener is where the waiting clients are.
    private func reclaimableConnections(atMost count: Int) -> ArraySlice<SocketConnection> {
        var lingering: [(deadline: UInt64, connection: SocketConnection)] = []
        var idle: [(deadline: UInt64, connection: SocketConnection)] = []
        for connection in connections.values {
            if connection.isLingering {
                if now &- connection.lingerQuietSince >= Self.lingerQuietBeforeReclaim,
                   let deadline = connection.session.deadlines.linger
                {
                    lingering.append((deadline, connection))
                }
            } else if connection.session.isIdle, let deadline = connection.session.deadlines.idle {
                idle.append((deadline, connection))
            }
        }
        lingering.sort { $0.deadline < $1.deadline }
        idle.sort { $0.deadline < $1.deadline }
        return ArraySlice((lingering + idle).prefix(count).map(\.connection))
    }

    /// Long enough that a client still sending the body of a refused request has sent more by then (a pause that
    /// long mid-upload is rare), so closing does not turn its next segment into a reset that destroys the answer.
    private static let lingerQuietBeforeReclaim: UInt64 = 1_000_000_000

    /// Bytes the kernel holds that the loop has not read (or the peer's FIN: 0 bytes, which is not input).
    /// Whether a connection waits in the listener's accept queue (the loop's own listener: SO_REUSEPORT gives each
    /// loop one).
    private static func hasPendingClient(_ listenFD: Int32) -> Bool {
        var entry = pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0 && entry.revents & Int16(POLLIN) != 0
    }

    private static func hasUnreadInput(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
    }

    /// Counts an accept that failed for want of descriptors, and logs the count at most every
    /// `AcceptFailureLine.intervalSeconds`.
    private func noteDescriptorShortage(_ reason: String) {
        descriptorShortages += 1
        let second = services.date.second
        guard second >= descriptorShortageLoggedAt + AcceptFailureLine.intervalSeconds else { return }
        descriptorShortageLoggedAt = second
        shared.logSink.write(line: AcceptFailureLine(
            failures: descriptorShortages, reason: reason,
            openConnections: shared.openConnections.load(ordering: .relaxed),
            maxConnections: shared.configuration.maxConnections).render())
        descriptorShortages = 0
    }

    /// Leaves pending connections in the kernel's backlog for a moment instead of spinning on a full table.
    private func pauseAccepting() {
        guard listenerArmed, listenFD >= 0 else { return }
        _ = clinux_epoll_ctl(epoll, EPOLL_CTL_MOD, listenFD, 0, Self.listenerToken)
        listenerArmed = false
        acceptResumesAt = now + Self.acceptBackoff
    }

    private func resumeAcceptingIfDue() {
        guard let resumesAt = acceptResumesAt, now >= resumesAt, listenFD >= 0 else { return }
        acceptResumesAt = nil
        listenerArmed = true
        _ = clinux_epoll_ctl(epoll, EPOLL_CTL_MOD, listenFD, UInt32(EPOLLIN.rawValue), Self.listenerToken)
    }

    // MARK: connection I/O

    private func handle(_ events: UInt32, on connection: SocketConnection) {
        if events & UInt32(EPOLLERR.rawValue) != 0 {
            // A reset by the client, most often: one in the middle of a request is counted as a close there is.
            if !connection.isLingering { connection.session.noteIncompleteRequestOnClose() }
            closeConnection(connection)
            return
        }
        var readIgnored = false
        if events & (Self.readInterest | UInt32(EPOLLHUP.rawValue)) != 0 {
            readIgnored = !connection.session.wantsRead
            readable(connection)
            guard connections[connection.fd] === connection else { return }
        }
        if events & Self.writeInterest != 0 {
            flush(connection)
            guard connections[connection.fd] === connection else { return }
        }
        watchHeldResponse(connection, readIgnored: readIgnored)
    }

    // MARK: held responses

    /// Asks to be woken when the connection's held response may go, or sends it at once if it already may.
    /// Ends by updating the connection's epoll interest.
    private func watchHeldResponse(_ connection: SocketConnection, readIgnored: Bool = false) {
        while let gate = connection.session.heldGate {
            let key = ObjectIdentifier(gate)
            if awaiting[key] != nil { break }
            awaiting[key] = connection
            let mailbox = self.mailbox
            if gate.notify({ mailbox.post($0) }) { break }
            // Settled in the meantime: no callback will come.
            awaiting.removeValue(forKey: key)
            connection.session.releaseHeld(now: now)
            flush(connection)
            guard connections[connection.fd] === connection else { return }
        }
        updateInterest(connection, readIgnored: readIgnored)
    }

    /// True when a connection whose answer went now holds the answer of a pipelined request behind it.
    @discardableResult
    private func releaseSettledResponses() -> Bool {
        var heldAgain = false
        for gate in mailbox.take() {
            guard let connection = awaiting.removeValue(forKey: ObjectIdentifier(gate)) else { continue }
            guard connections[connection.fd] === connection else {
                // Closed while its answer was held: the answer is counted and logged, not sent.
                connection.session.noteAbandonedHeld()
                continue
            }
            connection.session.releaseHeld(now: now)
            flush(connection)
            guard connections[connection.fd] === connection else { continue }
            watchHeldResponse(connection)
            if connections[connection.fd] === connection && connection.session.heldGate != nil { heldAgain = true }
        }
        return heldAgain
    }

    private func readable(_ connection: SocketConnection) {
        if connection.isLingering {
            drainLingering(connection)
            return
        }
        // A few reads per wake-up at most: epoll is level-triggered, so the rest waits its turn and one busy
        // connection cannot starve the others on this loop.
        var reads = 0
        while connection.session.wantsRead && reads < 4 {
            reads += 1
            let count = read(connection.fd, readBuffer.baseAddress, Self.readChunk)
            if count > 0 {
                connection.session.receive(UnsafeRawBufferPointer(rebasing: readBuffer[0..<count]), now: now)
                flush(connection)
                guard connections[connection.fd] === connection else { return }
                if count < Self.readChunk { return }
            } else if count == 0 {
                connection.peerClosed = true
                if connection.session.output.isEmpty && connection.session.heldGate == nil {
                    // Nothing queued or held: every complete request buffered was handled.
                    connection.session.noteIncompleteRequestOnClose()
                    closeConnection(connection)
                }
                return
            } else {
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return
                default:
                    connection.session.noteIncompleteRequestOnClose()
                    closeConnection(connection)
                    return
                }
            }
        }
    }

    private func flush(_ connection: SocketConnection) {
        let outcome = connection.session.flush(
            to: connection.fd, now: now, peerClosed: connection.peerClosed, draining: drainDeadline != nil)
        switch outcome {
        case .open, .blocked: break
        case .failed, .close: closeConnection(connection)
        case .linger: startLingering(connection)
        }
    }

    /// Half-close and keep reading for a while, so the peer's unread request bytes do not turn our close into
    /// a reset that destroys the error response before the client reads it.
    private func startLingering(_ connection: SocketConnection) {
        shutdown(connection.fd, Int32(SHUT_WR))
        connection.isLingering = true
        // What the refused request sent before its answer is of no more use: 10,000 connections refused 401 with
        // 64 KiB of body each in hand held 650 MB through their linger (resources probe, 6 December).
        connection.session.parser.discardBufferedBytes()
        connection.lingerQuietSince = now
        connection.session.deadlines.lingerStarted(at: now)
        drainLingering(connection)
    }

    private func drainLingering(_ connection: SocketConnection) {
        while true {
            let count = read(connection.fd, readBuffer.baseAddress, Self.readChunk)
            if count > 0 {
                connection.lingerQuietSince = now
                connection.lingerBytesDrained += count
                if connection.lingerBytesDrained > shared.configuration.lingerMaxBytes {
                    closeConnection(connection)
                    return
                }
            } else if count < 0 && errno == EINTR {
                continue
            } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                return
            } else {
                closeConnection(connection)
                return
            }
        }
    }

    /// Read interest is dropped lazily. While a response is held the session reads nothing, but taking the
    /// interest away and giving it back cost two epoll_ctl calls per request, and most clients send nothing more
    /// until they have their answer. So it stays registered until an event shows the peer did send more
    /// (`readIgnored`): epoll is level-triggered, and that event would otherwise come back on every wait.
    private func updateInterest(_ connection: SocketConnection, readIgnored: Bool = false) {
        var wanted: UInt32 = 0
        if connection.isLingering || (connection.session.wantsRead && !connection.peerClosed) {
            wanted |= Self.readInterest
        } else if !readIgnored && !connection.peerClosed && connection.registeredEvents & Self.readInterest != 0 {
            wanted |= Self.readInterest
        }
        if !connection.isLingering && !connection.session.output.isEmpty { wanted |= Self.writeInterest }
        guard wanted != connection.registeredEvents else { return }
        connection.registeredEvents = wanted
        _ = clinux_epoll_ctl(epoll, EPOLL_CTL_MOD, connection.fd, wanted, UInt64(connection.fd))
    }

    private func closeConnection(_ connection: SocketConnection, abortively: Bool = false) {
        guard connections.removeValue(forKey: connection.fd) != nil else { return }
        // A held answer stays awaited: once its gate settles it is counted and logged (`noteAbandonedHeld`). One
        // that has settled already is noted now. A pipelined request's answer held just before the close (the
        // answer before it went out, and the write found the reset) is not awaited yet: it is made so here, or
        // it was neither logged nor counted (guards probe, 5 December: 115 of 1,398 evaluations under pipelined
        // requests and resets).
        if let gate = connection.session.heldGate {
            let key = ObjectIdentifier(gate)
            if gate.settlement != nil {
                awaiting.removeValue(forKey: key)
                connection.session.noteAbandonedHeld()
            } else if awaiting[key] == nil {
                awaiting[key] = connection
                let mailbox = self.mailbox
                if !gate.notify({ mailbox.post($0) }) {
                    awaiting.removeValue(forKey: key)
                    connection.session.noteAbandonedHeld()
                }
            }
        }
        _ = clinux_epoll_ctl(epoll, EPOLL_CTL_DEL, connection.fd, 0, 0)
        if abortively {
            // SO_LINGER on with a zero timeout: close sends RST and drops the unsent data (socket(7)).
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(connection.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        }
        close(connection.fd)
        shared.openConnections.subtract(1, ordering: .relaxed)
        shared.openConnectionsGauge.decrement()
    }

    // MARK: timers and shutdown

    private func checkTimers() {
        resumeAcceptingIfDue()
        for connection in Array(connections.values) {
            guard let expiry = connection.session.deadlines.expiry(at: now) else { continue }
            switch expiry {
            case .request:
                if connection.peerClosed {
                    connection.session.requestTimedOutAfterPeerClosed()
                } else {
                    shared.requestTimeouts.increment()
                    connection.session.requestTimedOut()
                }
                flush(connection)
                if connections[connection.fd] === connection { updateInterest(connection) }
            case .idle:
                shared.idleTimeouts.increment()
                closeConnection(connection)
            case .linger:
                closeConnection(connection)
            case .write:
                shared.writeTimeouts.increment()
                // A client that half-closed with a request begun and then stopped reading: that request is lost as
                // one its client abandoned (third regression probe: the write deadline's close did not count it).
                if connection.peerClosed { connection.session.noteIncompleteRequestOnClose() }
                // A warning, written with the access log off too: it is about answers, not one request's line.
                shared.logSink.write(line: UndeliveredAnswersLine(
                    lastRequestID: connection.session.lastQueuedRequestID,
                    queuedBytes: connection.session.output.byteCount,
                    writeTimeoutSeconds: Self.seconds(shared.configuration.writeTimeout)).render())
                // A peer that stopped reading would otherwise keep what is still queued (megabytes, with a big
                // answer) in the kernel until it reads or the orphan timeout runs out: a reset discards it now.
                closeConnection(connection, abortively: true)
            }
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private func beginDraining() {
        guard drainDeadline == nil else { return }
        drainDeadline = now + shared.configuration.shutdownGracePeriod.nanoseconds
        if listenFD >= 0 {
            // Connections the kernel completed but nobody accepted yet would be reset when the listener closes,
            // with their requests already sent: they are taken in and served, as the idle ones below are.
            acceptConnections(atMost: .max)
            _ = clinux_epoll_ctl(epoll, EPOLL_CTL_DEL, listenFD, 0, 0)
            close(listenFD)
            listenFD = -1
        }
        acceptResumesAt = nil
        // An idle keep-alive connection is not closed at once: its client may be sending the next request this
        // very moment (under load, within microseconds of reading the last answer), and closing would reset the
        // connection under it. Such a request is answered, with `Connection: close`; the connection is closed
        // once it has been idle for `drainIdleGrace`, or half the shutdown grace if that is shorter (idle
        // connections must not be what makes a short grace run out).
        let configuration = shared.configuration
        let idleEnd = now &+ min(configuration.drainIdleGrace.nanoseconds, configuration.shutdownGracePeriod.nanoseconds / 2)
        for connection in Array(connections.values) where connection.session.isIdle && !connection.isLingering {
            connection.session.deadlines.idleEnds(by: idleEnd)
        }
    }

}
