// Calls that never return at one call site but may at another: error() and error_at_line()
// exit when their status argument (edi) is not zero. Raw bytes at 0x1000, from GNU as.
#include "Discover/NoReturn.h"
#include "Discover/FunctionDiscovery.h"
#include "Support/Diagnostics.h"

#include <gtest/gtest.h>

using namespace hoist;

namespace {

constexpr uint64_t Base = 0x1000;

// xor edi, edi; call F; mov edi, 1; call F; mov eax, 2; ret; F: ret
const std::vector<uint8_t> TwoErrorCalls = {0x31, 0xff, 0xe8, 0x10, 0x00, 0x00, 0x00, 0xbf,
                                            0x01, 0x00, 0x00, 0x00, 0xe8, 0x06, 0x00, 0x00,
                                            0x00, 0xb8, 0x02, 0x00, 0x00, 0x00, 0xc3, 0xc3};

DiscoveredFunction discoverWithErrorAt(uint64_t error) {
  std::unique_ptr<Image> image = Image::fromRawBytes(TwoErrorCalls, Base);
  InstructionCache cache(*image);
  DiagnosticSink diagnostics;
  std::set<uint64_t> callees{error};
  ExploreHints hints;
  hints.noreturnWhenStatusNonzero = &callees;
  return discoverFunction(*image, cache, Base, LiftOptions{}, diagnostics, hints);
}

} // namespace

TEST(NoReturn, ErrorWithANonzeroStatusDoesNotReturn) {
  DiscoveredFunction function = discoverWithErrorAt(0x1017);
  ASSERT_EQ(function.calls.size(), 2u);
  EXPECT_FALSE(function.calls[0].noreturn); // error (0, ...) returns
  EXPECT_TRUE(function.calls[1].noreturn);  // error (1, ...) exits
  // The code after the second call is not the function's, and every way out is that call.
  for (const auto &[start, block] : function.explored.blocks)
    EXPECT_LE(block.endAddress, 0x1011u);
  EXPECT_TRUE(function.noreturn);
}

TEST(NoReturn, OtherCalleesWithAStatusStillReturn) {
  DiscoveredFunction function = discoverWithErrorAt(0x2000); // F is not error()
  ASSERT_EQ(function.calls.size(), 2u);
  EXPECT_FALSE(function.calls[1].noreturn);
  EXPECT_FALSE(function.noreturn);
}

TEST(NoReturn, ErrorAndErrorAtLineAreRecognizedByName) {
  EXPECT_TRUE(isNoReturnWhenStatusNonzeroName("error"));
  EXPECT_TRUE(isNoReturnWhenStatusNonzeroName("error_at_line@GLIBC_2.2.5"));
  EXPECT_FALSE(isNoReturnWhenStatusNonzeroName("error_print_progname"));
  EXPECT_FALSE(isKnownNoReturnName("error")); // error (0, ...) returns
}

TEST(NoReturn, NeverReturningImportsComeFromTheHeaders) {
  for (const char *name : {"exit", "_exit", "abort", "__assert_fail", "err", "errx", "verr",
                           "__stack_chk_fail@GLIBC_2.4", "__fortify_fail", "longjmp",
                           "__longjmp_chk", "pthread_exit@@GLIBC_2.34"})
    EXPECT_TRUE(isKnownNoReturnName(name)) << name;
  for (const char *name : {"printf", "error", "malloc", "frobnicate"})
    EXPECT_FALSE(isKnownNoReturnName(name)) << name;
}

TEST(NoReturn, NeverReturningDllImportsComeFromTheMingwHeaders) {
  EXPECT_TRUE(isKnownNoReturnImport("ExitProcess", "KERNEL32.dll"));
  EXPECT_TRUE(isKnownNoReturnImport("ExitThread", "kernel32.dll"));
  EXPECT_TRUE(isKnownNoReturnImport("FatalExit", "kernel32.dll"));
  EXPECT_TRUE(isKnownNoReturnImport("_assert", "msvcrt.dll"));
  EXPECT_TRUE(isKnownNoReturnImport("_CxxThrowException", "msvcrt.dll"));
  EXPECT_TRUE(isKnownNoReturnImport("_invalid_parameter_noinfo_noreturn", "ucrtbase.dll"));
  EXPECT_TRUE(isKnownNoReturnImport("exit", "msvcrt.dll"));
  for (const char *name : {"TerminateProcess", "RaiseException", "GetLastError"})
    EXPECT_FALSE(isKnownNoReturnImport(name, "kernel32.dll")) << name;
  EXPECT_FALSE(isKnownNoReturnImport("RtlRaiseException", "ntdll.dll"));
  // A DLL's name is looked up with its DLL only, and an ELF import never in a DLL.
  EXPECT_FALSE(isKnownNoReturnImport("ExitProcess", "user32.dll"));
  EXPECT_FALSE(isKnownNoReturnName("ExitProcess"));
  EXPECT_FALSE(isKnownNoReturnImport("__stack_chk_fail", "msvcrt.dll"));
}
