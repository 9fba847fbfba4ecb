// Paths of the binaries tests/unit/image/CMakeLists.txt compiles, and of the tools whose
// output is the truth the loader is checked against.
#pragma once

#include <gtest/gtest.h>
#include <llvm/Support/Path.h>

#include <cctype>
#include <string>

namespace hoist::test {

inline constexpr const char *elfExecutable = HOIST_TEST_ELF_EXECUTABLE;
inline constexpr const char *elfPie = HOIST_TEST_ELF_PIE;
inline constexpr const char *elfPieIbt = HOIST_TEST_ELF_PIE_IBT;
inline constexpr const char *elfLibrary = HOIST_TEST_ELF_LIBRARY;
inline constexpr const char *peDll = HOIST_TEST_PE_DLL;
inline constexpr const char *peExecutable = HOIST_TEST_PE_EXECUTABLE;

inline constexpr const char *llvmToolsDir = HOIST_TEST_LLVM_TOOLS;
inline constexpr const char *gnuObjdump = HOIST_TEST_GNU_OBJDUMP;

/// A parameterized test's name from the file name of its binary: "elf_pie_ibt", "hoist_test_dll".
inline std::string testNameOfBinary(const testing::TestParamInfo<const char *> &info) {
  std::string name = llvm::sys::path::filename(info.param).str();
  for (char &c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return name;
}

} // namespace hoist::test
