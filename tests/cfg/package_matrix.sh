#!/bin/sh
# Runs build_package.sh over packages x compilers x levels (x plain/hardened) and prints one
# summary line per configuration: the figures docs/CFG.md reports per compiler and level.
# Not run in CI (each configuration is a build from source).
# usage: tests/cfg/package_matrix.sh HOIST WORKDIR "PACKAGES" "COMPILERS" "LEVELS" ["FLAVOURS"]
#   e.g. tests/cfg/package_matrix.sh build/tools/hoist/hoist /tmp/pkg "sed bzip2" \
#        "gcc clang-13 clang-14 clang-15 clang-16 clang-19" "O0 O1 O2 O3 Os Og" "plain hardened"
hoist=$1 work=$2 packages=$3 compilers=$4 levels=$5 flavours=${6:-plain}
here=$(dirname "$(realpath "$0")")
status=0
for package in $packages; do
  for cc in $compilers; do
    for level in $levels; do
      for flavour in $flavours; do
        log="$work/$package-$cc-$level-$flavour.log"
        if sh "$here/build_package.sh" "$hoist" "$work" "$package" "$cc" "$level" "$flavour" \
             > "$log" 2>&1; then verdict=ok; else verdict=FAIL; status=1; fi
        echo "$package $cc -$level $flavour: $verdict"
        grep '^total' "$log" | sed 's/^/  /'
        grep '^FAIL' "$log" | head -n 5 | sed 's/^/  /'
      done
    done
  done
done
exit $status
