# Sourced by the upstream tests: every function of a shared library as shipped lifted and
# brightened into one object whose only global symbols are the brightened exports.
# brighten_library HOIST LIBRARY sets `linked` (linked.o), `stubs` (stubs.c), `count` and
# `total` (brightened and exported functions) in the current directory.
brighten_library() {
  local hoist=$1 library=$2
  "$hoist" lift "$library" --all --brighten -O2 --emit obj -o brightened.o 2>lift.err
  local exports brightened
  exports=$(nm -D --defined-only "$library" | awk '$2 == "T" { print $3 }' | sed 's/@.*//' | sort -u)
  brightened=$(nm --defined-only brightened.o | awk '$2 == "T" { print $3 }' | sort -u |
    comm -12 - <(echo "$exports"))
  total=$(echo "$exports" | wc -l)
  count=$(echo "$brightened" | grep -c . || true)
  # Declined functions stay lifted and reference the lifted-code runtime: stubs that trap,
  # never reached from brightened code (a brightened function calls only brightened ones).
  "$(dirname "${BASH_SOURCE[0]}")/../../scripts/trap-stubs.sh" brightened.o >stubs.c
  # Only the brightened exports stay global; the lifted _init's weak __gmon_start__ stays weak.
  local localize=() symbol
  for symbol in $(nm --defined-only brightened.o | awk '$2 == "T" { print $3 }'); do
    echo "$brightened" | grep -qx "$symbol" || localize+=(--localize-symbol="$symbol")
  done
  objcopy --weaken-symbol=__gmon_start__ "${localize[@]}" brightened.o linked.o
  linked=linked.o stubs=stubs.c
  brightened_exports=$brightened
}
