#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target under Tests/Fuzz/corpus/ (small, real inputs).

Run from anywhere: `python3 Tests/Fuzz/make_seed_corpus.py`. The importer seeds are cut down from the shared fixtures
(../shared/fixtures/gbdt: the first trees of each model, so they stay real files of the two libraries but small);
model-document seeds are made from those by `trust-insights models import` when a built binary is found.
Inputs that once crashed a target live in Tests/Fuzz/corpus/<target>/regression-* and are never rewritten here.
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "Tests", "Fuzz", "corpus")
FIXTURES = os.path.join(os.path.dirname(ROOT), "shared", "fixtures", "gbdt")


def write(target, name, content):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    data = content.encode() if isinstance(content, str) else content
    with open(os.path.join(folder, name), "wb") as handle:
        handle.write(data)


def http():
    crlf = lambda text: text.replace("\n", "\r\n")
    requests = {
        "get-root": "GET / HTTP/1.1\nHost: a\n\n",
        "get-http10": "GET / HTTP/1.0\n\n",
        "head-root": "HEAD / HTTP/1.1\nHost: a\n\n",
        "options-star": "OPTIONS * HTTP/1.1\nHost: a\n\n",
        "get-items-query": "GET /items/a%20b?x=1&y=%41+b&z HTTP/1.1\nHost: example.com:8080\n\n",
        "post-json": 'POST /json HTTP/1.1\nHost: a\nContent-Type: application/json\nContent-Length: 13\n\n{"a": [1, 2]}',
        "post-chunked": "POST /json HTTP/1.1\nHost: a\nContent-Type: application/json\nTransfer-Encoding: chunked\n\n"
        "4;ext=1\n{\"a\"\n5\n: 1}\n\n0\nTrailer: x\n\n",
        "post-small-too-large": "POST /small HTTP/1.1\nHost: a\nContent-Length: 40\n\n0123456789012345678901234567890123456789",
        "pipelined": "GET / HTTP/1.1\nHost: a\n\nGET /items/1 HTTP/1.1\nHost: a\nConnection: close\n\n",
        "expect-continue": "POST /json HTTP/1.1\nHost: a\nContent-Type: application/json\nExpect: 100-continue\n"
        "Content-Length: 2\n\n{}",
        "put-authorization": 'PUT /v1/authorization/acct%2F1 HTTP/1.1\nHost: a\nContent-Length: 20\n\n{"status": "denied"}',
        "request-id": "GET /fail HTTP/1.1\nHost: a\nX-Request-ID: abc-123\nConnection: keep-alive\n\n",
        "smuggling-cl-te": "POST /json HTTP/1.1\nHost: a\nContent-Length: 4\nTransfer-Encoding: chunked\n\n0\n\n",
        "duplicate-host": "GET / HTTP/1.1\nHost: a\nHost: b\n\n",
        "obs-fold": "GET / HTTP/1.1\nHost: a\nX: 1\n 2\n\n",
        "delete-method-not-allowed": "DELETE / HTTP/1.1\nHost: a\n\n",
        "absolute-form": "GET http://a/items/2 HTTP/1.1\nHost: a\n\n",
    }
    for index, (name, text) in enumerate(requests.items()):
        # First byte: options (bit 0 picks small limits), and the seed for cutting the stream into reads.
        write("http-parser", name, bytes([index * 2]) + crlf(text).encode())
        write("http-parser", name + "-small-limits", bytes([index * 2 + 1]) + crlf(text).encode())
    write("http-parser", "bare-lf", b"\x00GET / HTTP/1.1\nHost: a\n\n")


def json_reader():
    documents = {
        "object": '{"a": 1, "b": [true, false, null], "c": {"d": "e"}}',
        "numbers": "[0, -0, 1.5, -2e-3, 1E+10, 123456789012345678901234567890, 1e400, 5e-324]",
        "escapes": r'["\"\\\/\b\f\n\r\t", "\u00e9\u20ac", "\ud83d\ude00", "plain ascii"]',
        "utf8": '{"clé": "välue", "emoji": "😀"}',
        "deep": "[" * 30 + "1" + "]" * 30,
        "too-deep": "[" * 40 + "]" * 40,
        "whitespace": ' \t\n{ "a" : [ 1 , 2 ] }\r\n',
        "string": '"just a string"',
        "empty-containers": '{"a": {}, "b": [], "c": [{}]}',
    }
    for name, text in documents.items():
        write("json-reader", name + ".json", text)


