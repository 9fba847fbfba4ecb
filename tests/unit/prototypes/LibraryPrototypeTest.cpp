// Known entries of the table generated from the system headers: if the generator misread a
// header (a lost attribute, a wrong ABI class), one of these fails.
#include "PrototypeTestHelpers.h"

#include <tuple>
#include <vector>

using namespace hoist;
using namespace hoist::testing;

namespace {

const LibraryPrototype &prototype(llvm::StringRef name) {
  return entryOrNone(findLibraryPrototype(name), name.str());
}

} // namespace

TEST(LibraryPrototype, PrintfIsVariadicAndReturnsInt) {
  const LibraryPrototype &printf = prototype("printf");
  EXPECT_TRUE(printf.isFunction());
  EXPECT_TRUE(printf.isVariadic());
  EXPECT_EQ(printf.result, integer(4));
  ASSERT_EQ(printf.parameters().size(), 1u);
  EXPECT_EQ(printf.parameters()[0], pointer(true));
}

TEST(LibraryPrototype, FunctionsThatNeverReturnAreNoReturn) {
  for (const char *name : {"exit", "_exit", "abort", "__assert_fail", "err", "errx", "verr",
                           "__stack_chk_fail", "__fortify_fail", "longjmp", "siglongjmp",
                           "pthread_exit", "quick_exit", "_Unwind_Resume", "__cxa_throw"})
    EXPECT_TRUE(prototype(name).isNoReturn()) << name;
}

TEST(LibraryPrototype, ErrorReturnsWhenItsStatusIsZero) {
  EXPECT_FALSE(prototype("error").isNoReturn());
  EXPECT_FALSE(prototype("error_at_line").isNoReturn());
  EXPECT_FALSE(prototype("printf").isNoReturn());
}

TEST(LibraryPrototype, StrlenTakesAConstPointerAndReturnsSizeT) {
  const LibraryPrototype &strlen = prototype("strlen");
  EXPECT_EQ(strlen.result, integer(8));
  ASSERT_EQ(strlen.parameters().size(), 1u);
  EXPECT_EQ(strlen.parameters()[0], pointer(true));
  EXPECT_FALSE(strlen.isVariadic());
  EXPECT_TRUE(strlen.isNoThrow());
  EXPECT_TRUE(strlen.isLeaf());
  EXPECT_EQ(prototype("memcpy").parameters()[0], pointer(false));
}

TEST(LibraryPrototype, QsortMayCallBackIntoTheProgram) {
  EXPECT_FALSE(prototype("qsort").isLeaf());
}

TEST(LibraryPrototype, FloatingPointClasses) {
  const LibraryPrototype &sin = prototype("sin");
  EXPECT_EQ(sin.result.abiClass, AbiClass::Double);
  ASSERT_EQ(sin.parameters().size(), 1u);
  EXPECT_EQ(sin.parameters()[0].abiClass, AbiClass::Double);
  EXPECT_EQ(prototype("sinf").result.abiClass, AbiClass::Float);
  const LibraryPrototype &sinl = prototype("sinl");
  EXPECT_EQ(sinl.result.abiClass, AbiClass::LongDouble);
  EXPECT_EQ(sinl.parameters()[0].abiClass, AbiClass::LongDouble);
  EXPECT_EQ(prototype("ldexp").parameters()[1], integer(4));
}

TEST(LibraryPrototype, StructsByValueAreClassifiedByEightbyte) {
  AbiType ldiv = prototype("ldiv").result; // { long quot, rem; }
  EXPECT_EQ(ldiv.abiClass, AbiClass::StructInRegisters);
  EXPECT_EQ(ldiv.size, 16u);
  EXPECT_EQ(ldiv.low, Eightbyte::Integer);
  EXPECT_EQ(ldiv.high, Eightbyte::Integer);
  AbiType cexp = prototype("cexp").result; // _Complex double: two SSE eightbytes
  EXPECT_EQ(cexp.abiClass, AbiClass::StructInRegisters);
  EXPECT_EQ(cexp.low, Eightbyte::Sse);
  EXPECT_EQ(cexp.high, Eightbyte::Sse);
  EXPECT_EQ(prototype("lldiv").result.abiClass, AbiClass::StructInRegisters);
  EXPECT_EQ(prototype("cabsl").parameters()[0].abiClass, AbiClass::ComplexLongDouble);
}

TEST(LibraryPrototype, GlibcInternalsAndFortifiedVariantsArePresent) {
  EXPECT_EQ(prototype("nl_langinfo").result, pointer(false));
  EXPECT_EQ(prototype("__ctype_get_mb_cur_max").result, integer(8));
  EXPECT_EQ(prototype("__errno_location").result, pointer(false));
  const LibraryPrototype &printfChk = prototype("__printf_chk");
  EXPECT_TRUE(printfChk.isVariadic());
  EXPECT_EQ(printfChk.parameters().size(), 2u);
  EXPECT_TRUE(findLibraryPrototype("__memcpy_chk"));
  EXPECT_TRUE(findLibraryPrototype("__isoc99_sscanf"));
}

TEST(LibraryPrototype, TransparentUnionsArePassedAsTheirFirstMember) {
  EXPECT_EQ(prototype("accept").parameters()[1].abiClass, AbiClass::Pointer);
}

TEST(LibraryPrototype, ExternDataObjects) {
  for (const char *name : {"stdout", "stderr", "stdin", "optarg", "environ",
                           "program_invocation_name"}) {
    EXPECT_FALSE(prototype(name).isFunction()) << name;
    EXPECT_EQ(prototype(name).result.abiClass, AbiClass::Pointer) << name;
  }
  EXPECT_EQ(prototype("optind").result, integer(4));
}

