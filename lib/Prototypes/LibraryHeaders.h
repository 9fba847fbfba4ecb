/* The translation unit the prototype generator parses (generate_library_prototypes.py):
   every header a Debian C program includes from glibc, and the common libraries' headers
   where their -dev package is installed. Parsed as gnu11 with _GNU_SOURCE and
   _FORTIFY_SOURCE=2 -O2, so the GNU extensions and the fortified __*_chk variants are
   declared. */
#include <sys/cdefs.h>
/* glibc gives its functions __leaf__ only for GCC 4.6 or later, and clang says it is GCC
   4.2; the attribute is glibc's statement about the library, not about the compiler. */
#undef __LEAF
#define __LEAF , __leaf__
#undef __LEAF_ATTR
#define __LEAF_ATTR __attribute__ ((__leaf__))
/* glibc states which pointer arguments a function reads and writes, and through which
   argument's count, with GCC 10's access attribute, which it withholds from clang; kept as
   annotations the generator reads back (what a call may write: docs/PROTOTYPES.md). */
#undef __attr_access
#define __attr_access(x) __attribute__ ((annotate ("hoist-access" #x)))
#undef __fortified_attr_access
#define __fortified_attr_access(a, o, s) __attr_access ((a, o, s))
#undef __attr_access_none
#define __attr_access_none(argno) __attr_access ((__none__, argno))
/* Before <string.h>: an attribute cannot follow its fortified inline definition. */
#include "AccessAnnotations.h"
/* Before <fcntl.h> and <sys/ioctl.h>, for the same reason. */
#include "VariadicAnnotations.h"

/* C11 */
#include <assert.h>
#include <complex.h>
#include <ctype.h>
#include <errno.h>
#include <fenv.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>
#include <uchar.h>
#include <wchar.h>
#include <wctype.h>

/* POSIX and GNU */
#include <aio.h>
#include <alloca.h>
#include <argp.h>
#include <argz.h>
#include <arpa/inet.h>
#include <byteswap.h>
#include <crypt.h>
#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <endian.h>
#include <envz.h>
#include <err.h>
#include <error.h>
#include <execinfo.h>
#include <fcntl.h>
#include <fmtmsg.h>
#include <fnmatch.h>
#include <fts.h>
#include <ftw.h>
#include <getopt.h>
#include <glob.h>
#include <grp.h>
#include <gshadow.h>
#include <iconv.h>
#include <ifaddrs.h>
#include <langinfo.h>
#include <libgen.h>
#include <libintl.h>
#include <link.h>
#include <malloc.h>
#include <mntent.h>
#include <monetary.h>
#include <mqueue.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/ether.h>
#include <netinet/tcp.h>
#include <nl_types.h>
#include <obstack.h>
#include <poll.h>
#include <printf.h>
#include <pthread.h>
#include <pty.h>
#include <pwd.h>
#include <regex.h>
#include <resolv.h>
#include <sched.h>
#include <search.h>
#include <semaphore.h>
#include <shadow.h>
#include <spawn.h>
#include <stdio_ext.h>
#include <sys/auxv.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/io.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/msg.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/sem.h>
#include <sys/sendfile.h>
#include <sys/shm.h>
#include <sys/signalfd.h>
#include <sys/single_threaded.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/swap.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/sysmacros.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/times.h>
#include <sys/timex.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <syslog.h>
#include <termios.h>
#include <ucontext.h>
#include <ulimit.h>
#include <unistd.h>
#include <utime.h>
#include <utmp.h>
#include <utmpx.h>
#include <wordexp.h>

/* The unwinder's interface (libgcc_s), from the compiler's own header: C++ programs and
   C compiled with -fexceptions import _Unwind_Resume and friends. */
#include <unwind.h>

/* Common libraries, when their -dev package is installed */
#if __has_include(<zlib.h>)
#include <zlib.h>
#endif
#if __has_include(<bzlib.h>)
#include <bzlib.h>
#endif
#if __has_include(<lzma.h>)
#include <lzma.h>
#endif
#if __has_include(<sqlite3.h>)
#include <sqlite3.h>
#endif
#if __has_include(<pcre2.h>)
#define PCRE2_CODE_UNIT_WIDTH 8 /* the pcre2_*_8 functions, which grep and others import */
#include <pcre2.h>
#endif
#if __has_include(<sys/acl.h>)
#include <sys/acl.h>
#endif
#if __has_include(<acl/libacl.h>)
#include <acl/libacl.h>
#endif
#if __has_include(<selinux/selinux.h>)
#include <selinux/selinux.h>
#include <selinux/label.h>     /* selabel_open, selabel_lookup: cp, mv, mkdir, install */
#include <selinux/context.h>   /* context_new: chcon */
#include <selinux/avc.h>
#include <selinux/restorecon.h>
#include <selinux/get_context_list.h>
#include <selinux/get_default_type.h>
#endif

