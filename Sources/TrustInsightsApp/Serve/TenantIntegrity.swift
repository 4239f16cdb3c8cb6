import InsightStore

/// What start-up says of a database whose tenants were damaged by hand: the requests of a tenant without its row
/// answer 503, and with no key at all every request answers 401, and neither is otherwise visible until a client
/// complains (regression probe, 7 December: a folder with its tenant and key tables emptied started without a word).
enum TenantIntegrity {
    static func report(_ store: SQLiteStore, log: EventLog) throws {
        let integrity = try store.tenantIntegrity()
        if !integrity.tenantsWithoutRow.isEmpty {
            log.error("tenants without a subject key", EventLog.listed("tenants", integrity.tenantsWithoutRow) + [
                ("database", .text(store.path)),
                ("effect", "these tenants have keys or people's choices but no row in the tenant table, so no subject key: their requests answer 503, and a new key for them is refused"),
                ("action", "restore the database from a backup; a new subject key would not match the subject refs kept hashed under the lost one"),
            ])
        }
        if integrity.keys == 0 {
            log.warning("no API keys", [
                ("database", .text(store.path)),
                ("effect", "every request that needs a key answers 401"),
                ("action", "create keys with 'trust-insights keys create'; if the database held keys, restore it from a backup"),
            ])
        }
    }
}
