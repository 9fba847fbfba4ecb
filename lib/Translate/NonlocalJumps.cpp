#include "Translate/NonlocalJumps.h"

#include "Arch/StateLayout.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace hoist {
namespace {

/// When the runtime saves the signal mask with the registers (runtime/nonlocal.c, the same
/// numbers): glibc's `setjmp` function always does (BSD), `_setjmp` (what the `setjmp` macro
/// calls) never, `__sigsetjmp` (the `sigsetjmp` macro) when its second argument is not zero.
enum MaskSaving : uint32_t { MaskNever = 0, MaskAlways = 1, MaskWhenAsked = 2 };

llvm::StringRef unversioned(llvm::StringRef name) { return name.split('@').first; }

MaskSaving maskSaving(llvm::StringRef name) {
  name = unversioned(name);
  if (name == "setjmp")
    return MaskAlways;
  if (name == "__sigsetjmp")
    return MaskWhenAsked;
  return MaskNever;
}

/// The sequence of NonlocalJumps.h in place of `call @import.NAME(state, memory)`.
void expandSetjmpCall(llvm::CallInst &call, MaskSaving saving) {
  llvm::Function &caller = *call.getFunction();
  llvm::Module &module = *caller.getParent();
  llvm::LLVMContext &context = module.getContext();
  llvm::IRBuilder<> ir(&call);
  auto *i64 = ir.getInt64Ty();
  auto *i32 = ir.getInt32Ty();
  auto *ptr = ir.getPtrTy();
  llvm::Value *state = call.getArgOperand(0), *memory = call.getArgOperand(1);
  llvm::StructType *stateType = getStateType(context);
  auto field = [&](HoistStateField name) { return ir.CreateStructGEP(stateType, state, name); };
  auto guest = [&](llvm::Value *address) {
    return ir.CreateGEP(ir.getInt8Ty(), memory, address);
  };

  // Read before anything runs: on the second return the guest stack below the caller's frame
  // (the return address's slot among it) holds what the code between wrote there.
  llvm::Value *sp = ir.CreateLoad(i64, field(HOIST_FIELD_RSP), "setjmp.sp");
  llvm::Value *returnAddress = ir.CreateLoad(i64, guest(sp), "setjmp.return");
  llvm::Value *buffer = guest(ir.CreateLoad(i64, field(HOIST_FIELD_RDI), "jmp_buf"));

  llvm::FunctionCallee save = module.getOrInsertFunction(
      "hoist_setjmp_save", llvm::FunctionType::get(ir.getVoidTy(), {ptr, i32}, false));
  ir.CreateCall(save, {state, ir.getInt32(saving)});
  llvm::FunctionCallee hostSetjmp =
      module.getOrInsertFunction("_setjmp", llvm::FunctionType::get(i32, {ptr}, false));
  if (auto *declared = llvm::dyn_cast<llvm::Function>(hostSetjmp.getCallee()))
    declared->addFnAttr(llvm::Attribute::ReturnsTwice);
  llvm::CallInst *result = ir.CreateCall(hostSetjmp, {buffer}, "setjmp.result");
  result->addFnAttr(llvm::Attribute::ReturnsTwice);
  llvm::FunctionCallee returned = module.getOrInsertFunction(
      "hoist_setjmp_returned", llvm::FunctionType::get(ir.getVoidTy(), {ptr, i32, ptr}, false));
  ir.CreateCall(returned, {state, result, buffer});
  ir.CreateStore(returnAddress, field(HOIST_FIELD_RIP));
  ir.CreateStore(ir.CreateAdd(sp, ir.getInt64(8)), field(HOIST_FIELD_RSP));
  // A longjmp comes back into this frame: no callee may replace it by a tail call.
  caller.addFnAttr("disable-tail-calls", "true");
  call.eraseFromParent();
}

/// What a call of the import through a pointer does (the runtime's table maps a PLT stub to
/// the import): the host setjmp would be taken in a frame that returns right away.
void defineIndirectBody(llvm::Function &import, llvm::StringRef name) {
  llvm::Module &module = *import.getParent();
  llvm::LLVMContext &context = module.getContext();
  llvm::IRBuilder<> ir(llvm::BasicBlock::Create(context, "entry", &import));
  llvm::FunctionCallee report = module.getOrInsertFunction(
      "hoist_indirect_setjmp", llvm::FunctionType::get(ir.getVoidTy(), {ir.getPtrTy()}, false));
  if (auto *declared = llvm::dyn_cast<llvm::Function>(report.getCallee()))
    declared->setDoesNotReturn();
  ir.CreateCall(report, {ir.CreateGlobalString(unversioned(name), ".hoist.import")})
      ->setDoesNotReturn();
  ir.CreateUnreachable();
}

} // namespace

bool isSetjmpImport(llvm::StringRef name) {
  name = unversioned(name);
  return name == "setjmp" || name == "_setjmp" || name == "__sigsetjmp";
}

unsigned defineSetjmpImport(llvm::Function &import, llvm::StringRef name) {
  std::vector<llvm::CallInst *> calls;
  for (llvm::User *user : import.users())
    if (auto *call = llvm::dyn_cast<llvm::CallInst>(user))
      if (call->getCalledFunction() == &import && call->arg_size() == 2)
        calls.push_back(call);
  for (llvm::CallInst *call : calls)
    expandSetjmpCall(*call, maskSaving(name));
  defineIndirectBody(import, name);
  return unsigned(calls.size());
}

} // namespace hoist
