"""The Python module (docs/API.md, "Python") on real binaries: the example ELF and PE this
build makes, a shared library and a DLL of the image tests, /usr/bin/true, and malformed
files. Paths come from the environment ctest sets (tests/python/CMakeLists.txt)."""
import os
import re
import subprocess
import sys
import threading

import pytest

import hoist

EXAMPLE_ELF = os.environ["HOIST_EXAMPLE_ELF"]
EXAMPLE_PE = os.environ.get("HOIST_EXAMPLE_PE", "")
TEST_DATA = os.environ["HOIST_TEST_DATA"]
HOIST_CLI = os.environ["HOIST_CLI"]


def cli_error(*arguments):
    """The message `hoist` prints after 'hoist: error: ' for the same request."""
    run = subprocess.run([HOIST_CLI, *arguments], capture_output=True, text=True)
    assert run.returncode == 1
    return run.stderr.strip().removeprefix("hoist: error: ")


def test_version_names_hoist_llvm_and_zydis():
    assert re.fullmatch(r"\d+\.\d+\.\d+", hoist.__version__)
    assert hoist.llvm_version.startswith("19.")
    assert hoist.zydis_version.startswith("4.")


def test_elf_sections_symbols_and_imports():
    binary = hoist.load(EXAMPLE_ELF)
    assert binary.format == "elf"
    text = next(s for s in binary.sections if s.name == ".text")
    assert text.executable and not text.writable and text.size > 0
    symbols = {s.name: s for s in binary.symbols}
    assert symbols["add3"].kind == "function"
    assert text.address <= symbols["main"].address < text.address + text.size
    assert {"printf", "strtol"} <= {i.name for i in binary.imports}
    assert all(i.slot for i in binary.imports)


def test_shared_library_exports():
    library = hoist.load(os.path.join(TEST_DATA, "libhoist_test.so"))
    assert library.kind == "ELF shared object"
    exported = {e.name: e.address for e in library.exports}
    assert exported and all(exported.values())


@pytest.mark.skipif(not EXAMPLE_PE, reason="no mingw-w64 cross compiler: no example PE")
def test_pe_imports_name_their_dll():
    binary = hoist.load(EXAMPLE_PE)
    assert binary.format == "pe"
    assert binary.kind.startswith("PE32+")
    libraries = {i.library.lower() for i in binary.imports}
    assert any(library.endswith(".dll") for library in libraries)


def test_dll_exports():
    dll = hoist.load(os.path.join(TEST_DATA, "hoist_test.dll"))
    assert dll.format == "pe"
    assert dll.exports


def test_cfg_of_main_by_default():
    binary = hoist.load(EXAMPLE_ELF)
    main = next(s.address for s in binary.symbols if s.name == "main")
    cfg = binary.cfg()
    function = cfg.function(main)
    assert function is not None and function.name == "main"
    assert function.blocks and all(b.start < b.end for b in function.blocks)
    starts = {b.start for b in function.blocks}
    assert all(s in starts for b in function.blocks for s in b.successors)
    # The functions main calls are listed as calls; discovery explores only main, as
    # `hoist cfg` does without --all.
    add3 = next(s.address for s in binary.symbols if s.name == "add3")
    assert add3 in {c.target for c in function.calls}
    assert [f.entry for f in cfg.functions] == [main]
    assert "printf" in {c.import_ for c in function.calls}


def test_cfg_by_name_address_and_all():
    binary = hoist.load(EXAMPLE_ELF)
    classify = next(s.address for s in binary.symbols if s.name == "classify")
    by_name = binary.cfg(functions=["classify"])
    by_address = binary.cfg(functions=classify)
    assert [f.entry for f in by_name.functions] == [f.entry for f in by_address.functions]
    everything = binary.cfg(all=True)
    assert len(everything.functions) > len(by_name.functions)
    assert all("symbol" in f.reasons or f.reasons for f in everything.functions)


