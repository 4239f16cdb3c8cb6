#!/usr/bin/env python3
"""Keeps openapi.yaml's per-category request schemas in step with config/features/*.json.

The evaluation request's `subject` and `features` differ per operation category, so openapi.yaml spells them out
as `EvaluationRequest.<category>`, `Subject.<category>` and `Features.<category>` plus one `Feature.<name>` schema
per client feature. This script derives those schemas from the catalogue:

  scripts/openapi_features.py --print   the YAML to paste under components/schemas
  scripts/openapi_features.py --check   exit 1 (naming each difference) when openapi.yaml disagrees

Needs PyYAML (installed with schemathesis).
"""
import glob
import json
import os
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REF_KINDS = ["accountRef", "deviceRef", "counterpartyRef"]


def feature_schema(feature):
    kind = feature["type"]
    required = feature.get("required", False)
    if kind == "flag":
        values = [True, False, 0, 1]
        schema = {"enum": values + ([] if required else [None])}
    elif kind == "band":
        codes = [band["code"] for band in feature["bands"]]
        schema = {"enum": codes + ([] if required else [None])}
    else:
        schema = {
            "type": ("integer" if kind == "count" else "number") if required else [("integer" if kind == "count" else "number"), "null"],
            "minimum": feature["min"],
            "maximum": feature["max"],
        }
    schema["description"] = feature["description"]
    return schema


def derived_schemas():
    schemas = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "config", "features", "*.json"))):
        catalogue = json.load(open(path))
        category = catalogue["category"]
        client = [f for f in catalogue["features"] if f.get("source", "client") == "client"]
        for feature in client:
            schema = feature_schema(feature)
            name = "Feature." + feature["name"]
            if name in schemas and schemas[name] != schema:
                name = "Feature." + category + "." + feature["name"]
            schemas[name] = schema
        refs = catalogue["subject"]
        subject_properties = {}
        for kind in REF_KINDS:
            if kind in refs["required"]:
                subject_properties[kind] = {"$ref": "#/components/schemas/SubjectRef"}
            elif kind in refs["optional"]:
                subject_properties[kind] = {"$ref": "#/components/schemas/OptionalSubjectRef"}
            else:
                subject_properties[kind] = {"type": "null", "description": f"Not used by {category}; only null is accepted."}
        schemas["Subject." + category] = {
            "type": "object",
            "additionalProperties": False,
            "required": [kind for kind in REF_KINDS if kind in refs["required"]],
            "properties": subject_properties,
        }
        properties = {}
        for feature in client:
            name = "Feature." + feature["name"]
            if schemas.get(name) != feature_schema(feature):
                name = "Feature." + category + "." + feature["name"]
            properties[feature["name"]] = {"$ref": "#/components/schemas/" + name}
        schemas["Features." + category] = {
            "type": "object",
            "description": f"The client features of config/features/{category}.json (catalogue {catalogue['version']}). "
            "Computed (velocity) features must not be sent.",
            "additionalProperties": False,
            "required": [f["name"] for f in client if f.get("required")],
            "properties": properties,
        }
        schemas["EvaluationRequest." + category] = {
            "type": "object",
            "additionalProperties": False,
            "required": ["operationCategory", "subject", "features"],
            # `requestedEvaluations`, the public Swift API's name, is accepted for `requestedInsights`: one of them.
            "oneOf": [{"required": ["requestedInsights"]}, {"required": ["requestedEvaluations"]}],
            "properties": {
                "requestID": {"$ref": "#/components/schemas/RequestID"},
                "operationCategory": {"const": category},
                "requestedInsights": {"$ref": "#/components/schemas/RequestedInsights"},
                "requestedEvaluations": {"$ref": "#/components/schemas/RequestedInsights"},
                "subject": {"$ref": "#/components/schemas/Subject." + category},
                "features": {"$ref": "#/components/schemas/Features." + category},
            },
        }
    return schemas


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "--check"
    schemas = derived_schemas()
    if mode == "--print":
        # Shared feature schemas first, then each category's request, subject and features together.
        order = sorted(schemas, key=lambda name: (not name.startswith("Feature."), name.split(".")[-1] if not name.startswith("Feature.") else ""))
        schemas = {name: schemas[name] for name in order}
        sys.stdout.write(yaml.safe_dump(schemas, sort_keys=False, width=118, allow_unicode=True, default_flow_style=None))
        return 0
    document = yaml.safe_load(open(os.path.join(ROOT, "docs", "openapi.yaml")))
    present = document["components"]["schemas"]
    problems = []
    for name, schema in schemas.items():
        if name not in present:
            problems.append(f"components/schemas/{name} is missing")
        elif present[name] != schema:
            problems.append(f"components/schemas/{name} differs from config/features")
    for name in present:
        if name.split(".")[0] in ("Feature", "Features", "Subject", "EvaluationRequest") and "." in name and name not in schemas:
            problems.append(f"components/schemas/{name} is not in config/features")
    categories = sorted(n.split(".", 1)[1] for n in schemas if n.startswith("EvaluationRequest."))
    listed = sorted(r["$ref"].rsplit(".", 1)[1] for r in present["EvaluationRequest"]["oneOf"])
    if listed != categories:
        problems.append(f"EvaluationRequest.oneOf lists {listed}, the catalogue has {categories}")
    for problem in problems:
        print("openapi.yaml: " + problem, file=sys.stderr)
    if not problems:
        print(f"openapi.yaml: feature schemas match config/features ({len(categories)} categories)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
