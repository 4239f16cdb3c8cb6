#!/usr/bin/env python3
"""Turns `trust-insights simulate` CSVs into evaluation request bodies for the soak mix, one JSON per line.

    bodies.py CONFIG_DIR OUT CATEGORY=CSV[:WEIGHT] ...

Each row becomes one request of its category: the client features of the row (computed velocity features and
empty fields left out, as an app would), subject refs drawn from pools (so velocity state grows as in real
traffic: some accounts and payees recur), and for payment half of the requests also ask for the prior model
version. Rows of the categories are interleaved by weight, deterministically.

SOAK_ACCOUNTS (default 20000) and SOAK_PAYEES (default 3000) size the account and payee pools. A few hundred
accounts fill every velocity ring to its cap within the warm-up, so that memory growth after it is not velocity
state (a leak check; the shipped 24 h windows otherwise keep growing for hours under soak traffic).
"""
import csv
import json
import os
import random
import sys


def main():
    config_dir, out, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
    rng = random.Random(20261121)
    accounts = int(os.environ.get("SOAK_ACCOUNTS", "20000"))
    payees = int(os.environ.get("SOAK_PAYEES", "3000"))
    streams = []
    for spec in specs:
        category, _, rest = spec.partition("=")
        path, _, weight = rest.partition(":")
        with open(os.path.join(config_dir, "features", category + ".json")) as handle:
            catalogue = json.load(handle)
        client = {f["name"] for f in catalogue["features"] if f.get("source", "client") == "client"}
        subject = catalogue["subject"]
        with open(path, newline="") as handle:
            rows = list(csv.DictReader(handle))
        streams.append((category, client, subject, rows, float(weight or 1)))

    total_weight = sum(stream[4] for stream in streams)
    count = sum(len(stream[3]) for stream in streams)
    positions = [0] * len(streams)
    with open(out, "w") as handle:
        for index in range(count):
            pick = rng.random() * total_weight
            chosen = 0
            for chosen, stream in enumerate(streams):
                pick -= stream[4]
                if pick <= 0:
                    break
            category, client, subject, rows, _ = streams[chosen]
            row = rows[positions[chosen] % len(rows)]
            positions[chosen] += 1
            features = {}
            for name, text in row.items():
                if name in client and text != "":
                    value = float(text)
                    features[name] = int(value) if value.is_integer() else value
            refs = {}
            pools = {"accountRef": ("acct", accounts), "deviceRef": ("dev", 26000), "counterpartyRef": ("payee", payees)}
            for kind in subject["required"] + [k for k in subject.get("optional", []) if rng.random() < 0.5]:
                prefix, size = pools[kind]
                refs[kind] = "%s-%d" % (prefix, rng.randrange(size))
            insights = [{"insightType": "isLikelyBeingCoached", "schema": "version1", "modelVersion": "current"}]
            if category == "payment" and rng.random() < 0.5:
                insights.append({"insightType": "isLikelyBeingCoached", "schema": "version1",
                                 "modelVersion": {"specific": "2026.09.1"}})
            body = {"requestID": "soak-%d" % index, "operationCategory": category, "requestedInsights": insights,
                    "subject": refs, "features": features}
            handle.write(json.dumps(body, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
