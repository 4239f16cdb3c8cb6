import Synchronization
import InsightCore
import InsightCrypto

extension SQLiteStore: APIKeyStore, KeyIssuingStore {
    /// The tenant's key for hashing subject refs; nil for an unknown tenant.
    public func subjectKey(for tenant: TenantID) throws -> HMACKey? {
        try read { connection in
            let statement = try connection.statement("SELECT subject_key FROM tenant WHERE tenant_id = ?").bind(1, tenant.rawValue)
            guard try statement.step() else { return nil }
            return HMACKey(bytes: statement.blob(0))
        }
    }

    /// Creates the records' tenants that do not exist yet (each with a fresh subject HMAC key) and inserts the keys,
    /// in one transaction.
    ///
    /// A tenant without its row but with keys or people's choices still kept is refused
    /// (`StoreError.tenantWithoutSubjectKey`): a fresh subject key would not match the subject hashes kept under the
    /// lost one, and every opt-out of that tenant would silently stop counting (regression probe, 7 December).
    public func insertKeys(_ records: [APIKeyRecord], now: Int64) throws {
        try write { connection in
            for tenant in Set(records.map(\.tenant)) {
                let known = try connection.statement("SELECT 1 FROM tenant WHERE tenant_id = ?").bind(1, tenant.rawValue)
                if try !known.step() {
                    let kept = try connection.statement("""
                        SELECT EXISTS (SELECT 1 FROM api_key WHERE tenant_id = ?1)
                            OR EXISTS (SELECT 1 FROM authorization_state WHERE tenant_id = ?1)
                        """).bind(1, tenant.rawValue)
                    if try kept.step(), kept.int(0) != 0 { throw StoreError.tenantWithoutSubjectKey(tenant: tenant.rawValue) }
                }
                try connection.statement("INSERT OR IGNORE INTO tenant (tenant_id, subject_key, created_at) VALUES (?, ?, ?)")
                    .bind(1, tenant.rawValue).bind(2, blob: SecureRandom.bytes(32)).bind(3, now).run()
            }
            for record in records {
                try connection.statement("""
                    INSERT INTO api_key (key_id, tenant_id, role, environment, secret_hash, status, rate, burst, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                    .bind(1, record.keyID).bind(2, record.tenant.rawValue).bind(3, record.role.rawValue)
                    .bind(4, record.environment.rawValue).bind(5, blob: record.secretHash).bind(6, record.status.rawValue)
                    .bind(7, record.rate).bind(8, record.burst.map(Int64.init)).bind(9, record.createdAt).bind(10, record.createdAt)
                    .run()
            }
            try Self.bumpKeysGeneration(connection)
        }
    }

    /// Sets a key's status; throws `StoreError.notFound` for an unknown key ID.
    public func setKeyStatus(keyID: String, to status: KeyStatus, now: Int64) throws {
        try write { connection in
            try connection.statement("UPDATE api_key SET status = ?, updated_at = ? WHERE key_id = ?")
                .bind(1, status.rawValue).bind(2, now).bind(3, keyID).run()
            guard connection.changes == 1 else { throw StoreError.notFound }
            try Self.bumpKeysGeneration(connection)
        }
    }

    /// Suspends a key only while it is still active, and says whether it did. The server decides to suspend from its
    /// own view of the keys, which a `keys revoke` from the command line may have just changed: an unconditional
    /// write turned that revoke into a suspension, which `keys reinstate` then undid (race probe, 6 December).
    public func suspendKeyIfActive(keyID: String, now: Int64) throws -> Bool {
        let suspended = Atomic<Bool>(false)
        try write { connection in
            try connection.statement("UPDATE api_key SET status = ?, updated_at = ? WHERE key_id = ? AND status = ?")
                .bind(1, KeyStatus.suspended.rawValue).bind(2, now).bind(3, keyID).bind(4, KeyStatus.active.rawValue).run()
            guard connection.changes == 1 else { return }
            try Self.bumpKeysGeneration(connection)
            suspended.store(true, ordering: .relaxed)
        }
        return suspended.load(ordering: .relaxed)
    }

    static func bumpKeysGeneration(_ connection: SQLiteConnection) throws {
        try connection.execute("UPDATE generation SET value = value + 1 WHERE name = 'keys'")
    }
}

/// The key table and the tenants, read alike from the serving store and from a folder opened only to read.
extension DatabaseReading {
    public func allKeys() throws -> [APIKeyRecord] {
        try keyTable().keys
    }

    /// One statement, so one read snapshot: the generation is the one the keys were read at.
    public func keyTable() throws -> (generation: Int64, keys: [APIKeyRecord]) {
        try read { connection in
            let statement = try connection.statement("""
                SELECT g.value, k.key_id, k.tenant_id, k.role, k.environment, k.secret_hash, k.status, k.created_at, k.rate, k.burst
                FROM generation AS g LEFT JOIN api_key AS k ON 1
                WHERE g.name = 'keys' ORDER BY k.created_at, k.key_id
                """)
            var generation: Int64 = 0
            var keys: [APIKeyRecord] = []
            while try statement.step() {
                generation = statement.int64(0)
                guard !statement.isNull(1), let tenant = TenantID(statement.string(2)),
                      let role = KeyRole(rawValue: statement.string(3)),
                      let environment = DeploymentEnvironment(rawValue: statement.string(4)),
                      let status = KeyStatus(rawValue: statement.string(6))
                else { continue }
                keys.append(APIKeyRecord(
                    keyID: statement.string(1), tenant: tenant, role: role, environment: environment,
                    secretHash: statement.blob(5), status: status, createdAt: statement.int64(7),
                    rate: statement.isNull(8) ? nil : statement.double(8),
                    burst: statement.isNull(9) ? nil : statement.int(9)))
            }
            return (generation, keys)
        }
    }

    public func keysGeneration() throws -> Int64 {
        try read { connection in
            let statement = try connection.statement("SELECT value FROM generation WHERE name = 'keys'")
            guard try statement.step() else { return 0 }
            return statement.int64(0)
        }
    }

    /// Whether the database holds nothing of any tenant: no tenant, key, person's choice, evaluation, report, label
    /// or metrics row. A tenant table emptied by hand beside keys or opt-outs is no empty folder: a first start there
    /// printed demo secrets, then stored none, and a new demo tenant took over an old one's metrics rows (regression
    /// probes, 7 December).
    public func holdsNoTenantData() throws -> Bool {
        try read { connection in
            let tables = ["tenant", "api_key", "authorization_state", "evaluation", "insight", "consumption", "label", "metrics_daily"]
            let statement = try connection.statement(
                "SELECT " + tables.map { "NOT EXISTS (SELECT 1 FROM \($0))" }.joined(separator: " AND "))
            return try statement.step() && statement.int(0) != 0
        }
    }

    /// The tenants that have keys or people's choices but no row, so no subject key (a damaged or hand-edited
    /// database), and whether any key is left at all.
    public func tenantIntegrity() throws -> (tenantsWithoutRow: [String], keys: Int) {
        try read { connection in
            let orphans = try connection.statement("""
                SELECT tenant_id FROM api_key UNION SELECT DISTINCT tenant_id FROM authorization_state
                EXCEPT SELECT tenant_id FROM tenant ORDER BY 1
                """)
            var tenants: [String] = []
            while try orphans.step() { tenants.append(orphans.string(0)) }
            let keys = try connection.statement("SELECT count(*) FROM api_key")
            _ = try keys.step()
            return (tenants, keys.int(0))
        }
    }

    public func tenants() throws -> [TenantID] {
        try read { connection in
            let statement = try connection.statement("SELECT tenant_id FROM tenant ORDER BY tenant_id")
            var result: [TenantID] = []
            while try statement.step() { if let id = TenantID(statement.string(0)) { result.append(id) } }
            return result
        }
    }
}

extension SQLiteStatement {
    @discardableResult
    func bind(_ index: Int32, _ value: Double?) -> SQLiteStatement {
        if let value { return bind(index, value) }
        return bind(index, nil as Int64?)
    }
}
