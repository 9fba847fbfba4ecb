"""Checks `hoist info --json` output against llvm-nm and llvm-readobj for the same ELF file.

usage: check_info_json.py BINARY INFO.json
"""
import json
import re
import subprocess
import sys

binary, info_path = sys.argv[1], sys.argv[2]
with open(info_path) as f:
    info = json.load(f)

HEX = re.compile(r"^0x[0-9a-f]+$")


def check(condition, message):
    if not condition:
        sys.exit("check_info_json: " + message)


for key in ("path", "format", "kind", "entry_point", "image_base", "position_independent",
            "library", "sections", "symbols", "imports", "exports"):
    check(key in info, "missing key " + key)
check(info["format"] == "ELF", "format is " + info["format"])
check(HEX.match(info["entry_point"]), "entry_point is not 0x-hex")

headers = subprocess.run(["llvm-readobj", "--file-headers", binary], check=True,
                         capture_output=True, text=True).stdout
entry = re.search(r"Entry: (0x[0-9A-Fa-f]+)", headers).group(1)
check(int(info["entry_point"], 16) == int(entry, 16), "entry point differs from llvm-readobj")

sections = {s["name"]: s for s in info["sections"]}
check(sections[".text"]["permissions"] == "r-x", ".text is not r-x")
check(sections[".data"]["permissions"] == "rw-", ".data is not rw-")
check(sections[".bss"]["file_size"] == 0, ".bss has file bytes")
check("address" not in sections[".symtab"], ".symtab has an address")
for section in info["sections"]:
    check("address" not in section or HEX.match(section["address"]), "bad section address")

nm = subprocess.run(["llvm-nm", "--defined-only", binary], check=True, capture_output=True,
                    text=True).stdout
main = int(re.search(r"^([0-9a-f]+) T main$", nm, re.M).group(1), 16)
mains = [s for s in info["symbols"] if s["name"] == "main"]
check(mains and int(mains[0]["address"], 16) == main, "main is not where llvm-nm says")
check(mains[0]["kind"] == "function", "main is not a function")

printf = [i for i in info["imports"] if i["name"] == "printf"]
check(printf and "stub" in printf[0] and HEX.match(printf[0]["slot"]), "printf has no stub")
