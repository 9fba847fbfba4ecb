// What printf and scanf formats pass after their fixed arguments.
#include "Brighten/FormatArguments.h"

#include <gtest/gtest.h>

using namespace hoist;
using A = FormatArgument;
using Arguments = std::vector<FormatArgument>;

namespace {

Arguments parsed(const char *format, FormatKind kind = FormatKind::Printf) {
  auto result = formatArguments(format, kind);
  EXPECT_TRUE(std::holds_alternative<Arguments>(result)) << format;
  return std::holds_alternative<Arguments>(result) ? std::get<Arguments>(result) : Arguments{};
}

std::string declined(const char *format, FormatKind kind = FormatKind::Printf) {
  auto result = formatArguments(format, kind);
  return std::holds_alternative<std::string>(result) ? std::get<std::string>(result) : "";
}

} // namespace

TEST(FormatArguments, PrintfConversionsPassTheirTypes) {
  EXPECT_EQ(parsed("plain text, 100%% sure"), Arguments{});
  EXPECT_EQ(parsed("%s: %d items, %5.2f%% (%ld)\n"),
            (Arguments{A::Int64, A::Int32, A::Double, A::Int64}));
  EXPECT_EQ(parsed("%hhx %hu %lld %zu %jd %td %p %c %n %m"),
            (Arguments{A::Int32, A::Int32, A::Int64, A::Int64, A::Int64, A::Int64, A::Int64,
                       A::Int32, A::Int64}));
  EXPECT_EQ(parsed("%-+ #08.3e %'d %a %G"), (Arguments{A::Double, A::Int32, A::Double, A::Double}));
}

TEST(FormatArguments, StarWidthAndPrecisionTakeInts) {
  EXPECT_EQ(parsed("%*d %.*s %*.*f"),
            (Arguments{A::Int32, A::Int32, A::Int32, A::Int64, A::Int32, A::Int32, A::Double}));
}

TEST(FormatArguments, WhatCannotBeTypedIsDeclined) {
  EXPECT_NE(declined("%1$s %2$d").find("numbers"), std::string::npos);
  EXPECT_NE(declined("%Lf").find("long double"), std::string::npos);
  EXPECT_NE(declined("%y").find("does not define"), std::string::npos);
  EXPECT_NE(declined("100%").find("ends"), std::string::npos);
}

TEST(FormatArguments, ScanfAssignmentsPassPointers) {
  EXPECT_EQ(parsed("%d,%ld %*s %5[a-z] %[]x] %% %n", FormatKind::Scanf),
            (Arguments{A::Int64, A::Int64, A::Int64, A::Int64, A::Int64}));
  EXPECT_EQ(parsed("%ms %lf", FormatKind::Scanf), (Arguments{A::Int64, A::Int64}));
  EXPECT_NE(declined("%[abc", FormatKind::Scanf).find("scan set"), std::string::npos);
}
