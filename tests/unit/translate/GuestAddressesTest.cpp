// foldGuestAddresses: an access whose address was computed in another block (a frame pointer
// hoisted out of a loop) gets root + constant in its own block, the same address; addresses
// already in the access's block, with two variable parts, or of functions that are not lifted
// stay as they were.
#include "Translate/GuestAddresses.h"

#include "ParseModule.h"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <gtest/gtest.h>

namespace hoist {
namespace {

struct Folded {
  std::unique_ptr<llvm::LLVMContext> context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module;
  unsigned rewritten = 0;
};

/// `functions` parsed and folded; the module is verified.
Folded fold(const std::string &functions) {
  Folded result;
  result.module = test::parseModule(functions, *result.context);
  if (!result.module)
    return result;
  result.rewritten = foldGuestAddresses(*result.module);
  std::string problems;
  llvm::raw_string_ostream out(problems);
  EXPECT_FALSE(llvm::verifyModule(*result.module, &out)) << problems;
  return result;
}

/// The address of the first load in block `name` of @fn that does not read State, as "root+offset"
/// ("+offset" for a constant address), or the pointer's name when it is not of the rewritten form.
std::string loadAddress(llvm::Module &module, llvm::StringRef name) {
  for (llvm::BasicBlock &block : *module.getFunction("fn")) {
    if (block.getName() != name)
      continue;
    for (llvm::Instruction &instruction : block)
      if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
          load && !llvm::isa<llvm::Argument>(load->getPointerOperand())) {
        llvm::Value *pointer = load->getPointerOperand();
        auto *outer = llvm::dyn_cast<llvm::GEPOperator>(pointer);
        if (!outer || !llvm::isa<llvm::ConstantInt>(outer->getOperand(1)))
          return pointer->getName().str();
        auto *computed = llvm::dyn_cast<llvm::Instruction>(pointer);
        if (computed && computed->getParent() != load->getParent())
          return "elsewhere";
        int64_t offset = llvm::cast<llvm::ConstantInt>(outer->getOperand(1))->getSExtValue();
        llvm::Value *base = outer->getPointerOperand();
        std::string root;
        if (auto *inner = llvm::dyn_cast<llvm::GEPOperator>(base))
          root = inner->getOperand(1)->getName().str();
        else if (!llvm::isa<llvm::ConstantPointerNull>(base))
          root = base->getName().str();
        return root + (offset < 0 ? "" : "+") + std::to_string(offset);
      }
  }
  return "no load";
}

/// A lifted function (noalias nocapture State) whose loop reads the guest frame, a constant
/// offset from the entry stack pointer computed before the loop.
const std::string FrameInLoop = "define void @fn(ptr noalias nocapture %state, ptr %mem) {\n"
                                "entry:\n"
                                "  %rsp = load i64, ptr %state\n"
                                "  %frame = add i64 %rsp, -16552\n"
                                "  %local = getelementptr i8, ptr null, i64 %frame\n"
                                "  %field = getelementptr i8, ptr %local, i64 68\n"
                                "  %table = getelementptr i8, ptr null, i64 268470752\n"
                                "  store i64 %frame, ptr %state\n"
                                "  br label %loop\n"
                                "loop:\n"
                                "  %x = load i32, ptr %field\n"
                                "  %y = load i32, ptr %table\n"
                                "  %again = icmp eq i32 %x, %y\n"
                                "  br i1 %again, label %loop, label %exit\n"
                                "exit:\n"
                                "  ret void\n"
                                "}\n";

TEST(GuestAddresses, HoistedFramePointerBecomesRootPlusDisplacementInTheLoop) {
  Folded folded = fold(FrameInLoop);
  ASSERT_TRUE(folded.module);
  EXPECT_EQ(folded.rewritten, 2u);
  EXPECT_EQ(loadAddress(*folded.module, "loop"), "rsp-16484");
  // The frame is still stored to State, so its add stays; the GEPs only the loads used go.
  llvm::Function &function = *folded.module->getFunction("fn");
  unsigned geps = 0;
  for (llvm::Instruction &instruction : function.getEntryBlock())
    geps += llvm::isa<llvm::GetElementPtrInst>(instruction);
  EXPECT_EQ(geps, 0u);
}

TEST(GuestAddresses, HoistedConstantAddressBecomesAConstantInTheLoop) {
  Folded folded = fold(FrameInLoop);
  ASSERT_TRUE(folded.module);
  llvm::BasicBlock *loop = nullptr;
  for (llvm::BasicBlock &block : *folded.module->getFunction("fn"))
    if (block.getName() == "loop")
      loop = &block;
  ASSERT_TRUE(loop);
  unsigned loads = 0;
  for (llvm::Instruction &instruction : *loop)
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction); load && loads++ == 1) {
      EXPECT_TRUE(llvm::isa<llvm::Constant>(load->getPointerOperand()));
    }
  EXPECT_EQ(loads, 2u);
}

/// @fn: `entry` after `%rsp = load` of State, then, unless `next` is empty, a block %next with
/// `next`; it ends by storing %x (which one of them loads) to State.
std::string function(const std::string &entry, const std::string &next, bool lifted = true) {
  return std::string("define void @fn(ptr ") + (lifted ? "noalias nocapture " : "") +
         "%state, ptr %mem) {\n"
         "entry:\n"
         "  %rsp = load i64, ptr %state\n" +
         entry + (next.empty() ? "" : "  br label %next\nnext:\n" + next) +
         "  store i64 %x, ptr %state\n"
         "  ret void\n"
         "}\n";
}

const std::string FrameBelowRsp = "  %frame = add i64 %rsp, -8\n"
                                  "  %local = getelementptr i8, ptr null, i64 %frame\n";

/// Folds `text`: `rewritten` addresses change, and the first load in `block` reads `address`
/// (as loadAddress writes it).
void expectFolded(const std::string &text, unsigned rewritten, llvm::StringRef block,
                  const std::string &address) {
  Folded folded = fold(text);
  ASSERT_TRUE(folded.module);
  EXPECT_EQ(folded.rewritten, rewritten);
  EXPECT_EQ(loadAddress(*folded.module, block), address);
}

TEST(GuestAddresses, AddressInTheSameBlockStays) {
  expectFolded(function(FrameBelowRsp + "  %x = load i64, ptr %local\n", ""), 0, "entry", "local");
}

TEST(GuestAddresses, TwoVariablePartsStay) {
  expectFolded(function("  %index = load i64, ptr %state\n"
                        "  %frame = getelementptr i8, ptr null, i64 %rsp\n"
                        "  %element = getelementptr i8, ptr %frame, i64 %index\n",
                        "  %x = load i64, ptr %element\n"),
               0, "next", "element");
}

TEST(GuestAddresses, FunctionsThatAreNotLiftedStay) {
  expectFolded(function(FrameBelowRsp, "  %x = load i64, ptr %local\n", /*lifted=*/false), 0,
               "next", "local");
}

TEST(GuestAddresses, SubtractedAndWrappingOffsetsAddUp) {
  expectFolded(function("  %below = sub i64 %rsp, 32\n"
                        "  %frame = add i64 %below, -9223372036854775808\n"
                        "  %local = getelementptr i8, ptr null, i64 %frame\n"
                        "  %field = getelementptr i8, ptr %local, i64 -9223372036854775808\n",
                        "  %x = load i64, ptr %field\n"),
               1, "next", "rsp-32");
}

} // namespace
} // namespace hoist
