// Known entries of the Windows table generated from mingw-w64's headers and import
// libraries: if the generator misread a header, a DLL or the Microsoft x64 classes, one of
// these fails.
#include "PrototypeTestHelpers.h"

using namespace hoist;
using namespace hoist::testing;

namespace {

const LibraryPrototype &windows(llvm::StringRef name, llvm::StringRef dll) {
  return entryOrNone(findWindowsPrototype(name, dll), dll.str() + "!" + name.str());
}

} // namespace

TEST(WindowsPrototype, ExitProcessNeverReturns) {
  EXPECT_TRUE(windows("ExitProcess", "kernel32.dll").isNoReturn());
  EXPECT_TRUE(windows("ExitThread", "kernel32.dll").isNoReturn());
}

TEST(WindowsPrototype, TerminateProcessAndRaiseExceptionReturn) {
  // Another process's handle; a continuable exception.
  EXPECT_FALSE(windows("TerminateProcess", "kernel32.dll").isNoReturn());
  EXPECT_FALSE(windows("RaiseException", "kernel32.dll").isNoReturn());
  EXPECT_FALSE(windows("RtlRaiseException", "ntdll.dll").isNoReturn());
}

TEST(WindowsPrototype, WriteConsoleAIsKernel32sWithMicrosoftClasses) {
  const LibraryPrototype &write = windows("WriteConsoleA", "KERNEL32.dll");
  EXPECT_STREQ(write.library, "kernel32.dll");
  EXPECT_EQ(write.convention, CallingConvention::Win64);
  EXPECT_EQ(write.result, integer(4)); // WINBOOL
  ASSERT_EQ(write.parameters().size(), 5u);
  EXPECT_EQ(write.parameters()[0], pointer(false)); // HANDLE
  EXPECT_EQ(write.parameters()[1], pointer(true));  // CONST VOID *
  EXPECT_EQ(write.parameters()[2], integer(4));     // DWORD: unsigned long, 4 bytes
  EXPECT_EQ(write.parameters()[3], pointer(false)); // LPDWORD
  EXPECT_EQ(write.parameters()[4], pointer(false)); // LPVOID
  EXPECT_FALSE(write.isVariadic());
  // SAL: _Out_opt_ LPDWORD lpNumberOfCharsWritten is the only memory it writes.
  EXPECT_TRUE(write.hasKnownWrites());
  ASSERT_EQ(write.writes().size(), 1u);
  EXPECT_EQ(write.writes()[0].parameter, 3);
  EXPECT_EQ(write.writes()[0].bytes, 4);
}

TEST(WindowsPrototype, OnlyTheExportingDllHasTheEntry) {
  EXPECT_EQ(findWindowsPrototype("WriteConsoleA", "user32.dll"), nullptr);
  EXPECT_EQ(findWindowsPrototype("#42", "kernel32.dll"), nullptr); // by ordinal
  EXPECT_NE(findWindowsPrototype("MessageBoxA", "user32.dll"), nullptr);
  EXPECT_NE(findWindowsPrototype("RegOpenKeyExA", "advapi32.dll"), nullptr);
  EXPECT_NE(findWindowsPrototype("RtlInitUnicodeString", "ntdll.dll"), nullptr);
}

TEST(WindowsPrototype, MsvcrtStrlenIsNotGlibcs) {
  const LibraryPrototype &msvcrt = windows("strlen", "msvcrt.dll");
  const LibraryPrototype *glibc = findLibraryPrototype("strlen");
  ASSERT_NE(glibc, nullptr);
  EXPECT_NE(&msvcrt, glibc);
  EXPECT_EQ(msvcrt.convention, CallingConvention::Win64);
  EXPECT_EQ(glibc->convention, CallingConvention::SysV);
  EXPECT_EQ(glibc->library, nullptr);
  EXPECT_EQ(findImportPrototype("strlen", "msvcrt.dll"), &msvcrt);
  EXPECT_EQ(findImportPrototype("strlen", ""), glibc);
  // glibc-only names are not found in a DLL, nor DLL-only names in glibc.
  EXPECT_EQ(findImportPrototype("__stack_chk_fail", "msvcrt.dll"), nullptr);
  EXPECT_EQ(findImportPrototype("WriteConsoleA", ""), nullptr);
}

TEST(WindowsPrototype, LongIsFourBytes) {
  EXPECT_EQ(windows("labs", "msvcrt.dll").result, integer(4));
  EXPECT_EQ(findLibraryPrototype("labs")->result, integer(8));
  // ldiv_t, two longs: 8 bytes, returned in rax as one integer.
  AbiType ldiv = windows("ldiv", "msvcrt.dll").result;
  EXPECT_EQ(ldiv.abiClass, AbiClass::StructInRegisters);
  EXPECT_EQ(ldiv.size, 8);
}

TEST(WindowsPrototype, SixteenByteStructsTravelByReference) {
  // double _cabs(struct _complex): 16 bytes, passed as a pointer to a copy.
  const LibraryPrototype &cabs = windows("_cabs", "msvcrt.dll");
  ASSERT_EQ(cabs.parameters().size(), 1u);
  EXPECT_EQ(cabs.parameters()[0].abiClass, AbiClass::ByReference);
  EXPECT_EQ(cabs.parameters()[0].size, 16);
  EXPECT_EQ(cabs.result.abiClass, AbiClass::Double);
  // lldiv_t: returned through a hidden pointer.
  EXPECT_EQ(windows("lldiv", "ucrtbase.dll").result.abiClass, AbiClass::ByReference);
}

TEST(WindowsPrototype, MsvcrtPrintfIsVariadic) {
  const LibraryPrototype &printf = windows("printf", "msvcrt.dll");
  EXPECT_TRUE(printf.isVariadic());
  EXPECT_EQ(printf.result, integer(4));
  ASSERT_EQ(printf.parameters().size(), 1u);
  EXPECT_EQ(printf.parameters()[0], pointer(true));
}

TEST(WindowsPrototype, CrtFunctionsThatNeverReturn) {
  for (const char *name : {"_assert", "_CxxThrowException", "exit", "abort"})
    EXPECT_TRUE(windows(name, "msvcrt.dll").isNoReturn()) << name;
  for (const char *name : {"_invalid_parameter_noinfo_noreturn", "__report_gsfailure"})
    EXPECT_TRUE(windows(name, "ucrtbase.dll").isNoReturn()) << name;
  EXPECT_FALSE(windows("_invalid_parameter_noinfo", "ucrtbase.dll").isNoReturn());
}

TEST(WindowsPrototype, EntriesAreSortedByNameThenDll) {
  llvm::ArrayRef<LibraryPrototype> table = allWindowsPrototypes();
  ASSERT_GT(table.size(), 10000u);
  for (size_t i = 1; i < table.size(); ++i) {
    auto previous = std::make_pair(llvm::StringRef(table[i - 1].name),
                                   llvm::StringRef(table[i - 1].library));
    auto current = std::make_pair(llvm::StringRef(table[i].name),
                                  llvm::StringRef(table[i].library));
    ASSERT_LT(previous, current) << table[i].name;
  }
}
