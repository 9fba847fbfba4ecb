// How translate calls an import, derived from the prototype table: each case would fail if
// the shape were derived from the wrong ABI classes or flags.
#include "Prototypes/LibraryPrototype.h"
#include "Translate/ImportShapes.h"
#include "Translate/Refusals.h"

#include <gtest/gtest.h>

using namespace hoist;

namespace {

void expectShape(llvm::StringRef name, ImportShape shape, unsigned integerArguments) {
  ImportCallShape call = importCallShape(name);
  EXPECT_EQ(call.shape, shape) << name.str();
  EXPECT_EQ(call.integerArguments, integerArguments) << name.str();
}

} // namespace

TEST(ImportShapes, IntegerFunctionsPassExactlyTheRegistersTheyRead) {
  expectShape("__ctype_b_loc", ImportShape::Integer, 0);
  expectShape("strlen", ImportShape::Integer, 1);
  expectShape("memcpy", ImportShape::Integer, 3);
  expectShape("mbrtowc", ImportShape::Integer, 4);
  // Compatibility symbols no installed header declares (AbiSymbols.h).
  expectShape("__xstat", ImportShape::Integer, 3);
  expectShape("__fxstatat64", ImportShape::Integer, 5);
  expectShape("mmap", ImportShape::Integer, 6);
  expectShape("memcpy@GLIBC_2.14", ImportShape::Integer, 3);
  // ldiv returns a struct of two longs in rax and rdx.
  expectShape("ldiv", ImportShape::Integer, 2);
}

TEST(ImportShapes, FloatingPointInRegistersAddsTheVectorRegisters) {
  expectShape("sin", ImportShape::Float, 0);
  expectShape("frexp", ImportShape::Float, 1);
  expectShape("strtod", ImportShape::Float, 2);
  expectShape("cexp", ImportShape::Float, 0); // complex double: xmm0 and xmm1 both ways
}

TEST(ImportShapes, StackOrX87GoesThroughTheFullFrame) {
  expectShape("strtold", ImportShape::Any, 6);  // long double result in st(0)
  expectShape("sinl", ImportShape::Any, 6);     // long double argument on the stack
  expectShape("__libc_start_main", ImportShape::Any, 6); // a seventh argument on the stack
  expectShape("frobnicate_the_widget", ImportShape::Any, 6);
  expectShape("stdout", ImportShape::Any, 6);   // a data object is not called
}

TEST(ImportShapes, DeclaredVariadicIsVariadic) {
  expectShape("printf", ImportShape::Variadic, 6);
  expectShape("error", ImportShape::Variadic, 6);
  // The optional third argument of open and fcntl: they read it only sometimes.
  expectShape("open", ImportShape::Variadic, 6);
  expectShape("fcntl", ImportShape::Variadic, 6);
}

TEST(ImportShapes, OnlyLeavesGivenNoCodeNeverCallBack) {
  for (const char *name : {"strlen", "memcpy", "malloc", "free", "sin", "__errno_location",
                           "__ctype_b_loc", "mbrtowc"})
    EXPECT_FALSE(importMayCallBack(name)) << name;
  // qsort runs the comparator; atexit and fopencookie are glibc leaves that keep code; exit
  // runs the exit handlers; inflate calls the z_stream's allocator; fwrite may write to a
  // fopencookie stream; a name no header declares may do anything.
  for (const char *name : {"qsort", "atexit", "fopencookie", "exit", "inflate", "fwrite",
                           "printf", "frobnicate_the_widget"})
    EXPECT_TRUE(importMayCallBack(name)) << name;
}

TEST(Refusals, EveryRefusedImportIsADeclaredFunction) {
  for (const RefusedImport &refused : refusedImports()) {
    const LibraryPrototype *prototype = findLibraryPrototype(refused.name);
    ASSERT_NE(prototype, nullptr) << refused.name;
    EXPECT_TRUE(prototype->isFunction()) << refused.name;
  }
}
