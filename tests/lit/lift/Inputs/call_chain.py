#!/usr/bin/env python3
"""Writes raw x86-64 code: COUNT functions 16 bytes apart, each calling the next and returning
(the last only returns). Mapped at any base, the first function lifts the whole chain."""
import struct
import sys

path, count = sys.argv[1], int(sys.argv[2])
code = bytearray(b"\xcc" * (16 * count))
for i in range(count - 1):
    code[16 * i:16 * i + 6] = b"\xe8" + struct.pack("<i", 11) + b"\xc3"   # call next; ret
code[16 * (count - 1)] = 0xC3
with open(path, "wb") as out:
    out.write(code)
