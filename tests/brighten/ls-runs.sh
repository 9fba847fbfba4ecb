# Sourced by upstream-program.sh for ls: runs Debian's ls and the recompiled one on the same
# tree of files (compare-runs.sh) with fixed times, modes, links and awkward names, in each
# format, sort order, quoting style and size unit. With coreutils' source tree (`apt-get source
# coreutils`, configured and built), also the tree's own ls tests (`make check` of
# tests/ls/*), once with Debian's ls and once with the recompiled one in place of the one it
# built: the same results both times.
# Uses: $binary $tree $status; sets status=1 on a difference.

rm -rf files run
mkdir -p bright files/d/sub files/d/.hidden-dir
cp ls.bright bright/ls
(
  cd files/d
  printf 'hello\n' >c
  head -c 5000 /dev/zero >big
  : >a; : >b; : >'with space'; : >"$(printf 'tab\there')"; : >'quote"s'; : >"it's"
  : >"$(printf 'caf\xc3\xa9')"; : >"$(printf 'raw\xffbyte')"; : >.hidden
  : >v10.txt; : >v9.txt; : >v1.2.txt
  chmod 755 b; chmod 600 a; chmod 1777 sub
  ln -s c link; ln -s nowhere dangling; ln c hardlink
  mkfifo fifo
  touch -h -d '2020-01-02 03:04:05' a b c big link dangling .hidden sub
  touch -d '2019-06-07 08:09:10' v10.txt v9.txt v1.2.txt 'with space'
  touch -d '2030-01-01 00:00:00' fifo
)

# Times print in the zone ls finds: one fixed zone for both.
export TZ=UTC LC_ALL=C.UTF-8
same ls d
same ls -a d
same ls -A -1 d
same ls -l d
same ls -la --time-style=full-iso d
same ls -l --time-style=+%Y-%m-%d d
same ls -lh d
same ls -ls --block-size=K d
same ls -lR d
same ls -lt d
same ls -ltr d
same ls -lS d
same ls -lX d
same ls -v d
same ls -lU d
# Each run has its own copy of the files, whose inode numbers need not repeat: each number is
# checked against stat's for its name instead of against the other run's.
same sh -c 'ls -i -1 d | while read -r inode name; do
  [ "$inode" = "$(stat -c %i "d/$name")" ] && echo "$name: its inode" || echo "$name: $inode"; done'
same ls -F d
same ls --indicator-style=slash d
same ls -p -C -w 30 d
same ls -x -w 50 d
same ls -m d
same ls -n d
same ls -o -g d
same ls -L -l d
same ls -d d d/sub
same ls -Q d
same ls -b d
same ls -q d
same ls --quoting-style=shell-escape d
same ls --quoting-style=c d
same ls --color=always d
same ls --group-directories-first d
same ls --hide='v*' d
same ls -I '*.txt' d
same ls -l --author d
same ls --zero d
same ls -1 nosuch d/c
same ls --sort=nosuch d
same ls --help
same ls --version
[ $status -eq 0 ] && echo "ls: $checks runs, same output, status and files as the original"

if [ -n "$tree" ]; then
  same_suite "coreutils' ls tests" "$tree/src/ls" "$tree" \
    TESTS="$(cd "$tree" && echo tests/ls/*.sh)" SUBDIRS=.
fi
