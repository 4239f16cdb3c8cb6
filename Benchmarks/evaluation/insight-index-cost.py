#!/usr/bin/env python3
"""What the index of insights by evaluation cost each group commit, with the system's SQLite.

Historical: this measures the schema before migration 12 (schema versions 10-11 and the version 9 it compares
with), when insights were rows of their own `insight` table. Migration 12 replaced that table with a JSON column of
the evaluation's row and a read-only `insight` view, so the measurement no longer applies to the current schema.
The script opens no service database: it creates the old tables itself in a temporary folder, which is why it still
runs. Comparing against the service's own tables needs a database of schema version 11 (built with a release from
before migration 12); a data folder of the current release (schema 12) cannot stand in for it.

Inserts evaluation-shaped rows (one evaluation and two insights each, UUIDv7 identifiers sharing the evaluation's
millisecond, about 17 evaluations per millisecond as at 17k/s) in batches, as the writer thread does, with the
service's pragmas (WAL, synchronous=NORMAL, no automatic checkpoint, 64 MiB cache; a checkpoint after each
commit counts its frames and is left out of the time), with and without the
`insight_by_evaluation_tenant` index that schema migration 10 dropped. Prints the process CPU per evaluation and
the WAL frames per evaluation. Python's own per-statement cost is in both columns alike; the difference is SQLite's.

    python3 Benchmarks/evaluation/insight-index-cost.py [evaluations=60000]
"""
import os
import secrets
import sqlite3
import sys
import tempfile
import time
import uuid


def uuid7(milliseconds):
    raw = bytearray(milliseconds.to_bytes(6, "big") + secrets.token_bytes(10))
    raw[6] = (raw[6] & 0x0F) | 0x70
    raw[8] = (raw[8] & 0x3F) | 0x80
    return str(uuid.UUID(bytes=bytes(raw)))


def rows(total):
    start = int(time.time() * 1000)
    for number in range(total):
        milliseconds = start + number // 17
        evaluation = uuid7(milliseconds)
        yield ((evaluation, "bench", "production", "k_0123456789abcdef", "payment", milliseconds,
                secrets.token_hex(16), secrets.token_hex(16), secrets.token_hex(16), 0),
               [(uuid7(milliseconds), evaluation, "bench", position, "isLikelyBeingCoached", "2026.11.1", "medium", None)
                for position in range(2)])


def run(batch, total, with_index):
    folder = tempfile.mkdtemp()
    connection = sqlite3.connect(folder + "/db", isolation_level=None)
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "wal_autocheckpoint=0", "cache_size=-65536"):
        connection.execute("PRAGMA " + pragma)
    connection.executescript("""
        CREATE TABLE evaluation (evaluation_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL, environment TEXT NOT NULL,
            key_id TEXT NOT NULL, category TEXT NOT NULL, created_at INTEGER NOT NULL, account_hash TEXT,
            device_hash TEXT, counterparty_hash TEXT, high_outcome INTEGER NOT NULL DEFAULT 0) STRICT, WITHOUT ROWID;
        CREATE TABLE insight (insight_id TEXT PRIMARY KEY, evaluation_id TEXT NOT NULL, tenant_id TEXT NOT NULL,
            position INTEGER NOT NULL, insight_type TEXT NOT NULL, model_version TEXT, outcome TEXT, error TEXT)
            STRICT, WITHOUT ROWID;
        """)
    if with_index:
        connection.execute("CREATE INDEX insight_by_evaluation_tenant ON insight (evaluation_id, tenant_id)")
    prepared = list(rows(total))
    frames = 0
    checkpointing = 0.0
    started = time.process_time()
    for first in range(0, total, batch):
        connection.execute("BEGIN IMMEDIATE")
        for evaluation, insights in prepared[first:first + batch]:
            connection.execute("INSERT INTO evaluation VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", evaluation)
            connection.executemany("INSERT INTO insight VALUES (?, ?, ?, ?, ?, ?, ?, ?)", insights)
        connection.execute("COMMIT")
        # The frames of each commit, read from a checkpoint after it (which also starts the WAL over, as the
        # service's checkpointer does on its own thread); the checkpoint's time is left out of the writer's.
        before = time.process_time()
        _, logged, _ = connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        frames += logged
        checkpointing += time.process_time() - before
    elapsed = time.process_time() - started - checkpointing
    connection.close()
    os.system(f"rm -rf '{folder}'")
    return elapsed / total * 1e6, frames / total


def main():
    argument = sys.argv[1] if len(sys.argv) > 1 else "60000"
    if not argument.isdigit() or int(argument) < 1:
        reason = ("it opens no database: it measures the insight table of schema versions 9-11 (before migration 12) "
                  "in tables it creates itself" if os.path.exists(argument) else "expected a number of evaluations")
        sys.exit(f"insight-index-cost.py: {argument!r}: {reason}\nusage: python3 {sys.argv[0]} [evaluations=60000]")
    total = int(argument)
    print("batch  with index: us/eval  frames/eval   without: us/eval  frames/eval")
    for batch in (16, 64, 256):
        with_cost = run(batch, total, True)
        without_cost = run(batch, total, False)
        print(f"{batch:5d}  {with_cost[0]:19.1f}  {with_cost[1]:11.2f}   {without_cost[0]:16.1f}  {without_cost[1]:11.2f}")


if __name__ == "__main__":
    main()
