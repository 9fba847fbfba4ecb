"""Fails when an IR file declares a function that nothing in it refers to.
Usage: check_declarations_used.py FILE.ll..."""
import re
import sys

unused = []
for path in sys.argv[1:]:
    text = open(path).read()
    for name in re.findall(r"^declare [^@]*@([-\w.$\"!]+)\(", text, re.M):
        if len(re.findall(re.escape("@" + name) + r"\b", text)) < 2:
            unused.append(f"{path}: @{name}")
print("\n".join(unused) if unused else "every declaration is used")
sys.exit(1 if unused else 0)
