#!/usr/bin/env python3
"""Validates every shipped scenario (and the benchmarks' scenarios) against
docs/schema/scenario.schema.json and every golden trace against
docs/schema/trace.schema.json."""
import glob
import json
import sys

import jsonschema

root = sys.argv[1] if len(sys.argv) > 1 else "."
scenario_schema = json.load(open(f"{root}/docs/schema/scenario.schema.json"))
trace_schema = json.load(open(f"{root}/docs/schema/trace.schema.json"))
checked = 0
scenarios = glob.glob(f"{root}/scenarios/**/*.json", recursive=True) + glob.glob(f"{root}/bench/scenarios/*.json")
for path in sorted(scenarios):
    if "/networks/" in path or path.endswith("malformed-json.json"):
        continue
    jsonschema.validate(json.load(open(path)), scenario_schema)
    checked += 1
for path in sorted(glob.glob(f"{root}/tests/golden/*.trace.json")):
    jsonschema.validate(json.load(open(path)), trace_schema)
    checked += 1
print(f"{checked} files valid")