def wire():
    evaluation = {
        "payment": {
            "requestID": "req-1", "operationCategory": "payment",
            "requestedInsights": [
                {"insightType": "isLikelyBeingCoached", "schema": "version1", "modelVersion": "current"},
                {"insightType": "isLikelyBeingCoached", "schema": "version1", "modelVersion": {"specific": "2026.09.1"}}],
            "subject": {"accountRef": "CANARY-account", "deviceRef": "dev-1", "counterpartyRef": "payee-1"},
            "features": {"activeCall": 1, "callDurationSeconds": 640, "screenSharingActive": 0,
                         "sessionDurationSeconds": 95, "timeOfDayBand": 2, "amountBandRelativeToUsual": 3}},
        "account": {
            "operationCategory": "account",
            "requestedInsights": [{"insightType": "isLikelyBeingCoached", "schema": "version1"}],
            "subject": {"accountRef": "a", "deviceRef": "d"},
            "features": {"activeCall": True, "callDurationSeconds": None, "sessionDurationSeconds": 12.5}},
        "unknown-fields-canary": {
            "operationCategory": "payment", "email": "CANARY@example.com",
            "requestedInsights": [{"insightType": "isLikelyBeingCoached", "schema": "version1", "note": "CANARY"}],
            "subject": {"accountRef": "CANARY", "name": "CANARY"},
            "features": {"activeCall": "CANARY", "unknownFeature": 3, "callDurationSeconds": -5, "timeOfDayBand": 99}},
        "wrong-types": {"operationCategory": 7, "requestedInsights": {}, "subject": [], "features": []},
        "other": {"operationCategory": "other", "requestedInsights": [], "features": {}},
    }
    for name, document in evaluation.items():
        write("evaluation-request", name + ".json", json.dumps(document))
    write("evaluation-request", "duplicate-keys.json",
          '{"operationCategory": "payment", "operationCategory": "account", "features": {"a": 1, "a": 2}}')
    write("evaluation-request", "not-json.json", '{"operationCategory": "payment",')

    consumption = {
        "used.json": {"status": "usedIncreasedFriction", "insightIDsUsed": ["0b6f1c2e-5d4a-4c3b-9a8f-7e6d5c4b3a21"]},
        "empty-list.json": {"status": "notUsedNotNeeded", "insightIDsUsed": []},
        "unknown-canary.json": {"status": "CANARY", "insightIDsUsed": ["CANARY"], "extra": "CANARY"},
        "too-many.json": {"status": "usedEvaluationOnly", "insightIDsUsed": [str(i) for i in range(10)]},
    }
    for name, document in consumption.items():
        write("consumption-request", name, json.dumps(document))
    write("consumption-request", "array.json", "[1, 2]")

    labels = {"items": [
        {"insightID": "0b6f1c2e-5d4a-4c3b-9a8f-7e6d5c4b3a21", "label": "confirmedFraud", "fraudType": "techSupport",
         "occurredOn": "2026-11-20", "amountBand": "1kTo10k"},
        {"insightID": "9a021c2e-5d4a-4c3b-9a8f-7e6d5c4b3a21", "label": "confirmedLegitimate", "fraudType": "other",
         "occurredOn": "2026-11-19", "amountBand": None},
        {"insightID": "CANARY", "label": "CANARY", "fraudType": "romance", "occurredOn": "2027-02-30",
         "email": "CANARY@example.com"},
        {"insightID": 5, "label": True, "occurredOn": "20261120"},
        "not an object"]}
    write("label-batch", "mixed.json", json.dumps(labels))
    write("label-batch", "one.json", json.dumps({"items": labels["items"][:1]}))
    write("label-batch", "empty.json", '{"items": []}')
    write("label-batch", "extra-top-level.json", '{"items": [{}], "partner": "CANARY"}')

    for name, text in {
        "denied.json": '{"status": "denied"}',
        "authorized.json": '{"status": "authorized"}',
        "unknown-canary.json": '{"status": "CANARY", "reason": "CANARY"}',
        "wrong-type.json": '{"status": 1}',
        "empty.json": "{}",
        "string.json": '"denied"',
    }.items():
        write("authorization-request", name, text)


def xgboost():
    with open(os.path.join(FIXTURES, "xgb_200x6.json")) as handle:
        model = json.load(handle)
    booster = model["learner"]["gradient_booster"]["model"]
    for count in (1, 3):
        cut = json.loads(json.dumps(model))
        trees = cut["learner"]["gradient_booster"]["model"]
        trees["trees"] = booster["trees"][:count]
        trees["tree_info"] = booster["tree_info"][:count]
        trees["iteration_indptr"] = list(range(count + 1))
        trees["gbtree_model_param"]["num_trees"] = str(count)
        write("xgboost-import", "fixture-first-%d-trees.json" % count, json.dumps(cut, separators=(",", ":")))
    stump = json.loads(json.dumps(model))
    first = booster["trees"][0]
    tree = {key: (value[:3] if isinstance(value, list) else value) for key, value in first.items()}
    tree["left_children"], tree["right_children"] = [1, -1, -1], [2, -1, -1]
    tree["parents"] = [2147483647, 0, 0]
    tree["tree_param"] = dict(first["tree_param"], num_nodes="3")
    stump["learner"]["gradient_booster"]["model"]["trees"] = [tree]
    stump["learner"]["gradient_booster"]["model"]["tree_info"] = [0]
    # The counts beside the trees are the trees' own, or the import refuses the file before the part a seed is for.
    stump["learner"]["gradient_booster"]["model"]["iteration_indptr"] = [0, 1]
    stump["learner"]["gradient_booster"]["model"]["gbtree_model_param"]["num_trees"] = "1"
    stump["learner"]["learner_model_param"]["base_score"] = "[5E-1]"
    write("xgboost-import", "stump-bracketed-base-score.json", json.dumps(stump, separators=(",", ":")))
    # XGBoost writes the bare words Infinity and -Infinity (as Python's json does) where values reach float32's limit.
    for name, threshold in (("stump-infinite-threshold.json", float("inf")), ("stump-negative-infinite-threshold.json", float("-inf"))):
        infinite = json.loads(json.dumps(stump))
        infinite["learner"]["gradient_booster"]["model"]["trees"][0]["split_conditions"][0] = threshold
        write("xgboost-import", name, json.dumps(infinite, separators=(",", ":")))
    stump["learner"]["objective"]["name"] = "reg:squarederror"
    write("xgboost-import", "unsupported-objective.json", json.dumps(stump))
    write("xgboost-import", "ubjson-like.bin", b"{L\x00\x00\x00\x00\x00\x00\x00\x07learner{")


