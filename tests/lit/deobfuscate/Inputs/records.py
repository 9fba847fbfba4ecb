# Prints the `deobfuscation` records of a `hoist lift --diagnostics` JSON, one key per line;
# with --by-name sorted by function name (`hoist lift` and `-j N` list them in different orders).
import json
import sys

records = json.load(open(sys.argv[-1]))["deobfuscation"]
if "--by-name" in sys.argv:
    records.sort(key=lambda record: record["function"])
print(json.dumps(records, indent=1, sort_keys=True))
