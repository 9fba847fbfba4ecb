# Sourced by upstream-program.sh for gzip: runs Debian's gzip and the recompiled one
# (bright/gzip) on the same files, each in a fresh copy of them, and compares what they write
# to stdout and stderr, how they exit, and the files they leave.
# Uses: $binary $status; sets status=1 on a difference.

mkdir -p bright files
cp gzip.bright bright/gzip
# Text, binary (the program itself), empty, compressed, corrupted and truncated inputs.
seq 1 20000 | sed 's/$/ lines of text/' >files/text
head -c 200000 "$binary" >files/binary
: >files/empty
printf 'not compressed\n' >files/plain
"$binary" -c -n files/text >files/text.gz
"$binary" -c -n -9 files/binary >files/binary.gz
head -c 3000 files/text.gz >files/truncated.gz
{ head -c 2000 files/text.gz; printf 'XXXXXXXX'; tail -c +2009 files/text.gz; } >files/corrupt.gz

same gzip -c -n -1 text
same gzip -c -n -9 binary
same gzip -c -n -6 empty
same gzip -n -k text
same gzip -n binary plain
same gzip -d text.gz
same gzip -c -d binary.gz
same gzip -t text.gz binary.gz
same gzip -l text.gz binary.gz
same gzip -l -v text.gz
same gzip -t corrupt.gz
same gzip -d -c truncated.gz
same gzip -d plain
same gzip -c --rsyncable -n text
same gzip -c -n --fast binary
same gzip -c -n --best text
same gzip -v -n -k binary
same gzip -k text.gz
same gzip -c -d -f plain
same gzip nosuchfile
same gzip --bogus
same gzip --help
same gzip -V
[ $status -eq 0 ] && echo "gzip: $checks runs, same output, status and files as the original"
