#!/bin/sh
# Rebuilds a Debian source package with one compiler and level, keeping the compiler's truth
# (-g -Wa,-L -Wl,-q), and runs check_package.py on every ELF program the build makes. Not run
# in CI: it downloads the source (apt-get source; a deb-src line for bookworm must be
# configured) and builds for a minute or more per configuration.
# usage: tests/cfg/build_package.sh HOIST WORKDIR PACKAGE [CC [LEVEL [plain|hardened]]]
#   PACKAGE: sed, grep, diffutils, findutils, coreutils (autotools) or bzip2 (a Makefile)
#   CC: gcc (the default), clang-13 ... clang-19; LEVEL: O0, O1, O2 (the default), O3, Os, Og
#   hardened: Debian's hardening flags too (stack protector, stack clash protection, CET,
#   _FORTIFY_SOURCE=2, full RELRO); Debian's gcc and clang build PIE by default either way
# The sources are kept in WORKDIR/sources, each build in WORKDIR/PACKAGE-CC-LEVEL-FLAVOUR.
# JOBS (2 unless set): the jobs of make. CONFIG_CACHE (a directory, unset by default): each
# package and compiler keeps configure's answers there (--cache-file), so the other levels of
# the same package and compiler configure in seconds instead of minutes.
set -e
hoist=$(realpath "$1")
work=$(realpath -m "$2")
package=$3
cc=${4:-gcc}
level=${5:-O2}
flavour=${6:-plain}
here=$(dirname "$(realpath "$0")")
cflags="-$level -g -Wa,-L"
ldflags="-Wl,-q"
if [ "$flavour" = hardened ]; then
  cflags="$cflags -fstack-protector-strong -fstack-clash-protection -fcf-protection"
  cflags="$cflags -D_FORTIFY_SOURCE=2"
  ldflags="$ldflags -Wl,-z,relro -Wl,-z,now"
fi
mkdir -p "$work/sources"
cd "$work/sources"
ls "${package}"_*.dsc >/dev/null 2>&1 || apt-get source --download-only "$package" >/dev/null
build="$work/$package-$cc-$level-$flavour"
if [ ! -d "$build" ]; then
  dpkg-source -x "$(ls "${package}"_*.dsc | head -n 1)" "$build" >/dev/null
  # Debian's patches touch some Makefile.am (grep's): the generated files would look stale
  # and make would run automake. The build needs none of what the patches change there.
  # One time stamp for all: make compares them to the nanosecond.
  stamp=$(date +%Y%m%d%H%M.%S)
  find "$build" \( -name Makefile.in -o -name configure -o -name aclocal.m4 \
    -o -name config.h.in -o -name config.hin -o -name config_h.in \) -exec touch -t "$stamp" {} +
  # Debian's grep patch 1019724 puts a declaration right after a label (C23), which clang
  # before 18 refuses: an empty statement after the label means the same.
  [ "$package" != grep ] || sed -i 's/^\( *stray_backslash:\)$/\1;/' "$build/lib/dfa.c"
fi
cd "$build"
case "$package" in
  bzip2)
    make -s -j2 CC="$cc" CFLAGS="$cflags -D_FILE_OFFSET_BITS=64" LDFLAGS="$ldflags" bzip2 bzip2recover ;;
  *)
    # FORCE_UNSAFE_CONFIGURE: these machines build as root, which configure refuses by default.
    # The answers of another level, less the flags they were given (configure refuses a cache
    # whose CFLAGS differ from its own).
    seed=${CONFIG_CACHE:+$(realpath -m "$CONFIG_CACHE")/$package-$cc-$flavour.cache}
    if [ ! -f Makefile ]; then
      if [ -n "$seed" ] && [ -f "$seed" ]; then grep -v '^ac_cv_env_' "$seed" > config.cache
      else : > config.cache; fi
      FORCE_UNSAFE_CONFIGURE=1 ./configure --quiet --disable-nls CC="$cc" CFLAGS="$cflags" \
        LDFLAGS="$ldflags" --cache-file=config.cache >/dev/null
      if [ -n "$seed" ] && [ ! -f "$seed" ]; then mkdir -p "$(dirname "$seed")"; cp config.cache "$seed"; fi
    fi
    # The whole package: single programs need the generated gnulib headers that `all` makes.
    # A parallel make of some packages stops on a race once; the second run finishes it.
    # MAKEINFO=true: Debian's patches touch the manuals (grep's), which makeinfo would rebuild.
    make -s -j"${JOBS:-2}" MAKEINFO=true > make.log 2>&1 || make -s -j"${JOBS:-2}" MAKEINFO=true > make.log 2>&1 ||
      { tail -n 20 make.log; exit 1; } ;;
esac
programs=$(find . -type f -perm -u+x ! -name '*.sh' ! -path './copies/*' | sort |
  while read -r f; do if head -c4 "$f" | grep -q ELF; then echo "$f"; fi; done)
# shellcheck disable=SC2086 # one argument per program
python3 "$here/check_package.py" --hoist "$hoist" --work "$build/copies" $programs
