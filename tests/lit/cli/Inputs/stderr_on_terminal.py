#!/usr/bin/python3
"""Runs a command with its stderr on a pseudo-terminal (stdin and stdout stay as they are) and
prints what it wrote there, with the terminal's control characters made visible: a carriage
return as <CR>, "erase to the end of the line" (ESC [K) as <EL>. Exits with the command's
status.

  stderr_on_terminal.py COMMAND [ARG...]
"""
import os
import pty
import subprocess
import sys

master, slave = pty.openpty()
child = subprocess.Popen(sys.argv[1:], stderr=slave)
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
