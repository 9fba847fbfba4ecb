"""Checks that `hoist stats --json` output is self-consistent.

usage: check_stats_json.py STATS.json|- FILES_READ
"""
import json
import sys


def check_counts(counts, where):
    total = counts["instructions"]
    assert counts["with_semantics"] + counts["without_semantics"] == total, where
    unsupported = counts["unsupported"]
    assert sum(u["count"] for u in unsupported) == counts["without_semantics"], where
    assert (counts["general_purpose_without_semantics"] + counts["avx512_without_semantics"]
            <= counts["without_semantics"]), where
    assert [u["count"] for u in unsupported] == sorted(
        (u["count"] for u in unsupported), reverse=True), where + ": not sorted by count"
    if total:
        expected = 100.0 * counts["with_semantics"] / total
        assert abs(counts["percent_with_semantics"] - expected) < 1e-6, where
    else:
        assert counts["percent_with_semantics"] is None, where


def check_imports(imports, where):
    assert imports["declared_names"] <= imports["names"], where
    undeclared = imports["undeclared"]
    assert len(undeclared) == imports["names"] - imports["declared_names"], where
    assert (sum(u["call_sites"] for u in undeclared)
            == imports["call_sites"] - imports["declared_call_sites"]), where
    assert [u["call_sites"] for u in undeclared] == sorted(
        (u["call_sites"] for u in undeclared), reverse=True), where + ": not sorted by calls"


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
    assert total["imports"]["call_sites"] == sum(e["imports"]["call_sites"] for e in files)
    assert total["imports"]["names"] <= sum(e["imports"]["names"] for e in files)
    assert total["files_read"] == len(files)
    for key in ("instructions", "with_semantics", "without_semantics", "invalid",
                "general_purpose_without_semantics", "avx512_without_semantics"):
        assert total[key] == sum(entry[key] for entry in files), "total " + key


main()
