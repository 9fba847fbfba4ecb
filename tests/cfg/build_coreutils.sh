#!/bin/sh
# Rebuilds a few coreutils tools from Debian's source with the flags that keep the compiler's
# truth (-g -Wa,-L -Wl,-q) and runs check_package.py on them. Not run in CI: it downloads the
# source (apt-get source; a deb-src line for bookworm must be configured) and builds for a few
# minutes (about 5 on the 2-core machine). usage: tests/cfg/build_coreutils.sh HOIST WORKDIR [all]
# With `all`, every program of the package (109) is checked, not only five (about 2 min more).
set -e
hoist=$(realpath "$1")
work=$2
here=$(dirname "$(realpath "$0")")
mkdir -p "$work"
cd "$work"
[ -d src ] || { apt-get source --download-only coreutils && dpkg-source -x coreutils_*.dsc src; }
cd src
# FORCE_UNSAFE_CONFIGURE: these machines build as root, which configure refuses by default.
[ -f Makefile ] || FORCE_UNSAFE_CONFIGURE=1 ./configure --quiet --disable-nls CFLAGS="-O2 -g -Wa,-L" LDFLAGS="-Wl,-q"
# The whole package: single tools need the generated gnulib headers that `all` makes first.
make -j2
if [ "$3" = all ]; then
  # (`if`, not `&&`: a last file that is no program would end the loop, and the script, with 1.)
  tools=$(for f in src/*; do if [ -f "$f" ] && [ -x "$f" ] && head -c4 "$f" | grep -q ELF; then echo "$f"; fi; done)
else
  tools="src/ls src/sort src/cat src/expr src/date"
fi
# shellcheck disable=SC2086 # one argument per tool
python3 "$here/check_package.py" --hoist "$hoist" --work "$work/copies" $tools
