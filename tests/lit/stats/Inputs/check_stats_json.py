"""Checks that `hoist stats --json` output is self-consistent.

usage: check_stats_json.py STATS.json FILES_READ
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


def main():
    with open(sys.argv[1]) as f:
        stats = json.load(f)
    files = stats["files"]
    assert len(files) == int(sys.argv[2]), f"{len(files)} files read"
    for entry in files:
        assert entry["instructions"] > 0, entry["path"] + ": no instructions counted"
        check_counts(entry, entry["path"])
    total = stats["total"]
    check_counts(total, "total")
    assert total["filesRead"] == len(files)
    for key in ("instructions", "withSemantics", "withoutSemantics", "invalid",
                "generalPurposeWithoutSemantics", "avx512WithoutSemantics"):
        assert total[key] == sum(entry[key] for entry in files), "total " + key


main()
