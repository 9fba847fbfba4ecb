#!/usr/bin/python3
"""Runs a command with its stderr on a pseudo-terminal (stdin and stdout stay as they are;
with --stdout-too, stdout goes there as well) and prints what it wrote there, with the
terminal's control characters made visible: a carriage return as <CR>, "erase to the end of
the line" (ESC [K) as <EL>. Exits with the command's status.

  stderr_on_terminal.py [--stdout-too] COMMAND [ARG...]
"""
import os
import pty
import subprocess
import sys

command = sys.argv[1:]
stdout_too = command[0] == "--stdout-too"
if stdout_too:
    command = command[1:]
master, slave = pty.openpty()
child = subprocess.Popen(command, stderr=slave, stdout=slave if stdout_too else None)
os.close(slave)
written = bytearray()
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:   # EIO: the child closed its end
        break
    if not chunk:
        break
    written += chunk
status = child.wait()
text = written.decode("utf-8", "replace")
# The terminal turns "\n" into "\r\n" (onlcr): that carriage return is not the program's.
text = text.replace("\r\n", "\n").replace("\r", "<CR>").replace("\x1b[K", "<EL>")
sys.stdout.write(text)
sys.exit(status)
