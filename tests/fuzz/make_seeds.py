#!/usr/bin/env python3
"""Seed corpora for the fuzz targets from real binaries (the bundled example, the image tests'
ELF and PE files): whole files for fuzz_image; for fuzz_pipeline, the small files and windows
of their code as raw blobs (first byte even: raw, odd: image); for fuzz_instruction, windows of
15 bytes at every few offsets of the code.

  make_seeds.py OUTDIR BINARY...
"""
import os
import subprocess
import sys
import tempfile

OBJCOPY = "/usr/lib/llvm-19/bin/llvm-objcopy"


def code_of(path):
    with tempfile.NamedTemporaryFile() as out:
        result = subprocess.run([OBJCOPY, "-O", "binary", "--only-section=.text", path, out.name],
                                stderr=subprocess.DEVNULL)
        return open(out.name, "rb").read() if result.returncode == 0 else b""


def write(directory, name, data):
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "wb") as out:
        out.write(data)


def main():
    out, binaries = sys.argv[1], sys.argv[2:]
    for path in binaries:
        base = os.path.basename(path)
        data = open(path, "rb").read()
        write(os.path.join(out, "image"), base, data)
        if len(data) <= 64 * 1024:
            write(os.path.join(out, "pipeline"), base, b"\x01" + data)
        code = code_of(path)
        for start in range(0, min(len(code), 4096), 512):
            write(os.path.join(out, "pipeline"), f"{base}.code{start}", b"\x00" + code[start:start + 512])
        for start in range(0, min(len(code), 3000), 5):
            write(os.path.join(out, "instruction"), f"{base}.{start}", code[start:start + 15])


if __name__ == "__main__":
    main()
