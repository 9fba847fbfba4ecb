"""scripts/corpus-dask.py on a LocalCluster: a dozen binaries, a malformed one and one that
hits its time limit; every record written, the bad ones reported once, a rerun skipping what is
done and a run cut short resuming. Paths come from tests/python/CMakeLists.txt."""
import importlib.util
import json
import os
import subprocess
import sys

import pytest

DRIVER = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "corpus-dask.py")
TEST_DATA = os.environ["HOIST_TEST_DATA"]
E2E = os.environ["HOIST_E2E_DIR"]
HOIST_CLI = os.environ["HOIST_CLI"]
SLOW = "/usr/bin/bash"


def run_driver(binaries, out, *extra):
    run = subprocess.run([sys.executable, DRIVER, str(binaries), str(out), "--workers", "2",
                          "--timeout", "120", *extra],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    return run.stderr


def records(out):
    with open(out) as lines:
        return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    directory = tmp_path_factory.mktemp("corpus")
    malformed = directory / "malformed.elf"
    malformed.write_bytes(b"\x7fELF\x02\x01\x01" + bytes(range(200)))
    good = [os.environ["HOIST_EXAMPLE_ELF"], "/usr/bin/true",
            *(os.path.join(TEST_DATA, name) for name in (
                "elf_executable", "elf_pie", "elf_pie_ibt", "libhoist_test.so", "hoist_test.dll",
                "pe_program.exe")),
            os.path.join(E2E, "calls_O0.elf"), os.path.join(E2E, "calls_O2.elf")]
    if os.environ.get("HOIST_EXAMPLE_PE"):
        good.append(os.environ["HOIST_EXAMPLE_PE"])
    binaries = directory / "binaries"
    # The slow one gets a limit of its own: a whole-program lift of bash takes far longer.
    binaries.write_text("".join(f"{path}\n" for path in good) + f"{malformed}\n{SLOW}\t1\n")
    out = directory / "records.jsonl"
    log = run_driver(binaries, out)
    return {"good": good, "malformed": str(malformed), "binaries": binaries, "out": out,
            "log": log}


def test_every_binary_has_one_record(corpus):
    written = records(corpus["out"])
    assert sorted(r["binary"] for r in written) == sorted(
        corpus["good"] + [corpus["malformed"], SLOW])
    for record in written:
        if record["binary"] in corpus["good"]:
            assert record["status"] == "ok", record
            assert record["cfg"]["functions"] > 0 and record["cfg"]["blocks"] > 0
            assert record["lift"]["instructions_lifted"] > 0
            assert 0 <= record["brighten_share"] <= 1
            assert set(record["diagnostics"]) == {"notes", "warnings", "errors"}
            assert record["seconds"] > 0 and record["peak_memory_mib"] > 0


def test_malformed_file_is_reported_with_the_cli_message(corpus):
    record = next(r for r in records(corpus["out"]) if r["binary"] == corpus["malformed"])
    assert record["status"] == "error"
    cli = subprocess.run([HOIST_CLI, "info", corpus["malformed"]], capture_output=True, text=True)
    assert cli.stderr.strip() == "hoist: error: " + record["error"]


def test_time_limit_ends_the_binary_not_the_run(corpus):
    record = next(r for r in records(corpus["out"]) if r["binary"] == SLOW)
    assert record["status"] == "timeout"
    assert record["seconds"] < 30


def test_rerun_skips_what_is_done(corpus):
    before = corpus["out"].read_text()
    log = run_driver(corpus["binaries"], corpus["out"])
    assert "0 to do" in log
    assert corpus["out"].read_text() == before


def test_a_run_cut_short_resumes(corpus, tmp_path):
    out = tmp_path / "records.jsonl"
    lines = corpus["out"].read_text().splitlines(keepends=True)
    # A crash after five records, in the middle of writing the sixth.
    out.write_text("".join(lines[:5]) + lines[5][:20])
    log = run_driver(corpus["binaries"], out)
    assert f"{len(lines) - 5} to do" in log
    assert sorted(r["binary"] for r in records(out)) == sorted(
        r["binary"] for r in records(corpus["out"]))


def test_memory_limit_ends_the_process_of_the_binary():
    spec = importlib.util.spec_from_file_location("corpus_dask", DRIVER)
    driver = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(driver)
    record = driver.lift_one("/usr/bin/true", 60, 32, 1, True)
    assert record["status"] == "crashed" and record["error"].startswith("exit status")
