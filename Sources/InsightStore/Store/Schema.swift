/// The database schema, one migration per version. Never edit a shipped migration: add the next one.
///
/// Nothing here holds a feature value, a raw subject ref, an IP address or a user agent: subjects appear only as
/// keyed hashes (HMAC with the tenant's key), and keys only as SHA-256 of their secret.
enum Schema {
    static let migrator = Migrator([
        .init(version: 1, description: "tenants, keys, evaluations, insights, authorization state", sql: """
            CREATE TABLE tenant (
                tenant_id TEXT PRIMARY KEY,
                subject_key BLOB NOT NULL,
                created_at INTEGER NOT NULL
            ) STRICT;
            CREATE TABLE api_key (
                key_id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL REFERENCES tenant (tenant_id),
                role TEXT NOT NULL CHECK (role IN ('client', 'partner', 'analyst')),
                environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'production')),
                secret_hash BLOB NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('active', 'revoked', 'suspended')),
                rate REAL,
                burst INTEGER,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL
            ) STRICT;
            CREATE TABLE generation (
                name TEXT PRIMARY KEY,
                value INTEGER NOT NULL
            ) STRICT;
            INSERT INTO generation (name, value) VALUES ('keys', 0);
            CREATE TABLE evaluation (
                evaluation_id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL,
                environment TEXT NOT NULL,
                key_id TEXT NOT NULL,
                category TEXT NOT NULL,
                created_at INTEGER NOT NULL,
                account_hash TEXT,
                device_hash TEXT,
                counterparty_hash TEXT,
                high_outcome INTEGER NOT NULL DEFAULT 0
            ) STRICT, WITHOUT ROWID;
            CREATE INDEX evaluation_by_time ON evaluation (created_at);
            CREATE TABLE insight (
                insight_id TEXT PRIMARY KEY,
                evaluation_id TEXT NOT NULL,
                tenant_id TEXT NOT NULL,
                position INTEGER NOT NULL,
                insight_type TEXT NOT NULL,
                model_version TEXT,
                outcome TEXT,
                error TEXT
            ) STRICT, WITHOUT ROWID;
            CREATE INDEX insight_by_evaluation ON insight (evaluation_id);
            CREATE TABLE authorization_state (
                tenant_id TEXT NOT NULL,
                subject_hash TEXT NOT NULL,
                status TEXT NOT NULL,
                pending_status TEXT,
                pending_effective_at INTEGER,
                updated_at INTEGER NOT NULL,
                PRIMARY KEY (tenant_id, subject_hash)
            ) STRICT, WITHOUT ROWID;
            """),
        .init(version: 2, description: "consumption reports, label history, idempotency records", sql: """
            CREATE INDEX insight_by_evaluation_tenant ON insight (evaluation_id, tenant_id);
            CREATE TABLE consumption (
                evaluation_id TEXT PRIMARY KEY,
                tenant_id TEXT NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('usedReducedFriction', 'usedUnchangedFriction',
                    'usedIncreasedFriction', 'notUsedNotNeeded', 'notUsedError', 'usedEvaluationOnly')),
                insight_ids TEXT NOT NULL,
                received_at INTEGER NOT NULL,
                late INTEGER NOT NULL CHECK (late IN (0, 1))
            ) STRICT, WITHOUT ROWID;
            CREATE INDEX consumption_by_tenant_time ON consumption (tenant_id, received_at);
            CREATE TABLE label (
                label_id INTEGER PRIMARY KEY,
                insight_id TEXT NOT NULL,
                tenant_id TEXT NOT NULL,
                label TEXT NOT NULL CHECK (label IN ('confirmedFraud', 'confirmedLegitimate')),
                fraud_type TEXT NOT NULL,
                occurred_on TEXT NOT NULL,
                amount_band TEXT,
                received_at INTEGER NOT NULL
            ) STRICT;
            CREATE INDEX label_by_insight ON label (insight_id, label_id);
            CREATE VIEW label_latest AS
                SELECT * FROM label AS newest
                WHERE newest.label_id = (SELECT max(label_id) FROM label AS other WHERE other.insight_id = newest.insight_id);
            CREATE TABLE idempotency (
                tenant_id TEXT NOT NULL,
                idempotency_key TEXT NOT NULL,
                body_sha256 BLOB NOT NULL,
                response BLOB NOT NULL,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (tenant_id, idempotency_key)
            ) STRICT, WITHOUT ROWID;
            """),
        // insight_by_evaluation_tenant answers every lookup insight_by_evaluation did; keeping both cost every
        // evaluation an extra index page in each group commit.
        .init(version: 3, description: "drop the redundant insight_by_evaluation index", sql: """
            DROP INDEX insight_by_evaluation;
            """),
        .init(version: 4, description: "label metrics: exact daily aggregates kept by triggers", sql: MetricsSchema.aggregates),
        // The label trigger ran two joined upserts per label row and halved the label intake's throughput; the
        // label writer now counts each batch set-based (SQLiteLabelTransaction+Aggregates.swift). The tables stay
        // as migration 4 left them: exact for every label written so far.
        .init(version: 5, description: "label metrics: labels counted per batch by the writer, not per row by a trigger", sql: """
            DROP TRIGGER metrics_count_label;
            """),
        // Every label batch deletes the idempotency records past their retention; by time, that is an index seek.
        .init(version: 6, description: "idempotency records expire: an index by creation time", sql: """
            CREATE INDEX idempotency_by_time ON idempotency (created_at);
            """),
        // The insight trigger looked the evaluation up and upserted metrics_daily once per insight, on the writer
        // thread every evaluation waits for; the writer now folds a batch's insights into one upsert per key
        // (EvaluationCountTally). The table stays as the trigger left it: exact for every insight written so far.
        .init(version: 7, description: "label metrics: evaluated insights counted per batch by the writer, not per row by a trigger", sql: """
            DROP TRIGGER metrics_count_insight;
            """),
        // Feedback stays inside the key's environment; an Idempotency-Key is the tenant's per environment. A record
        // kept from before cannot say which environment made it, so it answers retries in both, as it did (records
        // live a day, so the copy is small).
        .init(version: 8, description: "idempotency records per environment", sql: """
            CREATE TABLE idempotency_per_environment (
                tenant_id TEXT NOT NULL,
                environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'production')),
                idempotency_key TEXT NOT NULL,
                body_sha256 BLOB NOT NULL,
                response BLOB NOT NULL,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (tenant_id, environment, idempotency_key)
            ) STRICT, WITHOUT ROWID;
            INSERT INTO idempotency_per_environment
                SELECT i.tenant_id, e.name, i.idempotency_key, i.body_sha256, i.response, i.created_at
                FROM idempotency AS i, (SELECT 'sandbox' AS name UNION ALL SELECT 'production') AS e;
            DROP TABLE idempotency;
            ALTER TABLE idempotency_per_environment RENAME TO idempotency;
            CREATE INDEX idempotency_by_time ON idempotency (created_at);
            """),
        // Evaluation identifiers are UUIDv7: their first 48 bits are the creation time in milliseconds, the same
        // clock reading as created_at, so the primary key is already in time order and a range of it answers
        // "evaluations since T" (Identifier.lowerBound). The index by time was a fourth B-tree that every
        // evaluation inserted into, about a sixth of the WAL pages of each group commit.
        .init(version: 9, description: "evaluations by time through their time-ordered primary key, not an index", sql: """
            DROP INDEX evaluation_by_time;
            """),
        // The evaluator makes an evaluation's insight identifiers with the same clock reading as its own, so "the
        // insights of evaluation E" is a range of the insight primary key: the identifiers of E's millisecond. The
        // index by evaluation was the last B-tree besides the two tables that every evaluation inserted into (two
        // entries each), and consumption reports, far rarer than evaluations, were its only reader. Rows that the
        // range cannot find (identifiers from before they were time-ordered, or not sharing their evaluation's
        // time) keep a partial index, which rows written since stay out of. The first 13 characters of a UUID hold
        // its 48 time bits and the 15th its version; the consumption lookup repeats the condition word for word,
        // which is what lets SQLite use the partial index.
        .init(version: 10, description: "the insights of an evaluation through their time-ordered primary key", sql: """
            CREATE INDEX insight_by_evaluation_outside_its_time ON insight (evaluation_id)
                WHERE substr(insight_id, 1, 13) <> substr(evaluation_id, 1, 13) OR substr(insight_id, 15, 1) <> '7';
            DROP INDEX insight_by_evaluation_tenant;
            """),
        // Migration 10 left the consumption trigger finding an evaluation's insights by `evaluation_id`, which no
        // index covers any more: every report scanned every insight (0.6-0.85 s a report at 1.5 million insights).
        .init(version: 11, description: "the consumption trigger finds an evaluation's insights as the consumption route does",
              sql: "DROP TRIGGER metrics_move_consumption;\n" + MetricsSchema.movingConsumptionByTimeRange),
        // Every evaluation wrote three rows into two B-trees (its own and one per insight), and those inserts and the
        // pages they dirtied were half of what a group commit cost. The insights now live in their evaluation's row,
        // and their identifiers are derived from the evaluation's (Identifier), so the row is found from either.
        // `insight` becomes a view with the table's columns, so the readers that scan it or ask for the insights of
        // one evaluation read on unchanged; lookups by insight identifier go through InsightRows.resolved. Insights
        // written before keep their identifiers, which no evaluation's derives: each is stored in its element and
        // mapped to its evaluation in `insight_identifier`, as is any insight recorded with an identifier of its own.
        .init(version: 12, description: "insights in their evaluation's row; insight identifiers derived from it", sql: InsightRows.migration),
        // A WITHOUT ROWID table keeps whole rows in its one B-tree, the interior pages included, so each stored answer
        // (a batch's, up to about a megabyte) spilled into overflow pages that every search walked: with 600 large
        // answers stored, a lookup of a new key read about 600 pages, 4.6 ms against 12 us in a rowid table, whose
        // primary key is an index of the key columns alone (resources probe, 6 December: keyed label batches fell
        // from 4,644/s to 270/s, and the loops' other requests with them).
        .init(version: 13, description: "idempotency records in a rowid table, their keys in an index of their own", sql: """
            CREATE TABLE idempotency_with_rowid (
                tenant_id TEXT NOT NULL,
                environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'production')),
                idempotency_key TEXT NOT NULL,
                body_sha256 BLOB NOT NULL,
                response BLOB NOT NULL,
                created_at INTEGER NOT NULL,
                PRIMARY KEY (tenant_id, environment, idempotency_key)
            ) STRICT;
            INSERT INTO idempotency_with_rowid
                SELECT tenant_id, environment, idempotency_key, body_sha256, response, created_at FROM idempotency;
            DROP TABLE idempotency;
            ALTER TABLE idempotency_with_rowid RENAME TO idempotency;
            CREATE INDEX idempotency_by_time ON idempotency (created_at);
            """),
        // One row per partner key and UTC day it stored labels on: a batch reads its key's today and tomorrow,
        // bumps the day or days it counts against, and drops every key's rows older than yesterday or more than a
        // day ahead, so the table holds the keys of three days at most.
        .init(version: 14, description: "label storage quota: bytes stored per key per UTC day", sql: """
            CREATE TABLE label_storage_use (
                key_id TEXT NOT NULL,
                day INTEGER NOT NULL,
                bytes INTEGER NOT NULL CHECK (bytes >= 0),
                PRIMARY KEY (key_id, day)
            ) STRICT, WITHOUT ROWID;
            """),
    ])
}
