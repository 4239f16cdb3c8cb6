#!/usr/bin/env python3
"""Writes N evaluations (two insights each) for tenant `bench` straight into a stopped service's database, and the
IDs to two files, so the feedback benchmark reports on evaluations without first paying for creating them.

The rows have the layout of schema migration 12, as the service writes them: one `evaluation` row per evaluation,
its insights in its `insights` column (a JSON array of `[position, insight_type, model_version, outcome, error]`),
and insight IDs derived from the evaluation's (a UUIDv7 whose last hex digit is 0; the insight at position p has
the same ID with the last digit p + 1), so nothing goes into `insight_identifier` (`insight` is a view).

usage: seed.py DATABASE KEY_ID COUNT EVALUATION_IDS_FILE INSIGHT_IDS_FILE
"""
import json
import os
import sqlite3
import sys
import time

INSIGHTS_PER_EVALUATION = 2


def evaluation_uuid7(milliseconds: int) -> str:
    """A version-7 UUID of `milliseconds`, its last hex digit 0, as Identifier.evaluation(at:random:) makes."""
    raw = bytearray(milliseconds.to_bytes(6, "big") + os.urandom(10))
    raw[6] = (raw[6] & 0x0F) | 0x70
    raw[8] = (raw[8] & 0x3F) | 0x80
    raw[15] &= 0xF0
    h = raw.hex()
    return f"{h[0:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def insight_id(evaluation_id: str, position: int) -> str:
    """Identifier.insight(ofEvaluation:position:): the evaluation's ID, its last hex digit position + 1."""
    return evaluation_id[:35] + "12345678"[position]


def main() -> None:
    database, key_id, count, evaluation_file, insight_file = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
    now = int(time.time() * 1000)
    connection = sqlite3.connect(database)
    evaluations, insight_ids = [], []
    for index in range(count):
        created = now - (count - index)
        evaluation_id = evaluation_uuid7(created)
        insights = [[position, "isLikelyBeingCoached", "2026.11.1", "medium", None]
                    for position in range(INSIGHTS_PER_EVALUATION)]
        evaluations.append((evaluation_id, "bench", "production", key_id, "payment", created,
                            json.dumps(insights, separators=(",", ":"))))
        insight_ids.extend(insight_id(evaluation_id, position) for position in range(INSIGHTS_PER_EVALUATION))
    with connection:
        connection.executemany(
            "INSERT INTO evaluation (evaluation_id, tenant_id, environment, key_id, category, created_at, insights) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)", evaluations)
        # The service's writer counts its own insights into the metrics aggregates as it commits them (no trigger
        # since migration 7); rows written behind its back are counted from the schema's own definition.
        connection.execute("DELETE FROM metrics_daily")
        connection.execute("INSERT INTO metrics_daily SELECT * FROM metrics_daily_recomputed")
    connection.close()
    with open(evaluation_file, "w") as out:
        out.writelines(row[0] + "\n" for row in evaluations)
    with open(insight_file, "w") as out:
        out.writelines(identifier + "\n" for identifier in insight_ids)


if __name__ == "__main__":
    main()