def test_cfg_lists_parts_of_functions(tmp_path):
    """gcc -O2 moves work's unlikely path into work.cold: a part of work, not a function."""
    source = os.path.join(os.path.dirname(__file__), "..", "lit", "cfg", "Inputs", "cold-parts.c")
    exe = str(tmp_path / "cold-parts")
    subprocess.run(["gcc", "-O2", "-o", exe, source], check=True)
    binary = hoist.load(exe)
    symbols = {s.name: s.address for s in binary.symbols}
    cfg = binary.cfg(all=True)
    assert symbols["work.cold"] not in {f.entry for f in cfg.functions}
    work = cfg.function(symbols["work"])
    assert [(p.start, p.name) for p in work.parts] == [(symbols["work.cold"], "work.cold")]
    part = work.parts[0]
    assert part.start < part.end
    assert part.start in {b.start for b in work.blocks}
    assert repr(part).startswith("<hoist.Part work.cold at ")


def test_section_symbol_import_and_export_fields():
    binary = hoist.load(EXAMPLE_ELF)
    assert binary.image_base == 0   # a PIE
    sections = {s.name: s for s in binary.sections}
    text, bss = sections[".text"], sections[".bss"]
    assert text.readable and text.mapped and text.file_offset > 0 and text.file_size == text.size
    assert bss.writable and bss.mapped and not bss.executable and bss.file_size == 0
    assert not sections[".comment"].mapped
    symbols = {s.name: s for s in binary.symbols}
    assert symbols["add3"].source == "static" and not symbols["add3"].ifunc
    printf = next(i for i in binary.imports if i.name == "printf")
    assert printf.stub and printf.defined_at is None   # called through its PLT stub
    dll = hoist.load(os.path.join(TEST_DATA, "hoist_test.dll"))
    assert dll.image_base > 0
    forwarders = {e.name: e.forwarder for e in dll.exports}
    assert forwarders["library_ticks"] == "KERNEL32.GetTickCount"
    assert forwarders["library_add"] == ""


def test_cfg_records_jump_tables_tail_calls_and_what_is_unresolved(tmp_path):
    source = os.path.join(os.path.dirname(__file__), "Inputs", "cfg-shapes.c")
    exe = str(tmp_path / "cfg-shapes")
    subprocess.run(["gcc", "-O2", "-o", exe, source], check=True)
    binary = hoist.load(exe)
    cfg = binary.cfg(all=True)
    assert cfg.rounds >= 1 and not cfg.budget_exhausted
    functions = {f.name: f for f in cfg.functions}
    pick, forward, through = functions["pick"], functions["forward"], functions["through"]

    [table] = pick.jump_tables
    starts = {b.start for b in pick.blocks}
    assert table.table and table.import_ == "" and table.jump in {
        a for b in pick.blocks for a in range(b.start, b.end)}
    assert len(set(table.targets)) == 7 and set(table.targets) <= starts
    assert functions["die"].noreturn and not pick.noreturn
    assert functions["die"].entry in {c.target for c in pick.calls}
    assert forward.tail_calls == [pick.entry] and not forward.calls
    [jump] = through.unresolved_jumps
    assert through.blocks[0].start <= jump.jump < through.blocks[-1].end
    assert "writable memory" in jump.reason
    main = functions["main"]
    assert all(main.entry <= call.at < max(b.end for b in main.blocks) for call in main.calls)
    assert not any(f.ifunc_resolver for f in cfg.functions)
    # crtstuff's deregister_tm_clones jumps through an import's slot: a computed jump.
    assert any(j.import_ for f in cfg.functions for j in f.computed_jumps)


def test_timeouts_give_partial_results():
    bash = hoist.load("/usr/bin/bash")
    cfg = bash.cfg(all=True, timeout=0.001)
    assert cfg.budget_exhausted
    assert "budget-exhausted" in {d["code"] for d in cfg.diagnostics}
    lifted = bash.lift(all=True, opt=1, timeout=0.001)
    assert "budget-exhausted" in {d["code"] for d in lifted.diagnostics}


