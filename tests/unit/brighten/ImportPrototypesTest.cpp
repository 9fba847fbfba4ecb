// The C library prototypes brightening calls imports with.
#include "Brighten/ImportPrototypes.h"

#include <gtest/gtest.h>

using namespace hoist;

TEST(ImportPrototypes, StrlenTakesAPointerAndReturnsASize) {
  auto prototype = importPrototype("strlen");
  ASSERT_TRUE(std::holds_alternative<ImportPrototype>(prototype));
  const ImportPrototype &strlen = std::get<ImportPrototype>(prototype);
  EXPECT_EQ(strlen.result, CType::Long);
  EXPECT_EQ(strlen.arguments, std::vector<CType>{CType::Pointer});
}

TEST(ImportPrototypes, MathFunctionsTakeDoubles) {
  auto prototype = importPrototype("pow");
  ASSERT_TRUE(std::holds_alternative<ImportPrototype>(prototype));
  EXPECT_EQ(std::get<ImportPrototype>(prototype).result, CType::Double);
  EXPECT_EQ(std::get<ImportPrototype>(prototype).arguments,
            (std::vector<CType>{CType::Double, CType::Double}));
}

TEST(ImportPrototypes, VariadicFunctionsAreDeclinedWithTheReason) {
  auto prototype = importPrototype("printf");
  ASSERT_TRUE(std::holds_alternative<std::string>(prototype));
  EXPECT_NE(std::get<std::string>(prototype).find("variadic"), std::string::npos);
}

TEST(ImportPrototypes, UnknownFunctionsHaveNoPrototype) {
  auto prototype = importPrototype("frobnicate");
  ASSERT_TRUE(std::holds_alternative<std::string>(prototype));
  EXPECT_NE(std::get<std::string>(prototype).find("no prototype"), std::string::npos);
}