TEST(LibraryPrototype, SymbolVersionsAreIgnored) {
  EXPECT_EQ(findLibraryPrototype("memcpy@GLIBC_2.14"), findLibraryPrototype("memcpy"));
  EXPECT_EQ(findLibraryPrototype("memcpy@@GLIBC_2.14"), findLibraryPrototype("memcpy"));
  EXPECT_NE(findLibraryPrototype("memcpy"), nullptr);
}

TEST(LibraryPrototype, NamesNoHeaderDeclaresAreAbsent) {
  EXPECT_EQ(findLibraryPrototype("frobnicate_the_widget"), nullptr);
  EXPECT_EQ(findLibraryPrototype(""), nullptr);
  EXPECT_EQ(findLibraryPrototype("@GLIBC_2.2.5"), nullptr);
}

TEST(LibraryPrototype, TheTableIsSortedAndLarge) {
  llvm::ArrayRef<LibraryPrototype> table = allLibraryPrototypes();
  EXPECT_GT(table.size(), 3000u);
  for (size_t i = 1; i < table.size(); ++i)
    EXPECT_LT(llvm::StringRef(table[i - 1].name), llvm::StringRef(table[i].name));
}

namespace {

std::vector<std::tuple<unsigned, unsigned, int>> writesOf(llvm::StringRef name) {
  std::vector<std::tuple<unsigned, unsigned, int>> writes;
  for (const ParameterWrite &write : prototype(name).writes())
    writes.emplace_back(write.parameter, write.bytes, write.sizeParameter);
  return writes;
}

} // namespace

TEST(LibraryPrototype, KnownWritesComeFromAccessAttributesAndConstParameters) {
  using Writes = std::vector<std::tuple<unsigned, unsigned, int>>;
  // Only const pointers (or none): nothing written through an argument.
  for (const char *name : {"strlen", "strcmp", "puts", "write", "atoi", "abs", "putchar"}) {
    EXPECT_TRUE(prototype(name).hasKnownWrites()) << name;
    EXPECT_TRUE(writesOf(name).empty()) << name;
  }
  // glibc's access attribute: strerror_r writes its second argument for its third's count.
  EXPECT_TRUE(prototype("strerror_r").hasKnownWrites());
  EXPECT_EQ(writesOf("strerror_r"), (Writes{{1, 0, 2}}));
  // AccessAnnotations.h: memset and memcpy write their first argument for the third's count.
  EXPECT_EQ(writesOf("memset"), (Writes{{0, 0, 2}}));
  EXPECT_EQ(writesOf("memcpy"), (Writes{{0, 0, 2}}));
  EXPECT_TRUE(prototype("memcpy").hasKnownWrites());
}

TEST(LibraryPrototype, WritesStayUnknownWhereTheHeadersDoNotTell) {
  // A FILE, an unannotated out pointer (strtol's endptr), a buffer reached through a const
  // struct (readv's iovec), a variadic function (printf's %n), code given (qsort), a write by
  // a function that is not a leaf (read may run a signal handler of the program).
  for (const char *name : {"fwrite", "fclose", "strtol", "readv", "printf", "qsort", "read"})
    EXPECT_FALSE(prototype(name).hasKnownWrites()) << name;
}

TEST(LibraryPrototype, OtherLibrariesWhenTheirHeadersAreInstalled) {
  // LibraryHeaders.h includes each under __has_include: an entry is there only with its -dev
  // package (scripts/install-deps.sh installs them), and then it must be right.
  unsigned found = 0;
  if (const LibraryPrototype *bioPrintf = findLibraryPrototype("BIO_printf")) { // OpenSSL
    ++found;
    EXPECT_TRUE(bioPrintf->hasPrintfFormat());
    EXPECT_EQ(bioPrintf->parameters().size(), 2u);
    EXPECT_EQ(bioPrintf->result, integer(4));
  }
  if (const LibraryPrototype *gcryFree = findLibraryPrototype("gcry_free")) { // libgcrypt
    ++found;
    ASSERT_EQ(gcryFree->parameters().size(), 1u);
    EXPECT_EQ(gcryFree->parameters()[0], pointer(false));
  }
  if (const LibraryPrototype *mpzClear = findLibraryPrototype("__gmpz_clear")) { // GMP's mpz_clear
    ++found;
    EXPECT_EQ(mpzClear->parameters().size(), 1u);
  }
  if (const LibraryPrototype *log = findLibraryPrototype("g_log")) { // GLib, through -I
    ++found;
    EXPECT_TRUE(log->hasPrintfFormat());
    EXPECT_EQ(log->parameters()[1], integer(4)); // GLogLevelFlags, an enum
  }
  if (const LibraryPrototype *get = findLibraryPrototype("mnl_attr_get_u32")) { // libmnl
    ++found;
    EXPECT_EQ(get->result, integer(4));
  }
  if (const LibraryPrototype *send = findLibraryPrototype("gnutls_record_send")) { // GnuTLS
    ++found;
    ASSERT_EQ(send->parameters().size(), 3u);
    EXPECT_EQ(send->result, integer(8));   // ssize_t
  }
  if (const LibraryPrototype *bound = findLibraryPrototype("LZ4F_compressBound")) { // lz4
    ++found;
    EXPECT_EQ(bound->parameters().size(), 2u);
    EXPECT_EQ(bound->result, integer(8));   // size_t
  }
  if (const LibraryPrototype *open = findLibraryPrototype("magic_open")) { // libmagic
    ++found;
    ASSERT_EQ(open->parameters().size(), 1u);
    EXPECT_EQ(open->parameters()[0], integer(4));
    EXPECT_EQ(open->result, pointer(false));
  }
  if (!found)
    GTEST_SKIP() << "none of these libraries' -dev packages is installed";
}
