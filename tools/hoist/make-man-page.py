#!/usr/bin/python3
"""Makes hoist's man page at build time, from the help the program prints, so that the page
never says what the program does not do. help2man reads `hoist --help` and `--version`, put in
the shape it knows (LLVM's OVERVIEW/USAGE/SUBCOMMANDS layout is not one: a stand-in program
prints them reshaped); a section per subcommand comes from `hoist SUB --help`, with the exit
codes and the environment.

  make-man-page.py HOIST HELP2MAN OUTPUT
"""
import os
import re
import subprocess
import sys
import tempfile

hoist, help2man, output = sys.argv[1:4]

# A subcommand's help: "  --name=<value>   - description", one line each; a group of
# values (the -O levels) is a header line and more deeply indented value lines.
OPTION = re.compile(r"^(\s+)(-{1,2}\S.*?)\s+- (.*)$")
CATEGORY = re.compile(r"^\S.*:$")


def run(*args):
    return subprocess.run([hoist, *args], capture_output=True, text=True, check=True).stdout


def roff(text):
    """Text as roff reads it: backslashes and hyphens escaped, no line starting a request."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text.startswith((".", "'")) else text


def spelled(option):
    """LLVM's help prints the -O levels as --O2; hoist's documents write -O2."""
    return re.sub(r"--(O[0-3])\b", r"-\1", option)


def subcommands():
    listed, found = False, []
    for line in run("--help").splitlines():
        if line.startswith("SUBCOMMANDS:"):
            listed = True
        elif listed and re.match(r"^  \S+\s+- ", line):
            name, description = line.strip().split(" - ", 1)
            found.append((name.strip(), description.strip()))
        elif listed and line.startswith("OPTIONS:"):
            break
    return found


def section(name, description):
    lines = [f'.SS "{roff(f"hoist {name}")}"', roff(description.rstrip(".") + ".")]
    category = None
    for line in run(name, "--help").splitlines():
        if line.startswith("USAGE: "):
            lines += [".PP", ".B " + roff(line[len("USAGE: "):])]
        elif CATEGORY.match(line):
            category = line[:-1]
        elif category == "Generic Options":
            continue   # --help, said once for all
        elif match := OPTION.match(line):
            lines += [".TP", ".B " + roff(spelled(match.group(2))), roff(spelled(match.group(3)))]
        elif line.strip().endswith(":") and line.startswith("  "):
            lines += [".TP", roff(line.strip())]   # the header of a group of values
    return lines


include = [
    "[DESCRIPTION]",
    ".B hoist",
    "lifts x86\\-64 machine code (ELF and PE executables and libraries, or raw code) to LLVM",
    "IR, reports the control flow it recovers and the coverage of its semantics, and",
    "translates whole Linux programs. Each subcommand takes its own options, listed below",
    "and by",
    ".BR \"hoist SUBCOMMAND \\-\\-help\" .",
    "[SUBCOMMANDS]",
]
for name, description in subcommands():
    include += section(name, description)
include += [
    "[EXIT STATUS]",
    ".TP", "0", "success, also a partial result when \\-\\-timeout ran out (a diagnostic says so)",
    ".TP", "1", "bad input: one line on stderr naming the file, address or symbol",
    ".TP", "2", "usage error: one line \\(lqhoist: error: ...\\(rq",
    ".TP", "3", "the \\-\\-timeout watchdog ended a run still busy at twice the timeout plus 10 s",
    "[ENVIRONMENT]",
    ".TP", ".B HOIST_PROGRESS_AFTER",
    "Seconds a run takes before its progress line shows on a terminal (default 2).",
    ".TP", ".B CC",
    "The compiler that links a translated program (default cc).",
    ".TP", ".B HOIST_TRANSLATE_RUNTIME",
    "The translation runtime library to link with (default: found beside hoist's own install).",
    "[SEE ALSO]",
    "The documents under docs/ in Hoist's sources: CLI.md (every option in detail, the JSON",
    "outputs and their schemas under docs/schema), CFG.md, STATS.md, TRANSLATE.md, API.md.",
]



def top_level_help():
    """`hoist --help` as help2man reads it: a usage line, the subcommands, the options (the
    overview line is the page's NAME)."""
    text = run("--help")
    lines = ["Usage: hoist SUBCOMMAND [options] <binary>...", "", "Subcommands:"]
    lines += [f"  {name:<12} {description}" for name, description in subcommands()]
    lines += ["", "Options:"]
    lines += [f"  {m.group(2):<12} {m.group(3)}" for m in map(OPTION.match, text.splitlines())
              if m]
    return "\n".join(lines) + "\n"


version = run("--version").splitlines()[0].split()[-1]
with tempfile.TemporaryDirectory() as work:
    with open(os.path.join(work, "include.h2m"), "w") as file:
        file.write("\n".join(include) + "\n")
    with open(os.path.join(work, "help.txt"), "w") as file:
        file.write(top_level_help())
    stand_in = os.path.join(work, "hoist")
    with open(stand_in, "w") as file:
        file.write("#!/bin/sh\n"
                   f"if [ \"$1\" = --version ]; then echo 'hoist {version}'; "
                   f"else cat '{work}/help.txt'; fi\n")
    os.chmod(stand_in, 0o755)
    subprocess.run([help2man, "--no-info", "--name=lift x86-64 machine code to LLVM IR",
                    "--section=1", "--include=" + os.path.join(work, "include.h2m"),
                    "--output=" + output, stand_in], check=True)