def test_lift_returns_ir_stats_and_diagnostics():
    lifted = hoist.load(EXAMPLE_ELF).lift("add3", opt=2)
    assert re.search(r"^define .*@add3\(ptr noalias", lifted.ir, re.M)
    assert lifted.bitcode is None
    assert lifted.stats["instructions_lifted"] > 0 and lifted.stats["functions"] >= 1
    assert isinstance(lifted.diagnostics, list)
    assert all(set(d) == {"severity", "code", "address", "message"} for d in lifted.diagnostics)


def test_lift_brightened_is_a_c_function():
    lifted = hoist.load(EXAMPLE_ELF).lift("add3", opt=2, brighten=True)
    assert re.search(r"^define .*i32 @add3\(i32", lifted.ir, re.M)


def test_lift_bitcode():
    lifted = hoist.load(EXAMPLE_ELF).lift(["add3", "classify"], opt=1, bitcode=True)
    assert lifted.ir is None
    assert lifted.bitcode.startswith(b"BC\xc0\xde")


def test_lift_deobfuscated():
    lifted = hoist.load(EXAMPLE_ELF).lift("checksum", opt=2, deobfuscate=True)
    assert "define" in lifted.ir


def test_lift_usr_bin_true_entry():
    binary = hoist.load("/usr/bin/true")
    lifted = binary.lift(binary.entry, opt=0, callees=False)
    assert "@fn_%x(" % binary.entry in lifted.ir


def test_unsupported_instructions_are_diagnostics_not_errors(tmp_path):
    code = tmp_path / "code.bin"
    code.write_bytes(bytes([0x0F, 0x0B]))   # ud2
    lifted = hoist.load(str(code), raw_base=0x1000).lift(0x1000, opt=0)
    assert "__hoist_trap" in lifted.ir


def test_errors_carry_the_command_line_message(tmp_path):
    missing = str(tmp_path / "missing")
    with pytest.raises(hoist.Error) as error:
        hoist.load(missing)
    assert str(error.value) == cli_error("info", missing)

    with pytest.raises(hoist.Error) as error:
        hoist.load(EXAMPLE_ELF).lift("no_such_function")
    assert str(error.value) == cli_error("lift", EXAMPLE_ELF, "--function", "no_such_function")

    with pytest.raises(hoist.Error, match="opt must be 0 to 3"):
        hoist.load(EXAMPLE_ELF).lift("add3", opt=7)


def test_malformed_files_raise(tmp_path):
    truncated = tmp_path / "truncated.elf"
    truncated.write_bytes(open(EXAMPLE_ELF, "rb").read()[:200])
    garbage = tmp_path / "garbage"
    garbage.write_bytes(b"\x7fELF" + bytes(range(256)) * 4)
    for path in (truncated, garbage):
        with pytest.raises(hoist.Error) as error:
            hoist.load(str(path))
        assert str(error.value) == cli_error("info", str(path))
    assert isinstance(hoist.Error(), RuntimeError)


def test_lift_releases_the_gil():
    binary = hoist.load(EXAMPLE_ELF)
    results = []
    worker = threading.Thread(
        target=lambda: results.append(binary.lift(all=True, opt=2)))
    worker.start()
    ticks = 0
    while worker.is_alive():
        ticks += 1   # runs only while the lift does not hold the GIL
    worker.join()
    assert results and "define" in results[0].ir
    assert ticks > 1000


def test_threads_lift_at_once():
    binary = hoist.load(EXAMPLE_ELF)
    names = ["add3", "sum_to", "classify", "checksum", "fib"]
    results = {}
    threads = [threading.Thread(target=lambda n=n: results.__setitem__(n, binary.lift(n, opt=2)))
               for n in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == sorted(names)
    assert all("define" in r.ir for r in results.values())


def test_example_script_prints_cfg_and_brightened_ir():
    script = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python",
                          "cfg_and_ir.py")
    run = subprocess.run([sys.executable, script, EXAMPLE_ELF, "classify"],
                         capture_output=True, text=True, check=True)
    assert re.search(r"^; function classify at 0x[0-9a-f]+ ", run.stdout, re.M)
    assert re.search(r"^;   block 0x[0-9a-f]+-0x[0-9a-f]+ -> ", run.stdout, re.M)
    assert re.search(r"^define .*i32 @classify\(i32", run.stdout, re.M)
