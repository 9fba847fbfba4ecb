// SplitStackPass: the local stack cut into the byte groups used together, so that a pointer an
// import gets does not keep the rest of the frame in memory.
#include "Brighten/SplitStack.h"

#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Support/raw_ostream.h>
#include <gtest/gtest.h>

using namespace hoist;

namespace {

/// `body` (which may use %stack, the local stack: 64 bytes) as a function's entry block,
/// split, then simplified by SROA; returns the allocation sizes left, in order, and sets
/// `vectors` to whether any instruction has a vector type.
std::vector<uint64_t> allocasAfterSplit(const std::string &body, bool *vectors = nullptr) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic error;
  std::string text = "declare i32 @WriteConsoleA(ptr, ptr, i32, ptr, ptr)\n"
                     "declare i32 @puts(ptr)\n"
                     "declare void @unknown(ptr)\n"
                     "define i64 @f(i64 %index) {\n"
                     "  %stack = alloca [64 x i8], align 16, !hoist.stack !0\n" +
                     body + "}\n!0 = !{}\n";
  std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(text, error, context);
  if (!module) {
    std::string message;
    llvm::raw_string_ostream out(message);
    error.print("test", out);
    ADD_FAILURE() << message;
    return {};
  }
  llvm::Function &function = *module->getFunction("f");
  llvm::PassBuilder builder;
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::FunctionPassManager passes;
  passes.addPass(SplitStackPass());
  passes.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
  passes.run(function, functions);
  std::string problems;
  llvm::raw_string_ostream out(problems);
  EXPECT_FALSE(llvm::verifyFunction(function, &out)) << problems;
  std::vector<uint64_t> sizes;
  for (llvm::Instruction &instruction : function.getEntryBlock()) {
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
      sizes.push_back(alloca->getAllocationSize(module->getDataLayout())->getFixedValue());
    if (vectors)
      *vectors |= instruction.getType()->isVectorTy();
  }
  return sizes;
}

/// A spilled register and a variable whose address WriteConsoleA gets (it writes 4 bytes
/// there): the variable keeps an alloca, the register becomes a value.
TEST(SplitStack, BytesAnImportWritesAreALocalOfTheirOwn) {
  std::vector<uint64_t> sizes = allocasAfterSplit(R"(
  %spill = getelementptr inbounds i8, ptr %stack, i64 8
  %written = getelementptr inbounds i8, ptr %stack, i64 40
  store i64 %index, ptr %spill
  call i32 @WriteConsoleA(ptr null, ptr null, i32 0, ptr %written, ptr null)
  %kept = load i64, ptr %spill
  %count = load i32, ptr %written
  %wide = zext i32 %count to i64
  %sum = add i64 %kept, %wide
  ret i64 %sum
)");
  EXPECT_EQ(sizes, std::vector<uint64_t>{4});
}

/// puts reads its string from the pointer up, as far as it goes: everything above the
/// pointer stays with it, what lies below does not.
TEST(SplitStack, AReadPointerKeepsTheBytesAboveIt) {
  std::vector<uint64_t> sizes = allocasAfterSplit(R"(
  %below = getelementptr inbounds i8, ptr %stack, i64 8
  %text = getelementptr inbounds i8, ptr %stack, i64 16
  %above = getelementptr inbounds i8, ptr %stack, i64 48
  store i64 %index, ptr %below
  store i64 %index, ptr %above
  store i8 0, ptr %text
  call i32 @puts(ptr %text)
  %kept = load i64, ptr %below
  ret i64 %kept
)");
  EXPECT_EQ(sizes, std::vector<uint64_t>{48});
}

/// A function whose effects are unknown may reach all of the frame through the pointer.
TEST(SplitStack, AnUnknownCalleeKeepsTheStackWhole) {
  std::vector<uint64_t> sizes = allocasAfterSplit(R"(
  %spill = getelementptr inbounds i8, ptr %stack, i64 8
  %given = getelementptr inbounds i8, ptr %stack, i64 40
  store i64 %index, ptr %spill
  call void @unknown(ptr %given)
  %kept = load i64, ptr %spill
  ret i64 %kept
)");
  EXPECT_EQ(sizes, std::vector<uint64_t>{64});
}

/// An access at an offset only known at run time may be anywhere in the frame.
TEST(SplitStack, AVariableOffsetKeepsTheStackWhole) {
  std::vector<uint64_t> sizes = allocasAfterSplit(R"(
  %spill = getelementptr inbounds i8, ptr %stack, i64 8
  %written = getelementptr inbounds i8, ptr %stack, i64 40
  %element = getelementptr inbounds i8, ptr %stack, i64 %index
  store i64 %index, ptr %spill
  store i8 1, ptr %element
  call i32 @WriteConsoleA(ptr null, ptr null, i32 0, ptr %written, ptr null)
  %kept = load i64, ptr %spill
  ret i64 %kept
)");
  EXPECT_EQ(sizes, std::vector<uint64_t>{64});
}

/// A 16-byte store zeroes two 8-byte locals at once (`movaps [rsp+16], xmm0`): cut in two,
/// each local is a value of its own, not a lane of a vector.
TEST(SplitStack, AWideStoreIsCutWhereOtherAccessesAreApart) {
  bool vectors = false;
  std::vector<uint64_t> sizes = allocasAfterSplit(R"(
  %pair = getelementptr inbounds i8, ptr %stack, i64 16
  %second = getelementptr inbounds i8, ptr %stack, i64 24
  %written = getelementptr inbounds i8, ptr %stack, i64 40
  store <2 x i64> zeroinitializer, ptr %pair
  store i64 %index, ptr %second
  call i32 @WriteConsoleA(ptr null, ptr null, i32 0, ptr %written, ptr null)
  %first = load i64, ptr %pair
  %kept = load i64, ptr %second
  %sum = add i64 %first, %kept
  ret i64 %sum
)",
                                                  &vectors);
  EXPECT_EQ(sizes, std::vector<uint64_t>{4});
  EXPECT_FALSE(vectors);
}

} // namespace
