#include "TestDatabase.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace hoist {
namespace {

using testing::TestDatabase;

std::set<std::string> namesOf(const SignatureDatabase &database) {
  std::set<std::string> names;
  for (uint32_t i = 0; i < database.size(); ++i)
    for (uint32_t n = 0; n < database.function(i).nameCount; ++n)
      names.insert(database.name(database.function(i), n).str());
  return names;
}

TEST(SignatureDatabase, GeneratedFromObjectsHasEachFunctionWithItsLibrary) {
  TestDatabase test;
  llvm::Expected<SignatureDatabase> database = test.load();
  ASSERT_TRUE(bool(database)) << llvm::toString(database.takeError());
  EXPECT_EQ(namesOf(*database),
            (std::set<std::string>{"alpha", "beta", "greet_a", "greet_b", "helper_one",
                                   "helper_two", "wrap_one", "wrap_two"}));
  for (uint32_t i = 0; i < database->size(); ++i)
    EXPECT_TRUE(database->library(database->function(i)).starts_with("test "));
}

TEST(SignatureDatabase, CallIsMaskedAndNamesItsCallee) {
  TestDatabase test;
  llvm::Expected<SignatureDatabase> database = test.load();
  ASSERT_TRUE(bool(database)) << llvm::toString(database.takeError());
  bool found = false;
  for (uint32_t i = 0; i < database->size(); ++i) {
    const signatures::FunctionRecord &function = database->function(i);
    if (database->name(function, 0) != "wrap_one")
      continue;
    found = true;
    ASSERT_EQ(function.relocationCount, 1u);
    const signatures::RelocationRecord &call = database->relocations(function)[0];
    EXPECT_EQ(database->string(call.callee), "helper_one");
    EXPECT_EQ(call.maskEnd - call.maskBegin, 4u);
    EXPECT_EQ(database->fixedBytes(i), function.length - 4);
  }
  EXPECT_TRUE(found);
}

TEST(SignatureDatabase, TruncatedDatabaseIsAnErrorNotACrash) {
  TestDatabase test;
  ASSERT_TRUE(bool(test.load()));
  for (size_t size : {size_t(0), size_t(7), size_t(32), test.bytes.size() / 2,
                      test.bytes.size() - 1}) {
    llvm::Expected<SignatureDatabase> database = SignatureDatabase::fromBytes(
        llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(test.storage.data()), size));
    EXPECT_FALSE(bool(database)) << size;
    llvm::consumeError(database.takeError());
  }
}

TEST(SignatureDatabase, BuiltInHoldsTheCLibraries) {
  const SignatureDatabase &database = SignatureDatabase::builtIn();
  std::set<std::string> names = namesOf(database);
  // glibc's and musl's, each under its library's label.
  std::set<std::string> libraries;
  for (uint32_t i = 0; i < database.size(); ++i)
    libraries.insert(database.library(database.function(i)).split(' ').first.str());
  EXPECT_TRUE(libraries.count("glibc"));
  EXPECT_TRUE(libraries.count("musl"));
  for (const char *name : {"printf", "malloc", "qsort", "strtol", "__libc_start_main"})
    EXPECT_TRUE(names.count(name)) << name;
}

} // namespace
} // namespace hoist
