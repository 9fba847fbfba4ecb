# Sourced by upstream-program.sh for diff: runs Debian's diff and the recompiled one on the
# same files (compare-runs.sh) in every output format and with the options that change what
# counts as a difference. With diffutils' source tree (`apt-get source diffutils`, configured
# and built), also the tree's own test suite (`make -C tests check`), once with Debian's diff
# and once with the recompiled one in place of the one it built (cmp, diff3 and sdiff stay the
# tree's): the same results both times.
# Uses: $binary $tree $status; sets status=1 on a difference.

mkdir -p bright files/a/sub files/b/sub
cp diff.bright bright/diff
seq 1 200 | sed 's/$/ line/' >files/old
seq 1 200 | sed -e 's/$/ line/' -e '50s/line/LINE/' -e '120d' -e '180a\
added   here' -e 's/^7 /7  /' >files/new
printf 'same\n' >files/a/same; printf 'same\n' >files/b/same
printf 'one\n' >files/a/sub/f; printf 'two\n' >files/b/sub/f
printf 'only in a\n' >files/a/only
printf 'x\0y\n' >files/binary
printf 'no newline' >files/nonl
printf 'int f(void)\n{\n  return 1;\n}\n' >files/f1.c
printf 'int f(void)\n{\n  return 2;\n}\n' >files/f2.c


same diff old new
same diff -u old new
same diff -c old new
same diff -U1 -p f1.c f2.c
same diff -y -W 60 old new
same diff -q old new
same diff -s old old
same diff -i -w -B old new
same diff -b old new
same diff -e old new
same diff -n old new
same diff -I LINE old new
same diff --normal --label left --label right old new
same diff -r a b
same diff -rN a b
same diff --brief -r a b
same diff old binary
same diff -a old binary
same diff old nonl
same diff old nosuch
same diff --color=always -u old new
same diff --side-by-side --suppress-common-lines old new
same diff -D NEW f1.c f2.c
same sh -c 'diff -u old new | diff - new; echo $?'
same diff --help
same diff --version
same diff --unknown-option old new
[ $status -eq 0 ] && echo "diff: $checks runs, same output, status and files as the original"

if [ -n "$tree" ]; then
  same_suite "diffutils' test suite" "$tree/src/diff" "$tree/tests"
fi
