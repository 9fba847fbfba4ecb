# Prints the `deobfuscation` records of a `hoist lift --diagnostics` JSON, one key per line;
# with --by-name sorted by function name (`hoist lift` and `-j N` list them in different orders);
# with --diagnostics the diagnostics instead, one "severity code: message" per line.
import json
import sys

report = json.load(open(sys.argv[-1]))
if "--diagnostics" in sys.argv:
    for d in report["diagnostics"]:
        print(f'{d["severity"]} {d["code"]}: {d["message"]}')
    sys.exit(0)
records = report["deobfuscation"]
if "--by-name" in sys.argv:
    records.sort(key=lambda record: record["function"])
print(json.dumps(records, indent=1, sort_keys=True))