/* The C libraries /usr/bin calls most after the C library (docs/PROTOTYPES.md, "Coverage"),
   when their -dev package is installed: GnuPG's libgcrypt and libgpg-error (gpgrt_*), OpenSSL,
   GMP (whose mpz_* macros name the exported __gmpz_* functions). */
#if __has_include(<gcrypt.h>)
#include <gcrypt.h>
#endif
#if __has_include(<gpg-error.h>)
#include <gpg-error.h>
#endif
#if __has_include(<openssl/ssl.h>)
#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/conf.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/ocsp.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#endif
#if __has_include(<gmp.h>)
#include <gmp.h>
#endif
/* GLib, GObject and GIO, D-Bus, e2fsprogs' libext2fs and com_err, libmnl: their directories
   are on the parse's include path (generate_library_prototypes.py, INCLUDE_DIRECTORIES), as
   pkg-config gives them. */
#if __has_include(<glib.h>)
#include <glib.h>
#include <glib-object.h>
#include <gio/gio.h>
#endif
#if __has_include(<dbus/dbus.h>)
#include <dbus/dbus.h>
#endif
#if __has_include(<ext2fs/ext2fs.h>)
#include <ext2fs/ext2fs.h>
#endif
#if __has_include(<et/com_err.h>)
#include <et/com_err.h>
#endif
#if __has_include(<libmnl/libmnl.h>)
#include <libmnl/libmnl.h>
#endif
/* systemd's public library, GnuPG's libassuan and libksba, util-linux's libmount, libblkid
   and libsmartcols, MPFR, libcurl, elfutils' libelf and libdw, Python's C API (its
   version's directory on the include path). */
#if __has_include(<systemd/sd-bus.h>)
#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-device.h>
#include <systemd/sd-event.h>
#include <systemd/sd-hwdb.h>
#include <systemd/sd-id128.h>
#include <systemd/sd-journal.h>
#include <systemd/sd-login.h>
#endif
#if __has_include(<assuan.h>)
#include <assuan.h>
#endif
#if __has_include(<ksba.h>)
#include <ksba.h>
#endif
#if __has_include(<libmount/libmount.h>)
#include <libmount/libmount.h>
#endif
#if __has_include(<blkid/blkid.h>)
#include <blkid/blkid.h>
#endif
#if __has_include(<libsmartcols/libsmartcols.h>)
#include <libsmartcols/libsmartcols.h>
#endif
#if __has_include(<mpfr.h>)
#include <mpfr.h>
#endif
#if __has_include(<curl/curl.h>)
#include <curl/curl.h>
#endif
#if __has_include(<libelf.h>)
#include <gelf.h>
#include <libelf.h>
#endif
#if __has_include(<elfutils/libdw.h>)
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#endif
#if __has_include(<Python.h>)
#include <Python.h>
#endif

/* The libraries of Debian's network and compression tools (wget, curl's users, zstd, lz4,
   file), when their -dev package is installed. */
#if __has_include(<gnutls/gnutls.h>)
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <gnutls/crypto.h>
#include <gnutls/abstract.h>
#endif
#if __has_include(<idn2.h>)
#include <idn2.h>
#endif
#if __has_include(<libpsl.h>)
#include <libpsl.h>
#endif
#if __has_include(<uuid/uuid.h>)
#include <uuid/uuid.h>
#endif
#if __has_include(<magic.h>)
#include <magic.h>
#endif
#if __has_include(<lz4frame.h>)
#include <lz4.h>
#include <lz4hc.h>
#include <lz4frame.h>
#endif
#if __has_include(<zstd.h>)
#include <zstd.h>
#include <zdict.h>
#endif

#include "AbiSymbols.h"

/* ncurses and its terminfo interface, last: <term.h> defines capability names such as
   `lines` and `columns` as macros, which would rename any later header's parameters. */
#if __has_include(<term.h>) && __has_include(<curses.h>)
#include <curses.h>
#include <term.h>
#endif
