#!/usr/bin/env python3
"""Writes N evaluations (two insights each) for tenant `bench` straight into a stopped service's database, and the
IDs to two files, so the feedback benchmark reports on evaluations without first paying for creating them.

usage: seed.py DATABASE KEY_ID COUNT EVALUATION_IDS_FILE INSIGHT_IDS_FILE
"""
import os
import sqlite3
import sys
import time


def uuid7(milliseconds: int) -> str:
    raw = bytearray(milliseconds.to_bytes(6, "big") + os.urandom(10))
    raw[6] = (raw[6] & 0x0F) | 0x70
    raw[8] = (raw[8] & 0x3F) | 0x80
    h = raw.hex()
    return f"{h[0:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def main() -> None:
    database, key_id, count, evaluation_file, insight_file = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
    now = int(time.time() * 1000)
    connection = sqlite3.connect(database)
    evaluations, insights = [], []
    for index in range(count):
        created = now - (count - index)
        evaluation_id = uuid7(created)
        evaluations.append((evaluation_id, "bench", "production", key_id, "payment", created))
        for position in range(2):
            insights.append((uuid7(created), evaluation_id, "bench", position, "isLikelyBeingCoached", "2026.11.1", "medium"))
    with connection:
        connection.executemany(
            "INSERT INTO evaluation (evaluation_id, tenant_id, environment, key_id, category, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            evaluations)
        connection.executemany(
            "INSERT INTO insight (insight_id, evaluation_id, tenant_id, position, insight_type, model_version, outcome) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)", insights)
        # The service's writer counts its own insights into the metrics aggregates as it commits them (no trigger
        # since migration 7); rows written behind its back are counted from the schema's own definition.
        connection.execute("DELETE FROM metrics_daily")
        connection.execute("INSERT INTO metrics_daily SELECT * FROM metrics_daily_recomputed")
    connection.close()
    with open(evaluation_file, "w") as out:
        out.writelines(row[0] + "\n" for row in evaluations)
    with open(insight_file, "w") as out:
        out.writelines(row[0] + "\n" for row in insights)


if __name__ == "__main__":
    main()
