// ForwardReloadsPass: a reload of memory the function was given is the earlier load's value
// across stores into its own frame before the frame escapes, and across nothing else.
#include "Passes/ForwardReloads.h"

#include "ParseModule.h"
#include "RunPass.h"

#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/raw_ostream.h>

#include <gtest/gtest.h>

namespace hoist {
namespace {

/// @fn runs `before`, loads an i8 from `%p` (its pointer, from `pointer`), runs `between`,
/// loads it again and returns the difference; with `branch` the second load is in a block of
/// its own, reached only from the first's. Returns how many loads are left.
unsigned loadsLeft(const std::string &pointer, const std::string &between, bool branch = false,
                   const std::string &before = "") {
  llvm::LLVMContext context;
  std::string text =
      "declare void @use(ptr)\n"
      "define i8 @fn(i64 %address, ptr %given, i1 %c) {\n"
      "entry:\n"
      "  %frame = alloca [16 x i8]\n"
      "  %slot = getelementptr i8, ptr %frame, i64 4\n"
      "  %p = " + pointer + "\n" +
      before +
      "  %a = load i8, ptr %p\n" +
      between +
      (branch ? "  br i1 %c, label %next, label %out\nnext:\n" : "") +
      "  %b = load i8, ptr %p\n"
      "  call void @use(ptr %frame)\n"
      "  %d = sub i8 %a, %b\n"
      "  ret i8 %d\n" +
      (branch ? "out:\n  ret i8 0\n" : "") +
      "}\n";
  std::unique_ptr<llvm::Module> module = test::parseModule(text, context);
  if (!module)
    return ~0u;
  llvm::Function &function = test::runOnFn(*module, ForwardReloadsPass());
  unsigned loads = 0;
  for (llvm::Instruction &instruction : llvm::instructions(function))
    loads += llvm::isa<llvm::LoadInst>(instruction);
  return loads;
}

const std::string FromInteger = "inttoptr i64 %address to ptr";
const std::string FrameStore = "  store i8 7, ptr %slot\n";

const std::string FromMemory = "load ptr, ptr %given";
const std::string Escape = "  call void @use(ptr %frame)\n";

TEST(ForwardReloads, AStoreIntoTheFrameKeepsMemoryTheFunctionWasGiven) {
  EXPECT_EQ(loadsLeft(FromInteger, FrameStore), 1u);
  EXPECT_EQ(loadsLeft(FromInteger, FrameStore, /*branch=*/true), 1u);
  EXPECT_EQ(loadsLeft("getelementptr i8, ptr %given, i64 156", FrameStore), 1u);
  // An integer made from the arguments existed before the frame: even once the frame escaped.
  EXPECT_EQ(loadsLeft(FromInteger, FrameStore, false, Escape), 1u);
}

TEST(ForwardReloads, AStoreIntoTheUnescapedFrameKeepsMemoryAPointerWasLoadedFrom) {
  EXPECT_EQ(loadsLeft(FromMemory, FrameStore), 2u);   // the pointer's load and one of %p
}

TEST(ForwardReloads, AnythingThatMayWriteTheMemoryKeepsTheReload) {
  // The frame escaped before the store: a pointer read from memory may point into it.
  EXPECT_EQ(loadsLeft(FromMemory, FrameStore, false, Escape), 3u);
  // A store through another pointer, a call.
  EXPECT_EQ(loadsLeft(FromInteger, "  store i8 7, ptr %given\n"), 2u);
  EXPECT_EQ(loadsLeft(FromInteger, "  call void @use(ptr null)\n"), 2u);
  // The loaded memory is the frame itself.
  EXPECT_EQ(loadsLeft("getelementptr i8, ptr %frame, i64 4", FrameStore), 2u);
}

} // namespace
} // namespace hoist
