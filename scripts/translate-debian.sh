#!/usr/bin/env bash
# Translates Debian's own programs (from /usr/bin) without --allow-unsupported and runs each
# workload below with the original and with the translation, comparing stdout, stderr and the
# exit statuses of the pipeline (PIPESTATUS). Each workload runs with the program's directory
# first in PATH, so both are called by the same name. Prints one line per workload and a
# summary; the translations stay in WORKDIR/translated.
# Usage: scripts/translate-debian.sh HOIST WORKDIR [PROGRAM...]   (default: all listed below)
set -uo pipefail
hoist=$(readlink -f "$1") work=$2
shift 2
mkdir -p "$work/original" "$work/translated" "$work/scratch"
work=$(cd "$work" && pwd)

declare -A workloads
# One workload a line. SIGPIPE: a reader that stops early (`| head`) on more output than a pipe
# holds, so the writer is sure to meet the closed pipe; the statuses show how each end of the
# pipe finished. Short output (--version) goes to `sed -n 1p`, which reads it all: `head`
# would race the writer. SIGINT: `timeout --preserve-status -s INT 1` while the program waits on a pipe that
# stays silent for 3 s, so that the signal finds it waiting (on an idle machine).
workloads[bc]="bc --version | sed -n 1p
echo '1/0; 2+2' | bc
printf '1/0\n2+2\n' | bc
echo 'scale=30; 4*a(1)' | bc -l
echo 'for (i = 0; i < 100000; i++) i' | bc | head -n 1
(sleep 3; echo 2+2) | timeout --preserve-status -s INT 1 bc"
workloads[ed]="ed --version | sed -n 1p
printf 'a\nhello\nworld\n.\n,n\n1d\n,p\nQ\n' | ed -s
printf 'x\n,p\nzz\nQ\n' | ed -s
(echo a; echo line; echo .; sleep 3; echo ,p; echo Q) | timeout --preserve-status -s INT 1 ed -s"
workloads[gawk]="gawk --version | sed -n 1p
seq 10 | gawk '{ s += \$1 } END { print s }'
gawk 'BEGIN { x = 0; print 1 / x }'
gawk 'BEGIN { while (1) print \"y\" }' | head -n 2
gawk 'BEGIN { printf \"%s %d\n\", substr(\"abcdef\", 2, 3), index(\"abc\", \"c\") }'"
workloads[m4]="m4 --version | sed -n 1p
printf '%s\n' 'define(x, hello)dnl' 'x world' 'eval(2**10)' | m4
echo 'undefine(' | m4"
workloads[flex]="flex --version
printf '%s\n' '%%' 'abc printf(\"x\");' '%%' | flex -t | md5sum
printf '%s\n' '%%' '[abc' | flex -t"
workloads[less]="less --version | sed -n 1p
seq 100 | less | tail -n 2
seq 100000 | less | head -n 1"
workloads[nano]="nano --version | sed -n 1p"
workloads[make]="make --version | sed -n 1p
printf 'all:\n\t@echo made \$(words a b c)\n' | make -s -f -
printf 'all: missing\n' | make -f -"
workloads[patch]="patch --version | sed -n 1p
cd $work/scratch && seq 5 > f && printf -- '--- f\n+++ f\n@@ -2 +2 @@\n-2\n+two\n' | patch -s f && cat f"
workloads[diff]="diff --version | sed -n 1p
diff <(seq 5) <(seq 6 | sed s/3/x/)
diff -r $work/original $work/original"
workloads[cmp]="cmp --version | sed -n 1p
cmp <(seq 5) <(seq 6)
cmp <(seq 5) <(seq 5 | sed s/3/x/)"
workloads[gzip]="gzip --version | sed -n 1p
seq 10000 | gzip -9c | md5sum
seq 10000 | gzip -c | gzip -dc | md5sum
echo x | gzip -dc
(sleep 3) | timeout --preserve-status -s INT 1 gzip -c | wc -c
seq 1000000 | gzip -c | head -c 1 | wc -c"
workloads[xz]="xz --version | sed -n 1p
seq 10000 | xz -c | md5sum
seq 10000 | xz -c | xz -dc | md5sum
seq 1000000 | xz -0 -c | head -c 1 | wc -c"
workloads[tar]="tar --version | sed -n 1p
cd $work/scratch && mkdir -p d && seq 5 > d/f && tar cf - d | tar tf -
tar tf /nonexistent.tar"
workloads[grep]="grep --version | sed -n 1p
seq 100 | grep 7
yes | grep y | head -n 1
seq 10 | grep -c x"
workloads[find]="find --version | sed -n 1p
find $work/original -name '[a-f]*' | sort
find /nonexistent"
workloads[bzip2]="bzip2 --help 2>&1 | sed -n 1p
seq 10000 | bzip2 -c | md5sum
seq 10000 | bzip2 -c | bzip2 -dc | md5sum
seq 1000000 | bzip2 -c | head -c 1 | wc -c"

programs=("$@")
[ ${#programs[@]} -eq 0 ] && programs=(bc ed gawk m4 flex less nano make patch diff cmp gzip xz tar grep find bzip2)
translated=0 refused=0 same=0 different=0
for program in "${programs[@]}"; do
  path=$(readlink -f "$(command -v "$program")")
  cp "$path" "$work/original/$program"
  start=$(date +%s)
  if ! "$hoist" translate "$work/original/$program" -o "$work/translated/$program" \
      2>"$work/$program.translate-log"; then
    echo "$program: not translated: $(grep -v warning "$work/$program.translate-log" | head -3 | tr '\n' ' ')"
    refused=$((refused + 1)); continue
  fi
  translated=$((translated + 1))
  echo "$program: translated in $(( $(date +%s) - start )) s"
  n=0
  while IFS= read -r workload; do
    n=$((n + 1))
    for side in original translated; do
      (cd "$work/scratch" && rm -rf d f f.orig &&
       PATH="$work/$side:$PATH" timeout 120 bash -c "$workload; echo \"status \${PIPESTATUS[*]}\"" \
         >"$work/$program.$n.$side.out" 2>"$work/$program.$n.$side.err")
    done
    if cmp -s "$work/$program.$n.original.out" "$work/$program.$n.translated.out" &&
       cmp -s "$work/$program.$n.original.err" "$work/$program.$n.translated.err"; then
      same=$((same + 1))
      echo "  same: $workload ($(tail -n 1 "$work/$program.$n.original.out"))"
    else
      different=$((different + 1))
      echo "  DIFFERENT: $workload"
      diff "$work/$program.$n.original.out" "$work/$program.$n.translated.out" | head -5
      diff "$work/$program.$n.original.err" "$work/$program.$n.translated.err" | head -5
    fi
  done <<<"${workloads[$program]:-$program --version}"
done
echo "translated $translated of ${#programs[@]} (refused $refused); workloads: $same the same, $different different"
