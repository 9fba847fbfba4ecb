# Sourced by upstream-program.sh for bzip2: runs Debian's bzip2 and the recompiled one
# (bright/bzip2, with bunzip2 and bzcat linked to it: bzip2 picks its mode by argv[0]'s name)
# on the same files, each in a fresh copy of them, and compares what they write to stdout and
# stderr, how they exit, and the files they leave. With bzip2's source tree (`apt-get source
# bzip2`), also the tree's `make test` (its three samples compressed at -1, -2, -3 and
# decompressed, byte for byte against the shipped ones) and Debian's own package tests
# (debian/tests: compress, compare, grep, bzexe-test; bigfile, 2 GiB, is left out) with the
# recompiled program first in PATH.
# Uses: $binary $work $tree $status; sets status=1 on a difference.

mkdir -p bright files
cp bzip2.bright bright/bzip2
ln -sf bzip2 bright/bunzip2
ln -sf bzip2 bright/bzcat
# Text, binary (the program itself), empty, compressed, corrupted and truncated inputs.
seq 1 20000 | sed 's/$/ lines of text/' >files/text
head -c 200000 "$binary" >files/binary
: >files/empty
printf 'not compressed\n' >files/plain
"$binary" -c files/text >files/text.bz2
"$binary" -c -9 files/binary >files/binary.bz2
head -c 3000 files/text.bz2 >files/truncated.bz2
{ head -c 2000 files/text.bz2; printf 'XXXXXXXX'; tail -c +2009 files/text.bz2; } \
  >files/corrupt.bz2

same bzip2 -c -1 text
same bzip2 -9 -c binary
same bzip2 -k text
same bzip2 binary empty
same bzip2 -d text.bz2
same bzip2 -dk text.bz2
same bzip2 -d -f binary.bz2
same bunzip2 text.bz2
same bunzip2 plain
same bzcat text.bz2 binary.bz2
same bzip2 -t text.bz2 binary.bz2
same bzip2 -t corrupt.bz2
same bzip2 -d truncated.bz2
same bzip2 -dc corrupt.bz2
same bzip2 -vv -c text
same bzip2 -v -k -5 binary
same bzip2 -ds -c text.bz2
same bzip2 -q nosuch
same bzip2 text.bz2
same bzip2 -k text text
same sh -c 'bzip2 < empty | bzip2 -d | wc -c'
same sh -c 'bzip2 -3 < binary | bzip2 -dc | cmp - binary'
same bzip2 --fast --stdout text
same bzip2 -L
same bzip2 --help
same bzip2 -V
same bzip2 --unknown-option text
[ $status -eq 0 ] && echo "bzip2: $checks runs, same output, status and files as the original"

if [ -n "$tree" ]; then
  suite=0 passed=0
  for level in 1 2 3; do
    suite=$((suite + 2))
    bright/bzip2 -$level <"$tree/sample$level.ref" | cmp -s - "$tree/sample$level.bz2" &&
      passed=$((passed + 1))
    option=-d
    [ $level = 3 ] && option=-ds
    bright/bzip2 $option <"$tree/sample$level.bz2" | cmp -s - "$tree/sample$level.ref" &&
      passed=$((passed + 1))
  done
  for test in compress compare grep bzexe-test; do
    suite=$((suite + 1))
    rm -rf autopkgtest && mkdir autopkgtest
    if AUTOPKGTEST_TMP=$PWD/autopkgtest PATH="$PWD/bright:$PATH" \
        sh "$tree/debian/tests/$test" >"autopkgtest-$test.log" 2>&1; then
      passed=$((passed + 1))
    else
      echo "fails: debian/tests/$test"; tail -3 "autopkgtest-$test.log"
    fi
  done
  echo "bzip2's make test and Debian's package tests: $passed of $suite pass"
  [ $passed -eq $suite ] || status=1
fi
