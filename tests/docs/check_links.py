#!/usr/bin/env python3
"""Every relative link of the README and docs/*.md names a file or directory of the source
tree, and every `#anchor` into a Markdown file names one of its headings (GitHub's rule: the
heading lowercased, punctuation but `-` and `_` dropped, spaces as `-`) or an explicit
`<a id="...">`. A fresh clone has
nothing else, so a link out of the tree (`../shared/...`) fails too.

usage: check_links.py SOURCE_DIR"""
import glob
import os
import re
import sys

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def anchors(path):
    with open(path, encoding="utf-8") as stream:
        text = stream.read()
    headings = [line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")]
    named = set(re.findall(r'<a id="([^"]+)"', text))   # explicit anchors
    return named | {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
                    for heading in headings}


def main():
    root = os.path.realpath(sys.argv[1])
    files = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    broken = []
    checked = 0
    for source in files:
        with open(source, encoding="utf-8") as stream:
            text = stream.read()
        text = re.sub(r"```.*?```", "", text, flags=re.S)   # code blocks hold no links
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue   # http:, mailto:
            checked += 1
            path, _, anchor = target.partition("#")
            resolved = os.path.realpath(os.path.join(os.path.dirname(source), path)) if path \
                else source
            where = os.path.relpath(source, root)
            if not resolved.startswith(root + os.sep) and resolved != root:
                broken.append(f"{where}: {target} leaves the source tree")
            elif not os.path.exists(resolved):
                broken.append(f"{where}: {target} does not exist")
            elif anchor and resolved.endswith(".md") and anchor not in anchors(resolved):
                broken.append(f"{where}: {target} names no heading of {path or where}")
    for line in broken:
        print(line)
    print(f"{checked} links checked, {len(broken)} broken")
    return 1 if broken or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
