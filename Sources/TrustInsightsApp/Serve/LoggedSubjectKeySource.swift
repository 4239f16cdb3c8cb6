import InsightCore
import InsightCrypto
import Synchronization

/// The store's subject keys, with a log line for a tenant that has none. A key is only ever created with its tenant
/// row, so a missing row means a damaged or hand-edited database; every evaluation, authorization request and
/// idempotent label upload of that tenant then answers 503, which alone told the operator nothing. Said once per
/// tenant and process, not once per request.
final class LoggedSubjectKeySource: SubjectKeySource {
    private let source: any SubjectKeySource
    private let log: EventLog
    private let databasePath: String
    private let reported = Mutex<Set<TenantID>>([])

    init(_ source: any SubjectKeySource, log: EventLog, databasePath: String) {
        self.source = source
        self.log = log
        self.databasePath = databasePath
    }

    func subjectKey(for tenant: TenantID) throws -> HMACKey? {
        let key = try source.subjectKey(for: tenant)
        if key == nil, reported.withLock({ $0.insert(tenant).inserted }) {
            log.error("tenant has no subject key", [
                ("tenant", .text(tenant.rawValue)),
                ("database", .text(databasePath)),
                ("effect", "the tenant's evaluations, authorization requests and label uploads with an Idempotency-Key answer 503: its keys exist but its row in the tenant table does not"),
                ("action", "restore the database from a backup; a new subject key would not match the hashed subject refs already kept"),
            ])
        }
        return key
    }
}
