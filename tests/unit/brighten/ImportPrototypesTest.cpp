// The C library prototypes brightening calls imports with.
#include "Brighten/ImportPrototypes.h"

#include <gtest/gtest.h>

using namespace hoist;

TEST(ImportPrototypes, StrlenTakesAPointerAndReturnsASize) {
  auto prototype = importPrototype("strlen", "");
  ASSERT_TRUE(std::holds_alternative<ImportPrototype>(prototype));
  const ImportPrototype &strlen = std::get<ImportPrototype>(prototype);
  EXPECT_EQ(strlen.result, CType::Long);
  EXPECT_EQ(strlen.arguments, std::vector<CType>{CType::Pointer});
}

TEST(ImportPrototypes, MathFunctionsTakeDoubles) {
  auto prototype = importPrototype("pow", "");
  ASSERT_TRUE(std::holds_alternative<ImportPrototype>(prototype));
  EXPECT_EQ(std::get<ImportPrototype>(prototype).result, CType::Double);
  EXPECT_EQ(std::get<ImportPrototype>(prototype).arguments,
            (std::vector<CType>{CType::Double, CType::Double}));
}

TEST(ImportPrototypes, FormattedVariadicFunctionsKnowTheirFormat) {
  for (const char *name : {"printf", "__fprintf_chk", "error", "__snprintf_chk", "syslog"}) {
    auto prototype = importPrototype(name, "");
    ASSERT_TRUE(std::holds_alternative<ImportPrototype>(prototype)) << name;
    EXPECT_EQ(std::get<ImportPrototype>(prototype).variadic, VariadicRule::PrintfFormat) << name;
  }
  auto scan = importPrototype("__isoc99_sscanf", "");
  ASSERT_TRUE(std::holds_alternative<ImportPrototype>(scan));
  EXPECT_EQ(std::get<ImportPrototype>(scan).variadic, VariadicRule::ScanfFormat);
}

TEST(ImportPrototypes, VariadicFunctionsWithoutAFormatHaveTheirManualsRule) {
  for (auto [name, rule] : {std::pair{"open", VariadicRule::ModeIfCreating},
                            {"open64", VariadicRule::ModeIfCreating},
                            {"openat", VariadicRule::ModeIfCreating},
                            {"fcntl", VariadicRule::ArgumentByCommand},
                            {"fcntl64", VariadicRule::ArgumentByCommand},
                            {"ioctl", VariadicRule::OneArgument},
                            {"syscall", VariadicRule::SixLongs},
                            {"execl", VariadicRule::NullTerminated},
                            {"execlp", VariadicRule::NullTerminated},
                            {"execle", VariadicRule::NullTerminatedThenOne}}) {
    auto prototype = importPrototype(name, "");
    ASSERT_TRUE(std::holds_alternative<ImportPrototype>(prototype)) << name;
    EXPECT_EQ(std::get<ImportPrototype>(prototype).variadic, rule) << name;
    EXPECT_FALSE(formatKindOf(rule)) << name;
  }
  // The fortified open family is not variadic: a call passes no mode.
  auto fortified = importPrototype("__openat_2", "");
  ASSERT_TRUE(std::holds_alternative<ImportPrototype>(fortified));
  EXPECT_FALSE(std::get<ImportPrototype>(fortified).variadic);
  EXPECT_EQ(std::get<ImportPrototype>(fortified).arguments.size(), 3u);
}

TEST(ImportPrototypes, VariadicFunctionsWithoutARuleAreDeclinedWithTheReason) {
  // strfmon's format is not printf's; ulimit's count depends on its command; msvcrt's printf
  // is Win64, whose variadic calls are not typed yet.
  for (auto [name, dll] : {std::pair{"ulimit", ""}, {"strfmon", ""}, {"printf", "msvcrt.dll"}}) {
    auto prototype = importPrototype(name, dll);
    ASSERT_TRUE(std::holds_alternative<std::string>(prototype)) << name;
    EXPECT_NE(std::get<std::string>(prototype).find("variadic"), std::string::npos) << name;
  }
}

TEST(ImportPrototypes, UnknownFunctionsHaveNoPrototype) {
  auto prototype = importPrototype("frobnicate", "");
  ASSERT_TRUE(std::holds_alternative<std::string>(prototype));
  EXPECT_NE(std::get<std::string>(prototype).find("no prototype"), std::string::npos);
}

