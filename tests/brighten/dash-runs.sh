# Sourced by upstream-program.sh for dash: runs Debian's dash and the recompiled one
# (compare-runs.sh) on shell scripts that exercise its parser, expansions, arithmetic, here
# documents, traps, signals, builtins, functions, redirections and errors: the same output,
# status and files each time. Debian's dash package has no test suite of its own.
# Uses: $binary $status; sets status=1 on a difference.

rm -rf files run
mkdir -p bright files
cp dash.bright bright/dash
printf 'one two three\nfour five\n' >files/words
cat >files/script.sh <<'SCRIPT'
count() { n=0; for w in $(cat "$1"); do n=$((n + 1)); done; echo "$1: $n"; }
count words
while read -r first rest; do echo "first=$first rest=$rest"; done <words
exec 3>out; echo "to fd 3" >&3; exec 3>&-; cat out
SCRIPT

same dash -c 'echo hello; x=3; echo $((x * 7 + 2))'
same dash -c 'for i in 1 2 3; do echo $i; done | sort -r'
same dash -c 'f() { local a=$1; echo "f:$a"; return 3; }; f zz; echo $?'
same dash -c 'case abc in a*) echo A ;; *) echo B ;; esac'
same dash -c 'set -- a "b c" d; for x in "$@"; do echo "[$x]"; done; echo $#'
same dash -c 'x=hello; echo ${x#he} ${x%lo} ${#x} ${x:-def} ${y:-def} ${x##*l} ${x%%l*}'
same dash -c 'echo $(echo nested $(echo deep)) `echo back`'
same dash -c 'i=0; while [ $i -lt 1000 ]; do i=$((i + 1)); done; echo $i'
same dash -c 'cat <<EOT
here $((2 + 2)) doc
EOT'
same dash -c 'trap "echo trapped" EXIT; echo body'
same dash -c 'trap "echo got INT" INT; kill -s INT $$; echo after'
same dash -c 'kill -s TERM $$; echo not reached'
same dash -c 'read a b <words; echo "$a|$b"'
same dash -c 'printf "%s-%d-%x-%5.2f|%-4s|\n" str 42 255 3.14159 ab'
same dash -c 'exit 7'
same dash -c 'false || echo or; true && echo and; ! false && echo not'
same dash -c 'echo a >f1; echo b >>f1; cat f1; wc -l <f1; rm f1'
same dash -c 'unset x; echo ${x?missing}'
same dash -c 'eval "y=5"; echo $y; type echo; type cd'
same dash -c 'IFS=:; set -- a:b:c; echo $2'
same dash -c '(exit 4); echo $?; { echo grouped; }'
same dash -c 'echo $((1 << 40)) $((7 / 2)) $((-7 % 3)) $((0x10)) $((010)) $((3 > 2 ? 5 : 6))'
same dash -c 'echo $((1 / 0))'
same dash -c 'test -d . && echo dir; [ abc = abc ] && echo eq; [ 3 -gt 20 ] || echo le'
same dash -c 'sleep 0 & wait $!; echo waited $?'
same dash -c 'umask 022; umask; ulimit -n >/dev/null && echo limits'
same dash -c 'getopts ab: o -b val; echo $o $OPTARG $OPTIND'
same dash -c 'export Z=1; env | grep "^Z="'
same dash -c 'echo "${undefined_long_name:=assigned}"; echo $undefined_long_name'
same dash -c 'alias ll="echo aliased"
ll'
same dash -c 'x=$(printf "%050d" 0); echo ${#x}'
same dash -c 'echo *.nonexistent; echo w*'
same dash -c 'syntax error here ('
same dash -c 'cd /nonexistent'
same dash -c 'nosuchcommand'
same dash -c 'set -e; false; echo not reached'
same dash -c 'set -u; echo $unset_variable'
same dash -x -c 'a=1; echo $a'
same dash script.sh
same dash -n script.sh
same dash -c 'yes | head -3'
same dash -c 'for i in $(seq 1 300); do echo "line $i"; done | tail -2'
[ $status -eq 0 ] && echo "dash: $checks runs, the same output, status and files as the original"
