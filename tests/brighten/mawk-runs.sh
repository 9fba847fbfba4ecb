# Sourced by upstream-program.sh for mawk: runs Debian's mawk and the recompiled one
# (compare-runs.sh) on programs that call every kind of builtin (mawk calls them through a
# table, so each returns its stack pointer in RAX beside a double it may leave in XMM0),
# fields, arrays, regular expressions, printf formats, getline, pipes and errors: the same
# output, status and files each time. mawk's test suite is not in Debian's package.
# Uses: $binary $status; sets status=1 on a difference.

rm -rf files run
mkdir -p bright files
cp mawk.bright bright/mawk
printf 'alpha 3 x\nbeta 14 y\ngamma 15 x\ndelta 92 z\n' >files/table
printf 'a:b:c\n1:2:3\n' >files/colons

same mawk 'BEGIN { print length("hello"), length(), toupper("x"), tolower("ABC") }'
same mawk 'BEGIN { print index("hello", "l"), int(3.7), int(-3.7), sqrt(16), sqrt(2) }'
same mawk 'BEGIN { print sin(0), cos(0), exp(1), log(10), atan2(1, 2) }'
same mawk 'BEGIN { print substr("hello", 2, 3), substr("hello", 0), substr("hello", 4, 100) }'
same mawk 'BEGIN { n = split("a b  c", A); print n, A[1], A[3]; n = split("1:2", B, ":"); print n, B[2] }'
same mawk 'BEGIN { x = "abcabc"; print gsub(/b/, "B", x), x; y = "aaa"; print sub(/a/, "[&]", y), y }'
same mawk 'BEGIN { print match("foobar", /ob/), RSTART, RLENGTH; print match("x", /y/), RSTART, RLENGTH }'
same mawk 'BEGIN { printf "%5.2f|%-4s|%x|%o|%e|%c|%c|%%\n", 3.14159, "ab", 255, 8, 12345.678, 65, "hi" }'
same mawk 'BEGIN { srand(7); a = rand(); srand(7); b = rand(); print (a == b), (a < 1), srand() }'
same mawk 'BEGIN { s = sprintf("%03d-%s", 7, "x"); print s, length(s) }'
same mawk '{ s += $2; n[$3]++ } END { print s, NR; for (k in n) c++; print c }' files/table
same mawk '$2 > 10 { print $1, $2 * 2 }' files/table
same mawk -F: '{ print $2, NF; $2 = "Z"; print }' files/colons
same mawk -v OFS=- '{ $1 = $1; print }' files/table
same mawk 'NR == 2, NR == 3 { print NR ": " $0 }' files/table
same mawk '/^[bg]/ { print toupper($1) } !/a$/ { print "no a:", $1 }' files/table
same mawk 'BEGIN { while ((getline line < "files/table") > 0) n++; print n; close("files/table") }'
same mawk 'BEGIN { "echo piped" | getline x; print x; print "sorted" | "sort"; close("sort") }'
same mawk 'function f(a, b) { return a * b + 1 } BEGIN { print f(6, 7), f("3", "4") }'
same mawk 'function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) } BEGIN { print fib(20) }'
same mawk 'BEGIN { a["x"] = 1; delete a["x"]; print ("x" in a), length(a) }'
same mawk 'BEGIN { x = 1e300 * 1e300; print x, -x, x - x == x - x, 2 ^ 10, 7 % 3, -7 % 3 }'
same mawk 'BEGIN { print 1 / 3; OFMT = "%.2f"; print 1 / 3; CONVFMT = "%.3f"; y = 1 / 3 ""; print y }'
same mawk 'BEGIN { print substr("x", 1, -1) "|" index("", "") "|" length(12345) }'
same mawk 'BEGIN { printf "%d %i %5s %-5d|\n", "12abc", 3.9, "ab", 42 }'
same mawk 'BEGIN { exit 3 } END { print "end runs" }'
same mawk 'BEGIN { print "to stderr" > "/dev/stderr"; print "out" > "files/out"; close("files/out"); getline l < "files/out"; print l }'
same mawk 'BEGIN { print 1'
same mawk -f files/missing.awk
same mawk -W version
[ $status -eq 0 ] && echo "mawk: $checks runs, the same output, status and files as the original"
