"""Checks that `hoist stats --json` output is self-consistent.

usage: check_stats_json.py STATS.json|- FILES_READ
"""
import json
import sys


def check_counts(counts, where):
    total = counts["instructions"]
    assert counts["withSemantics"] + counts["withoutSemantics"] == total, where
    unsupported = counts["unsupported"]
    assert sum(u["count"] for u in unsupported) == counts["withoutSemantics"], where
    assert (counts["generalPurposeWithoutSemantics"] + counts["avx512WithoutSemantics"]
            <= counts["withoutSemantics"]), where
    assert [u["count"] for u in unsupported] == sorted(
        (u["count"] for u in unsupported), reverse=True), where + ": not sorted by count"
    if total:
        expected = 100.0 * counts["withSemantics"] / total
        assert abs(counts["percentWithSemantics"] - expected) < 1e-6, where
    else:
        assert counts["percentWithSemantics"] is None, where


def check_imports(imports, where):
    assert imports["declaredNames"] <= imports["names"], where
    undeclared = imports["undeclared"]
    assert len(undeclared) == imports["names"] - imports["declaredNames"], where
    assert (sum(u["callSites"] for u in undeclared)
            == imports["callSites"] - imports["declaredCallSites"]), where
    assert [u["callSites"] for u in undeclared] == sorted(
        (u["callSites"] for u in undeclared), reverse=True), where + ": not sorted by calls"


def main():
    if sys.argv[1] == "-":
        stats = json.load(sys.stdin)
    else:
        with open(sys.argv[1]) as f:
            stats = json.load(f)
    files = stats["files"]
    assert len(files) == int(sys.argv[2]), f"{len(files)} files read"
    for entry in files:
        assert entry["instructions"] > 0, entry["path"] + ": no instructions counted"
        check_counts(entry, entry["path"])
        check_imports(entry["imports"], entry["path"])
    total = stats["total"]
    check_counts(total, "total")
    check_imports(total["imports"], "total")
    # Names are merged over the files, call sites summed.
    assert total["imports"]["callSites"] == sum(e["imports"]["callSites"] for e in files)
    assert total["imports"]["names"] <= sum(e["imports"]["names"] for e in files)
    assert total["filesRead"] == len(files)
    for key in ("instructions", "withSemantics", "withoutSemantics", "invalid",
                "generalPurposeWithoutSemantics", "avx512WithoutSemantics"):
        assert total[key] == sum(entry[key] for entry in files), "total " + key


main()
