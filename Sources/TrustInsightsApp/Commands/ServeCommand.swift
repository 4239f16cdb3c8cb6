import Dispatch
import HTTPServer
import InsightCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `trust-insights serve`: starts the service and runs until SIGTERM or SIGINT, then drains and exits 0 (1 when the
/// grace period ran out before every in-flight request was answered).
enum ServeCommand {
    static var spec: CommandSpec {
        var spec = CommandSpec(
            name: "serve",
            abstract: "Start the HTTP service.",
            discussion: """
                Settings come from config/default.json (or --config), then TRUST_INSIGHTS_* variables, then these flags.
                An invalid setting stops start-up with exit status 2. SIGTERM or SIGINT drains in-flight requests and
                exits 0 (1 if the grace period ran out with requests still in flight); SIGHUP reloads the signing keys
                and the models manifest.
                """,
            options: ConfigurationLoader.options
        ) { arguments, environment in
            do {
                return try serve(arguments, environment)
            } catch {
                // Logs are JSON lines: why start-up failed is one too, for the pipeline that reads them, beside the
                // `Error:` line the command line prints for a person.
                let failure = error as? CommandLineError
                EventLog(sink: EnvironmentErrorSink(environment: environment)).error(
                    "start-up failed", [("reason", .text(failure?.message ?? "\(error)")), ("exitStatus", .number(Int(failure?.exitStatus ?? 1)))])
                throw error
            }
        }
        spec.standardOutputIsInformational = true
        return spec
    }

    /// Standard error as the command line's environment reaches it (a test captures it there). A log line is JSON,
    /// which escapes what must be: written as it is, since the command line's own escapes (`\u{85}`) are no JSON.
    private struct EnvironmentErrorSink: LogSink {
        let environment: CommandEnvironment
        func write(line: String) { environment.standardError(line + "\n") }
    }

    private static func serve(_ arguments: ParsedArguments, _ environment: CommandEnvironment) throws -> Int32 {
        // Armed before any thread exists or any socket listens, so no signal is lost or kills us mid-start.
        let signals = SignalWaiter()
        // Said before the settings are checked: a misspelt variable is what explains the failure it causes (a
        // folder "not set" that the operator believes set), and was logged only once the service was up
        // (observability probe, 6 December).
        let earlyLog = EventLog(sink: EnvironmentErrorSink(environment: environment))
        for name in ConfigurationLoader.unknownVariables(in: environment.variables) {
            earlyLog.warning("unknown environment variable ignored", [("name", .text(name))])
        }
        var readAtStartOnly = ConfigurationFilesStamp()
        let configuration = try ConfigurationLoader.load(arguments: arguments, variables: environment.variables) { path in
            readAtStartOnly.note(path)
            return try FileSystem.readFile(atPath: path)
        }
        for file in configuration.filesReadAtStartOnly {
            readAtStartOnly.note(file)
        }
        let stamp = readAtStartOnly
        let runtime = try ServiceRuntime(
            configuration: configuration, logSink: StandardErrorLogSink(), environment: environment,
            settingSource: { ConfigurationLoader.source(of: $0, arguments: arguments, variables: environment.variables) })
        let stopRequested = DispatchSemaphore(value: 0)
        // When the first SIGTERM or SIGINT came: a second one does not hurry the drain, and says so with its end
        // (operations probe, 7 December: two identical `draining` lines, then the whole grace period).
        let drainStarted = Mutex<Int64?>(nil)
        signals.start { number in
            switch number {
            case SIGHUP:
                runtime.reload()
                let changed = stamp.changedFiles()
                if !changed.isEmpty {
                    runtime.log.warning("configuration changed since start, not reloaded", [
                        ("files", .list(changed)),
                        ("action", "SIGHUP reloads the signing keys and the models only: restart the service to apply these files"),
                    ])
                }
            default:
                let name: EventLog.Value = number == SIGTERM ? "SIGTERM" : "SIGINT"
                let now = Clock.nowMilliseconds()
                let first = drainStarted.withLock { started -> Int64? in
                    defer { if started == nil { started = now } }
                    return started
                }
                if let first {
                    let ends = first + Int64((configuration.shutdownGraceSeconds * 1000).rounded())
                    runtime.log.info("signal", [
                        ("signal", name), ("action", "already draining"),
                        ("drainEndsBy", .text(Timestamp.iso8601(milliseconds: ends))),
                        ("note", "requests still in flight then are cut off; SIGKILL stops at once, cutting them off now"),
                    ])
                    return
                }
                runtime.log.info("signal", [("signal", name), ("action", "draining")])
                runtime.cancelStartUp()
                stopRequested.signal()
            }
        }
        do {
            // Printed once the port is bound, before the velocity replay: scripts read the port from this line.
            try runtime.start {
                environment.print("trust-insights listening on http://\(configuration.urlHost):\(runtime.server.boundPort)")
                if let client = runtime.demoClientSecret {
                    FirstStart.printExample(client: client, host: configuration.host, port: runtime.server.boundPort, environment: environment)
                }
                // Standard output only informs here (the log is on standard error), so a failure to write it is said
                // now, once, and a clean stop still exits 0 (`standardOutputIsInformational`).
                if let fault = environment.standardOutputFault() {
                    runtime.log.warning("standard output not writable", [
                        ("reason", .text(fault)), ("lost", "the listening line\(runtime.demoClientSecret != nil ? " and the demo keys" : "")"),
                    ])
                }
            }
        } catch {
            // The demo keys were printed once and will not be again: say they still hold.
            if runtime.demoClientSecret != nil {
                environment.print("The service did not start; the demo keys above stay valid for the next start (--port chooses another port).")
            }
            throw error
        }
        stopRequested.wait()
        return runtime.stop() ? 0 : 1
    }
}
