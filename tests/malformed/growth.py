#!/usr/bin/env python3
"""Growth test: hostile shapes of code must cost Hoist time and memory in proportion to their
size, never quadratically (docs/ROBUSTNESS.md, "Threat model").

Each shape is made as raw code at two sizes, N and 4 N, and run through
`hoist cfg --raw --base 0x1000` (discovery) and `hoist lift --raw --base 0x1000 -o /dev/null`.
The run at 4 N may cost at most GROWTH_LIMIT times the run at N, in CPU time and in peak memory
above that of an empty input: linear work costs about 4 times as much, quadratic work 16 times.

  growth.py --hoist build/tools/hoist/hoist

Shapes: one basic block of N `add rax, rbx` (a long block), and an indirect jump through a
table of N entries, each to a block of its own (a huge jump table; N stays under the block
budget, so the table is followed whole).
"""
import argparse
import itertools
import os
import struct
import subprocess
import sys
import tempfile

BASE = 0x1000
# Linear is 4; the slack covers the machine's load and the allocator's rounding. Quadratic is 16.
GROWTH_LIMIT = 7.0
# Below this, a CPU time says more about process start than about the input.
CPU_FLOOR_SECONDS = 0.1
MEMORY_FLOOR_KIB = 8 * 1024


def long_block(count):
    """`add rax, rbx` count times, then `ret`: one block as long as count."""
    return b"\x48\x01\xd8" * count + b"\xc3"


def jump_table(count):
    """`cmp edi, count-1; ja default; lea rdx, [rip+table]; movsxd rax, [rdx+rdi*4];
    add rax, rdx; jmp rax`, a `ret` for the default, count one-byte `ret` targets and the
    table of their offsets from the table, as a compiler lays out a switch."""
    code = bytearray()
    code += b"\x81\xff" + struct.pack("<I", count - 1)  # cmp edi, count-1
    default_at, lea_end, targets_at = 28, 19, 29
    table_at = (targets_at + count + 3) & ~3
    code += b"\x0f\x87" + struct.pack("<i", default_at - 12)  # ja default
    code += b"\x48\x8d\x15" + struct.pack("<i", table_at - lea_end)  # lea rdx, [rip+table]
    code += b"\x48\x63\x04\xba"  # movsxd rax, dword [rdx+rdi*4]
    code += b"\x48\x01\xd0"  # add rax, rdx
    code += b"\xff\xe0"  # jmp rax
    code += b"\xc3"  # default: ret
    assert len(code) == targets_at
    code += b"\xc3" * count
    code += b"\xcc" * (table_at - len(code))
    for entry in range(count):
        code += struct.pack("<i", targets_at + entry - table_at)
    return bytes(code)


SHAPES = {"long block": (long_block, 25_000), "jump table": (jump_table, 12_000)}


COMMANDS = {"cfg": [], "lift": ["-o", os.devnull]}


def run(hoist, command, code, directory):
    """Runs `hoist command` on code as raw bytes; returns (CPU seconds, peak resident KiB)."""
    path = os.path.join(directory, "input.bin")
    with open(path, "wb") as out:
        out.write(code)
    process = subprocess.Popen(
        [hoist, command, "--raw", "--base", hex(BASE), path] + COMMANDS[command],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        sys.exit(f"growth: hoist {command} of {len(code)} bytes ended with {process.returncode}:\n"
                 + stderr.decode(errors="replace"))
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hoist", required=True)
    args = parser.parse_args()
    failed = False
    with tempfile.TemporaryDirectory() as directory:
        for (name, (make, count)), command in itertools.product(SHAPES.items(), COMMANDS):
            _, empty_kib = run(args.hoist, command, b"\xc3", directory)
            small_cpu, small_kib = run(args.hoist, command, make(count), directory)
            large_cpu, large_kib = run(args.hoist, command, make(4 * count), directory)
            cpu_growth = max(large_cpu, CPU_FLOOR_SECONDS) / max(small_cpu, CPU_FLOOR_SECONDS)
            memory_growth = (max(large_kib - empty_kib, MEMORY_FLOOR_KIB)
                             / max(small_kib - empty_kib, MEMORY_FLOOR_KIB))
            print(f"{command}, {name}: {count} -> {4 * count}: CPU {small_cpu:.2f} -> {large_cpu:.2f} s "
                  f"(x{cpu_growth:.1f}), memory above an empty input {(small_kib - empty_kib) >> 10}"
                  f" -> {(large_kib - empty_kib) >> 10} MiB (x{memory_growth:.1f})")
            if cpu_growth > GROWTH_LIMIT or memory_growth > GROWTH_LIMIT:
                print(f"growth: {command} of a {name} grows faster than its size (limit x{GROWTH_LIMIT})")
                failed = True
    if failed:
        return 1
    print("growth: every shape costs in proportion to its size")
    return 0


if __name__ == "__main__":
    sys.exit(main())
