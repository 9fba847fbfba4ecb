// emitLocalFrameCall: the body every brightened function and signature probe shares.
#include "Brighten/LocalFrame.h"

#include "Arch/StateLayout.h"

#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <gtest/gtest.h>

using namespace hoist;

namespace {

/// The call of the lifted function ends the block the builder appends to. Its continuation
/// blocks used to be split off at the block's end, which gave their branch the "debug
/// location" of the instruction list's sentinel: a garbage !dbg the verifier rejects.
TEST(LocalFrame, ContinuationHasNoGarbageDebugLocation) {
  llvm::LLVMContext context;
  llvm::Module module("m", context);
  llvm::Type *pointer = llvm::PointerType::getUnqual(context);
  auto *flatType =
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), {pointer, pointer}, false);
  auto *flat = llvm::Function::Create(flatType, llvm::GlobalValue::InternalLinkage, "f.flat",
                                      module);
  llvm::IRBuilder<> body(llvm::BasicBlock::Create(context, "entry", flat));
  body.CreateRetVoid();

  auto *callerType =
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), {body.getInt64Ty()}, false);
  auto *caller =
      llvm::Function::Create(callerType, llvm::GlobalValue::ExternalLinkage, "f", module);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", caller));
  RegisterInput input{HOIST_FIELD_RDI, 0, caller->getArg(0)};
  llvm::Expected<llvm::AllocaInst *> state =
      emitLocalFrameCall(builder, *flat, {input}, {}, CallingConvention::SysV);
  ASSERT_TRUE(static_cast<bool>(state)) << llvm::toString(state.takeError());
  builder.CreateRetVoid();

  std::string errors;
  llvm::raw_string_ostream out(errors);
  EXPECT_FALSE(llvm::verifyFunction(*caller, &out)) << errors;
  for (llvm::BasicBlock &block : *caller)
    for (llvm::Instruction &instruction : block)
      EXPECT_FALSE(instruction.getDebugLoc()) << block.getName().str();
  // The blocks after the call, in order: the return check, then the rest of the caller.
  std::vector<std::string> names;
  for (llvm::BasicBlock &block : *caller)
    names.push_back(block.getName().str());
  auto returned = std::find(names.begin(), names.end(), "returned");
  ASSERT_NE(returned, names.end());
  ASSERT_NE(returned + 1, names.end());
  EXPECT_EQ(*(returned + 1), "checked");
}

} // namespace
