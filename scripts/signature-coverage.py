#!/usr/bin/env python3
"""Recall and precision of Hoist's library signatures (docs/SIGNATURES.md).

Builds tests/signatures' programs statically against glibc (gcc -static) and musl
(musl-gcc -static) at -O0 and -O2, keeps each unstripped twin as the truth, strips a copy,
runs `hoist cfg --all --json` on it, and counts:
  linked   library functions in the binary (function symbols the program's own objects do not
           define, one per address)
  named    of those, named by a signature with one of the names the twin has there
  wrong    functions named with a name the twin does not have there (library or the program's)
  collided library functions matched by several names, none chosen
A `.cold` symbol (a function's part the compiler moved away) is not a function: it is left
out of `linked` and counted apart; a name given to one is still checked.
Usage: signature-coverage.py HOIST [--work DIR] [--markdown] [--check MIN_RECALL MAX_WRONG]
"""
import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = os.path.join(HERE, '..', 'tests', 'signatures')
PROGRAM = ['main.c', 'text.c', 'files.c']
CONFIGURATIONS = [  # label, compiler, options
    ('glibc gcc-12 -O2', 'gcc', ['-O2']),
    ('glibc gcc-12 -O0', 'gcc', ['-O0']),
    ('musl gcc-12 -O2', 'musl-gcc', ['-O2']),
    ('musl gcc-12 -O0', 'musl-gcc', ['-O0']),
]


def run(command, **kwargs):
    return subprocess.run(command, check=True, text=True, capture_output=True, **kwargs).stdout


def function_symbols(path):
    """{address: set of names} of the FUNC and IFUNC symbols with a size."""
    by_address = collections.defaultdict(set)
    for line in run(['readelf', '-sW', path]).splitlines():
        fields = line.split()
        if len(fields) < 8 or fields[3] not in ('FUNC', 'IFUNC') or fields[6] == 'UND':
            continue
        if int(fields[2], 0) == 0:
            continue
        by_address[int(fields[1], 16)].add(fields[7].split('@')[0])
    return by_address


def build(work, label, compiler, options):
    directory = os.path.join(work, label.replace(' ', '_'))
    os.makedirs(directory, exist_ok=True)
    objects, own = [], set()
    for source in PROGRAM:
        obj = os.path.join(directory, source.replace('.c', '.o'))
        run([compiler, *options, '-c', os.path.join(SOURCES, source), '-o', obj])
        objects.append(obj)
        for names in function_symbols(obj).values():
            own |= names
    unstripped = os.path.join(directory, 'program')
    run([compiler, '-static', *options, *objects, '-o', unstripped, '-lm'])
    stripped = unstripped + '.stripped'
    shutil.copy(unstripped, stripped)
    run(['strip', stripped])
    return unstripped, stripped, own


def measure(hoist, work, label, compiler, options):
    unstripped, stripped, own = build(work, label, compiler, options)
    truth = function_symbols(unstripped)
    # A function's part the compiler moved away (`foo.cold`) is not a function: counted apart.
    cold = {address for address, names in truth.items() if all('.cold' in n for n in names)}
    library = {address: names for address, names in truth.items()
               if not names & own and address not in cold}
    listing = json.loads(run([hoist, 'cfg', '--all', '--json', stripped]))
    recognized = {int(f['entry'], 16): f['recognized'] for f in listing['functions']
                  if f.get('recognized')}
    discovered = {int(f['entry'], 16) for f in listing['functions']}
    named, wrong, collided, missed = 0, [], 0, collections.Counter()
    for address, recognition in recognized.items():
        name = recognition['name']
        if name and name not in truth.get(address, set()):
            wrong.append((hex(address), name, sorted(truth.get(address, []))))
    for address, names in library.items():
        recognition = recognized.get(address)
        if recognition and recognition['name'] in names:
            named += 1
        elif recognition and not recognition['name']:
            collided += 1
            missed['collision: ' + min(names)] += 1
        elif address not in discovered:
            missed['not discovered: ' + min(names)] += 1
        else:
            missed['no signature: ' + min(names)] += 1
    return {'configuration': label, 'linked': len(library), 'named': named,
            'wrong': len(wrong), 'collided': collided, 'wrong_list': wrong, 'cold': len(cold),
            'missed': sorted(missed)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('hoist')
    parser.add_argument('--work')
    parser.add_argument('--markdown', action='store_true')
    parser.add_argument('--verbose', action='store_true', help='list what was missed')
    parser.add_argument('--check', nargs=2, type=float, metavar=('MIN_RECALL', 'MAX_WRONG'),
                        help='exit 1 unless every configuration meets both (percentages)')
    args = parser.parse_args()
    work = args.work or tempfile.mkdtemp(prefix='hoist-signatures-')
    failed = False
    if args.markdown:
        print('| Configuration | Library functions linked | Named | Wrong | Collisions | `.cold` parts (apart) |')
        print('|---|---|---|---|---|---|')
    for label, compiler, options in CONFIGURATIONS:
        if not shutil.which(compiler):
            print(f'{label}: {compiler} is not installed', file=sys.stderr)
            failed = True
            continue
        result = measure(os.path.abspath(args.hoist), work, label, compiler, options)
        linked = max(result['linked'], 1)
        recall = 100.0 * result['named'] / linked
        wrong = 100.0 * result['wrong'] / linked
        if args.markdown:
            print(f"| {label} | {result['linked']} | {result['named']} ({recall:.1f}%) | "
                  f"{result['wrong']} ({wrong:.2f}%) | {result['collided']} | {result['cold']} |")
        else:
            print(f"{label}: {result['named']}/{result['linked']} named ({recall:.1f}%), "
                  f"{result['wrong']} wrong ({wrong:.2f}%), {result['collided']} collisions, "
                  f"{result['cold']} .cold parts apart")
        for entry in result['wrong_list']:
            print('  wrong:', *entry, file=sys.stderr)
        if args.verbose:
            for entry in result['missed']:
                print('  missed:', entry, file=sys.stderr)
        if args.check and (recall < args.check[0] or wrong > args.check[1]):
            failed = True
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
