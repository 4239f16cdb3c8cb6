#!/usr/bin/env python3
"""WAL frames per commit for evaluation-shaped rows, by table layout and batch size, with the system's SQLite.

Answers one question: would rebuilding the evaluation table as a rowid table (rowid + a unique index on the ID)
write fewer pages per group commit than WITHOUT ROWID with time-ordered (UUIDv7) keys? Rows have the evaluation
table's columns and sizes; synchronous=NORMAL and no automatic checkpoint, as the service runs.

    python3 Benchmarks/evaluation/wal-layout.py
"""
import os
import sqlite3
import tempfile
import uuid

COLUMNS = "id, tenant, environment, key_id, category, created_at, account, device, counterparty, high"
LAYOUTS = {
    "without rowid": "CREATE TABLE e (id TEXT PRIMARY KEY, tenant TEXT, environment TEXT, key_id TEXT, category TEXT,"
                     " created_at INT, account TEXT, device TEXT, counterparty TEXT, high INT) STRICT, WITHOUT ROWID",
    "rowid + unique": "CREATE TABLE e (rid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, tenant TEXT, environment TEXT,"
                      " key_id TEXT, category TEXT, created_at INT, account TEXT, device TEXT, counterparty TEXT,"
                      " high INT) STRICT",
}


def uuid7(milliseconds):
    random = os.urandom(10)
    raw = milliseconds.to_bytes(6, "big") + bytes([0x70 | random[0] & 0x0F, random[1], 0x80 | random[2] & 0x3F]) + random[3:]
    return str(uuid.UUID(bytes=raw))


def row(milliseconds):
    return (uuid7(milliseconds), "bench", "production", "k0123456789abcdef", "payment", milliseconds,
            os.urandom(16).hex(), os.urandom(16).hex(), os.urandom(16).hex(), 0)


def frames_per_commit(layout, rows_per_commit, commits=300, warm_rows=20_000):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "e.db")
        db = sqlite3.connect(path, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA wal_autocheckpoint=0")
        db.execute(LAYOUTS[layout])
        insert = f"INSERT INTO e ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        now = 1_795_000_000_000
        db.execute("BEGIN")
        for _ in range(warm_rows):
            now += 1
            db.execute(insert, row(now))
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        for _ in range(commits):
            now += 1
            db.execute("BEGIN")
            for _ in range(rows_per_commit):
                db.execute(insert, row(now))
            db.execute("COMMIT")
        page_size = db.execute("PRAGMA page_size").fetchone()[0]
        frames = (os.path.getsize(path + "-wal") - 32) / (page_size + 24)
        db.close()
        return frames / commits


for rows in (16, 32):
    for layout in LAYOUTS:
        print(f"{rows} rows per commit, {layout}: {frames_per_commit(layout, rows):.2f} frames per commit")