def lightgbm():
    with open(os.path.join(FIXTURES, "lgb_200x63.txt")) as handle:
        text = handle.read()
    head, _, rest = text.partition("\nTree=")
    blocks = ("Tree=" + rest).split("\n\n\nTree=")
    trailer = "\n\nend of trees\n"
    for count in (1, 2):
        chosen = "\n\n\nTree=".join(blocks[:count])
        chosen = chosen if chosen.startswith("Tree=") else "Tree=" + chosen
        chosen = chosen.split("\nend of trees")[0]
        header = head.replace("tree_sizes=", "tree_sizes_dropped=")
        write("lightgbm-import", "fixture-first-%d-trees.txt" % count, header + "\n" + chosen + trailer)
    write("lightgbm-import", "single-leaf.txt",
          "tree\nversion=v4\nnum_class=1\nnum_tree_per_iteration=1\nmax_feature_idx=1\nobjective=binary sigmoid:1\n"
          "feature_names=a b\n\nTree=0\nnum_leaves=1\nleaf_value=-2.5\nshrinkage=1\n\nend of trees\n")
    write("lightgbm-import", "two-leaves-nan-missing.txt",
          "tree\nversion=v4\nnum_class=1\nnum_tree_per_iteration=1\nmax_feature_idx=0\nobjective=binary sigmoid:1\n\n"
          "Tree=0\nnum_leaves=2\nnum_cat=0\nsplit_feature=0\nthreshold=1.5\ndecision_type=10\nleft_child=-1\n"
          "right_child=-2\nleaf_value=-0.25 0.75\nleaf_weight=3 4\ninternal_weight=7\n\nend of trees\n")
    write("lightgbm-import", "two-leaves-sigmoid.txt",
          "tree\nversion=v4\nnum_class=1\nnum_tree_per_iteration=1\nmax_feature_idx=0\nobjective=binary sigmoid:2.5\n\n"
          "Tree=0\nnum_leaves=2\nnum_cat=0\nsplit_feature=0\nthreshold=1.5\ndecision_type=10\nleft_child=-1\n"
          "right_child=-2\nleaf_value=-0.25 0.75\nleaf_weight=3 4\ninternal_weight=7\n\nend of trees\n")
    write("lightgbm-import", "multiclass.txt",
          "tree\nversion=v4\nnum_class=3\nnum_tree_per_iteration=3\nmax_feature_idx=0\nobjective=multiclass num_class:3\n")


def model_document():
    binary = None
    for candidate in (".build/release/trust-insights", ".build/debug/trust-insights"):
        if os.path.exists(os.path.join(ROOT, candidate)):
            binary = os.path.join(ROOT, candidate)
            break
    if binary is None:
        print("no trust-insights binary built: model-document seeds not refreshed", file=sys.stderr)
        return
    sources = [("xgboost", "xgboost-import", "fixture-first-3-trees.json", None),
               ("xgboost", "xgboost-import", "stump-bracketed-base-score.json", None),
               ("lightgbm", "lightgbm-import", "fixture-first-2-trees.txt", None),
               ("lightgbm", "lightgbm-import", "two-leaves-nan-missing.txt", None),
               ("lightgbm", "lightgbm-import", "two-leaves-sigmoid.txt", None)]
    for kind, target, name, features in sources:
        out = os.path.join(CORPUS, "model-document", kind + "-" + name.rsplit(".", 1)[0] + ".json")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        subprocess.run([binary, "models", "import", "--from", kind, os.path.join(CORPUS, target, name),
                        "--insight", "isLikelyBeingCoached", "--category", "payment", "--version", "1.0.0",
                        "--out", out], check=True, stdout=subprocess.DEVNULL)


if __name__ == "__main__":
    http()
    json_reader()
    wire()
    xgboost()
    lightgbm()
    model_document()
