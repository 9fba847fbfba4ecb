"""Runs a command and prints its exit status, then its stderr: lit's `not` accepts any failure,
and the usage tests need exactly 2.

usage: exit-status.py COMMAND [ARGS...]
"""
import subprocess
import sys

run = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
print(f"exit {run.returncode}")
sys.stdout.write(run.stderr)
