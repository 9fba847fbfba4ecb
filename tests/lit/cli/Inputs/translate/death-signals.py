"""Runs each program given with each mode given and prints, a line per mode, the signal each
program died of (or its exit status): `MODE: ORIGINAL TRANSLATED`."""
import signal
import subprocess
import sys

original, translated, modes = sys.argv[1], sys.argv[2], sys.argv[3:]


def ending(program, mode):
    status = subprocess.run([program, mode], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL).returncode
    return signal.Signals(-status).name if status < 0 else f"exit {status}"


for mode in modes:
    print(f"{mode}: {ending(original, mode)} {ending(translated, mode)}")