TEST(ImportPrototypes, PrototypesComeFromTheSystemHeaders) {
  auto langinfo = importPrototype("nl_langinfo@GLIBC_2.2.5", "");
  ASSERT_TRUE(std::holds_alternative<ImportPrototype>(langinfo));
  EXPECT_EQ(std::get<ImportPrototype>(langinfo).result, CType::Pointer);
  EXPECT_EQ(std::get<ImportPrototype>(langinfo).arguments, std::vector<CType>{CType::Int});
  auto mbCurMax = importPrototype("__ctype_get_mb_cur_max", "");
  ASSERT_TRUE(std::holds_alternative<ImportPrototype>(mbCurMax));
  EXPECT_EQ(std::get<ImportPrototype>(mbCurMax).result, CType::Long);
  EXPECT_TRUE(std::get<ImportPrototype>(mbCurMax).arguments.empty());
  auto stackCheck = importPrototype("__stack_chk_fail", "");
  ASSERT_TRUE(std::holds_alternative<ImportPrototype>(stackCheck));
  EXPECT_EQ(std::get<ImportPrototype>(stackCheck).result, CType::Void);
  EXPECT_TRUE(isDeclaredImport("strlen", ""));
  EXPECT_FALSE(isDeclaredImport("frobnicate", ""));
}

TEST(ImportPrototypes, TypesBrighteningDoesNotPassAreDeclinedWithTheReason) {
  auto sinl = importPrototype("sinl", "");
  ASSERT_TRUE(std::holds_alternative<std::string>(sinl));
  EXPECT_NE(std::get<std::string>(sinl).find("long double"), std::string::npos);
  auto ldiv = importPrototype("ldiv", "");
  ASSERT_TRUE(std::holds_alternative<std::string>(ldiv));
  EXPECT_NE(std::get<std::string>(ldiv).find("struct"), std::string::npos);
  auto stdoutObject = importPrototype("stdout", "");
  ASSERT_TRUE(std::holds_alternative<std::string>(stdoutObject));
  // A declared function is never handed to prototype inference, even when declined.
  EXPECT_TRUE(isDeclaredImport("sinl", ""));
}

TEST(ImportPrototypes, DllImportsTakeTheirDllsPrototypes) {
  auto write = importPrototype("WriteConsoleA", "KERNEL32.dll");
  ASSERT_TRUE(std::holds_alternative<ImportPrototype>(write));
  constexpr CType I = CType::Int, P = CType::Pointer;
  EXPECT_EQ(std::get<ImportPrototype>(write).result, I);
  EXPECT_EQ(std::get<ImportPrototype>(write).arguments, (std::vector<CType>{P, P, I, P, P}));
  // A Windows name is no ELF import's, nor a glibc name a DLL's.
  EXPECT_FALSE(isDeclaredImport("WriteConsoleA", ""));
  EXPECT_FALSE(isDeclaredImport("__stack_chk_fail", "msvcrt.dll"));
  EXPECT_TRUE(isDeclaredImport("strlen", "msvcrt.dll"));
  // ldiv_t is 8 bytes under Win64: one integer register, which brightening passes.
  auto ldiv = importPrototype("ldiv", "msvcrt.dll");
  ASSERT_TRUE(std::holds_alternative<ImportPrototype>(ldiv));
  EXPECT_EQ(std::get<ImportPrototype>(ldiv).result, CType::Long);
}

TEST(ImportPrototypes, ByReferenceArgumentsArePointersResultsAreDeclined) {
  // The caller passes a pointer to its copy of the 16-byte struct _complex.
  auto cabs = importPrototype("_cabs", "msvcrt.dll");
  ASSERT_TRUE(std::holds_alternative<ImportPrototype>(cabs));
  EXPECT_EQ(std::get<ImportPrototype>(cabs).result, CType::Double);
  EXPECT_EQ(std::get<ImportPrototype>(cabs).arguments, std::vector<CType>{CType::Pointer});
  // lldiv_t comes back through a hidden pointer, which brightening does not pass.
  EXPECT_TRUE(std::holds_alternative<std::string>(importPrototype("lldiv", "ucrtbase.dll")));
}

TEST(ImportPrototypes, AnImportByOrdinalHasNone) {
  auto ordinal = importPrototype("#12", "kernel32.dll");
  ASSERT_TRUE(std::holds_alternative<std::string>(ordinal));
  EXPECT_NE(std::get<std::string>(ordinal).find("ordinal"), std::string::npos);
}
