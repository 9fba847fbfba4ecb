// SplitStackPass: the local stack cut into the byte groups used together, so that a pointer an
// import gets does not keep the rest of the frame in memory.
#include "Brighten/SplitStack.h"

#include "ParseModule.h"

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

/// `body` (which may use %stack, the local stack: 64 bytes) as a function's blocks, entry first,
/// split, then simplified by SROA; returns the allocation sizes left, in order, and sets
/// `vectors` to whether any instruction has a vector type.
std::vector<uint64_t> allocasAfterSplit(const std::string &body, bool *vectors = nullptr) {
  llvm::LLVMContext context;
  // WriteConsoleA's writes are kernel32.dll's (the Windows prototype table), found by the
  // DLL its brightened declaration names.
  std::string text = "declare i32 @WriteConsoleA(ptr, ptr, i32, ptr, ptr) "
                     "\"hoist-library\"=\"kernel32.dll\"\n"
                     "declare i32 @puts(ptr)\n"
                     "declare void @unknown(ptr)\n"
                     "declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)\n"
                     "define i64 @f(i64 %index) {\n"
                     "  %stack = alloca [64 x i8], align 16, !hoist.stack !0\n" +
                     body + "}\n!0 = !{}\n";
  std::unique_ptr<llvm::Module> module = test::parseModule(text, context);
  if (!module)
    return {};
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

/// fill_sum's frame: a 32-byte buffer memset for its first n & 31 bytes, then read in a loop
/// up to n, beside a spilled register. Both offsets are bounded (the length by its mask, the
/// index by the loop's trip count), so the buffer is a local of its own (the 31 bytes it can
/// reach) and the spill a value.
TEST(SplitStack, BoundedVariableOffsetsAndLengthsKeepOnlyTheirBytes) {
  std::vector<uint64_t> sizes = allocasAfterSplit(R"(
  %spill = getelementptr inbounds i8, ptr %stack, i64 48
  %buffer = getelementptr inbounds i8, ptr %stack, i64 8
  %n = and i64 %index, 31
  store i64 %index, ptr %spill
  call void @llvm.memset.p0.i64(ptr %buffer, i8 1, i64 %n, i1 false)
  br label %head
head:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %done, label %loop
loop:
  %i = phi i64 [ 0, %head ], [ %next, %loop ]
  %sum = phi i64 [ 0, %head ], [ %added, %loop ]
  %element = getelementptr inbounds i8, ptr %buffer, i64 %i
  %byte = load i8, ptr %element
  %wide = zext i8 %byte to i64
  %added = add i64 %sum, %wide
  %next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done
done:
  %total = phi i64 [ 0, %head ], [ %added, %loop ]
  %kept = load i64, ptr %spill
  %result = add i64 %total, %kept
  ret i64 %result
)");
  EXPECT_EQ(sizes, std::vector<uint64_t>{31});
}

/// A memset whose length is not bounded may reach all of the frame above the buffer (here
/// the whole frame); an index bounded only past the frame's end (a 64-byte mask at offset 8)
/// may leave it.
TEST(SplitStack, UnboundedLengthsAndOffsetsPastTheFrameKeepTheStackWhole) {
  std::vector<uint64_t> unboundedLength = allocasAfterSplit(R"(
  %spill = getelementptr inbounds i8, ptr %stack, i64 48
  store i64 %index, ptr %spill
  call void @llvm.memset.p0.i64(ptr %stack, i8 1, i64 %index, i1 false)
  %kept = load i64, ptr %spill
  ret i64 %kept
)");
  EXPECT_EQ(unboundedLength, std::vector<uint64_t>{64});
  std::vector<uint64_t> pastTheEnd = allocasAfterSplit(R"(
  %spill = getelementptr inbounds i8, ptr %stack, i64 48
  %buffer = getelementptr inbounds i8, ptr %stack, i64 8
  %i = and i64 %index, 63
  %element = getelementptr inbounds i8, ptr %buffer, i64 %i
  store i64 %index, ptr %spill
  store i8 1, ptr %element
  %kept = load i64, ptr %spill
  ret i64 %kept
)");
  EXPECT_EQ(pastTheEnd, std::vector<uint64_t>{64});
}

/// fill_sum's scalar tail after its vector loop: the index starts where the vector loop
/// stopped (n & 24) and the loop ends when it reaches n & 31 (`i + 1 == n`). Entered with
/// start past n it would wrap, so ScalarEvolution's range of the index is the full set; but
/// the load done on every iteration would then leave the stack first (undefined behaviour):
/// a defined run reads the buffer's first 31 bytes only. `skip` reads only on some
/// iterations: the wrap could skip past the stack's end, so it keeps the stack whole.
std::string tailLoop(bool everyIteration) {
  std::string entry = R"(
  %spill = getelementptr inbounds i8, ptr %stack, i64 48
  %buffer = getelementptr inbounds i8, ptr %stack, i64 8
  %n = and i64 %index, 31
  %vectorDone = and i64 %index, 24
  store i64 %index, ptr %spill
  call void @llvm.memset.p0.i64(ptr %buffer, i8 1, i64 %n, i1 false)
  %empty = icmp eq i64 %vectorDone, %n
  br i1 %empty, label %done, label %loop
loop:
  %i = phi i64 [ %vectorDone, %0 ], [ %next, %latch ]
  %sum = phi i64 [ 0, %0 ], [ %added, %latch ]
)";
  std::string read = R"(
  %element = getelementptr i8, ptr %buffer, i64 %i
  %byte = load i8, ptr %element
  %wide = zext i8 %byte to i64
)";
  std::string latch = R"(
  %added = add i64 %sum, %value
  %next = add i64 %i, 1
  %more = icmp eq i64 %next, %n
  br i1 %more, label %done, label %loop
done:
  %total = phi i64 [ 0, %0 ], [ %added, %latch ]
  %kept = load i64, ptr %spill
  %result = add i64 %total, %kept
  ret i64 %result
)";
  if (everyIteration)
    return entry + read + "  br label %latch\nlatch:\n  %value = add i64 %wide, 0\n" + latch;
  return entry + "  %odd = trunc i64 %i to i1\n  br i1 %odd, label %read, label %latch\nread:" +
         read + "  br label %latch\nlatch:\n" +
         "  %value = phi i64 [ %wide, %read ], [ 1, %loop ]\n" + latch;
}

TEST(SplitStack, ALoopIndexIsBoundedByItsWalkWhenEveryIterationReads) {
  EXPECT_EQ(allocasAfterSplit(tailLoop(true)), std::vector<uint64_t>{31});
  EXPECT_EQ(allocasAfterSplit(tailLoop(false)), std::vector<uint64_t>{64});
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
