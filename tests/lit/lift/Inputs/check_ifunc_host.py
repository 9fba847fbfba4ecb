"""Checks `hoist lift libc.so.6 --function strlen`'s note against the resolver itself: the
implementation hoist lifted must be the one libc's own strlen resolver returns when called
in another process on the same CPU.

usage: check_ifunc_host.py HOIST_STDERR RESOLVER_CALLER
"""
import re
import subprocess
import sys

text = open(sys.argv[1]).read()
note = re.search(r"note: strlen is an IFUNC whose resolver is at (0x[0-9a-f]+): lifted the "
                 r"implementation this host's dynamic linker chose, at (0x[0-9a-f]+)", text)
if not note:
    sys.exit("no ifunc-implementation note in:\n" + text)
resolver, lifted = note.group(1), note.group(2)
returned = subprocess.run([sys.argv[2], resolver], check=True, stdout=subprocess.PIPE,
                          text=True).stdout.strip()
if int(returned, 16) != int(lifted, 16):
    sys.exit("hoist lifted %s, the resolver at %s returns %s" % (lifted, resolver, returned))
if int(lifted, 16) == int(resolver, 16):
    sys.exit("the implementation is the resolver itself")
print("implementation", lifted, "matches the resolver's choice")
