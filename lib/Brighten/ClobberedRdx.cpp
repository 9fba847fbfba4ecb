#include "Brighten/ClobberedRdx.h"

#include "Brighten/Signature.h"
#include "hoist/Lifter.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/FormatVariadic.h>

#include <map>
#include <vector>

namespace hoist {

namespace {

llvm::Value *emitMarker(llvm::IRBuilder<> &builder, llvm::MDNode *pc, const char *name) {
  llvm::Module &module = *builder.GetInsertBlock()->getModule();
  llvm::FunctionCallee marker =
      module.getOrInsertFunction(name, llvm::FunctionType::get(builder.getInt64Ty(), false));
  if (auto *function = llvm::dyn_cast<llvm::Function>(marker.getCallee())) {
    // Nothing but the value: dead markers go, and equal ones merge.
    function->setDoesNotAccessMemory();
    function->setDoesNotThrow();
    function->setWillReturn();
    function->addFnAttr(llvm::Attribute::NoSync);
  }
  llvm::CallInst *call = builder.CreateCall(marker);
  if (pc)
    call->setMetadata("hoist.pc", pc);
  return call;
}

bool isMarker(const llvm::Value *value, const char *name) {
  const auto *call = llvm::dyn_cast<llvm::CallInst>(value);
  return call && call->getCalledFunction() && call->getCalledFunction()->getName() == name;
}

} // namespace

llvm::Value *emitClobberedRdx(llvm::IRBuilder<> &builder, llvm::MDNode *pc) {
  return emitMarker(builder, pc, ClobberedRdxName);
}

llvm::Value *emitClobberedRax(llvm::IRBuilder<> &builder, llvm::MDNode *pc) {
  return emitMarker(builder, pc, ClobberedRaxName);
}

bool isClobberedRdx(const llvm::Value *value) { return isMarker(value, ClobberedRdxName); }

bool isClobberedRax(const llvm::Value *value) { return isMarker(value, ClobberedRaxName); }

namespace {

bool isProbeSinkCall(const llvm::User &user) {
  const auto *call = llvm::dyn_cast<llvm::CallBase>(&user);
  return call && call->getCalledFunction() &&
         call->getCalledFunction()->getName() == ProbeSinkName;
}

/// Whether `user`, which has `value` as operand `operand`, computes with it: anything but a
/// store of it, the probe's report of RDX, or an argument of a call. A callee's signature may
/// take RDX it does not read (a register passed on unchanged, or below one it reads), and a
/// call through a pointer passes every argument register; which callees read the RDX a call
/// left, SecondResult.h asks of the machine code.
bool computesWith(const llvm::User &user, unsigned operand, unsigned reportedOperand) {
  if (llvm::isa<llvm::StoreInst>(&user))
    return operand != 0;
  if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&user)) {
    if (isProbeSinkCall(user))
      return operand != reportedOperand;
    return call->isCallee(&call->getOperandUse(operand));
  }
  return true;
}

} // namespace

namespace {

/// The bits of `user`'s result that may hold bits `bits` of its operand `operand`, for the
/// instructions that only move bits about (masks, merges, shifts by constants, truncations,
/// extensions, phis and select values); nullopt for any other, which computes with them.
std::optional<llvm::APInt> bitsPassedOn(const llvm::User &user, unsigned operand,
                                        const llvm::APInt &bits) {
  unsigned width = user.getType()->isIntegerTy() ? user.getType()->getIntegerBitWidth() : 0;
  if (width == 0)
    return std::nullopt;
  if (llvm::isa<llvm::PHINode>(&user) ||
      (llvm::isa<llvm::SelectInst>(&user) && operand != 0))
    return bits;
  if (llvm::isa<llvm::TruncInst>(&user) || llvm::isa<llvm::ZExtInst>(&user))
    return bits.zextOrTrunc(width);
  const auto *binary = llvm::dyn_cast<llvm::BinaryOperator>(&user);
  if (!binary)
    return std::nullopt;
  const auto *constant = llvm::dyn_cast<llvm::ConstantInt>(binary->getOperand(1 - operand));
  switch (binary->getOpcode()) {
  case llvm::Instruction::Or:
  case llvm::Instruction::Xor:
    return bits;
  case llvm::Instruction::And:
    return constant ? bits & constant->getValue() : bits;
  case llvm::Instruction::Shl:
    if (operand == 0 && constant && constant->getValue().ult(width))
      return bits.shl(constant->getValue());
    return std::nullopt;
  case llvm::Instruction::LShr:
    if (operand == 0 && constant && constant->getValue().ult(width))
      return bits.lshr(constant->getValue());
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

} // namespace

std::optional<std::string> whyReadsClobberedRdx(const llvm::Function &probe) {
  for (const llvm::BasicBlock &block : probe)
    for (const llvm::Instruction &marker : block) {
      bool rax = isClobberedRax(&marker);
      if (!rax && !isClobberedRdx(&marker))
        continue;
      // The probe's report of the register the marker stands for.
      unsigned reportedOperand = rax ? 0 : ProbeSinkRdxOperand;
      // Which bits of each value may be the marker's: `setne %dl` merges a byte into RDX's
      // upper bits, and `test %dl, %dl` reads only the byte.
      std::vector<std::pair<const llvm::Value *, llvm::APInt>> pending = {
          {&marker, llvm::APInt::getAllOnes(64)}};
      std::map<const llvm::Value *, llvm::APInt> seen;
      bool reads = false;
      while (!pending.empty() && !reads) {
        auto [value, bits] = pending.back();
        pending.pop_back();
        if (bits.isZero())
          continue;
        auto known = seen.find(value);
        if (known != seen.end()) {
          if ((bits & ~known->second).isZero())
            continue;
          bits |= known->second;
        }
        seen.insert_or_assign(value, bits);
        for (const llvm::Use &use : value->uses()) {
          const llvm::User *user = use.getUser();
          if (!computesWith(*user, use.getOperandNo(), reportedOperand))
            continue;
          // Above the low byte of the RAX returned, as `setne %dl; or %edx, %eax` leaves them
          // beside a byte result: the bits a caller of the C function does not read, as with
          // RAX's own entry value (Signature.h).
          if (isProbeSinkCall(*user) && use.getOperandNo() == 0 &&
              bits.extractBitsAsZExtValue(8, 0) == 0)
            continue;
          std::optional<llvm::APInt> passed = bitsPassedOn(*user, use.getOperandNo(), bits);
          if (!passed) {
            reads = true;
            break;
          }
          pending.push_back({user, *passed});
        }
      }
      if (!reads)
        continue;
      std::string where;
      if (std::optional<uint64_t> address = pcMetadataOf(marker))
        where = llvm::formatv(" at {0:x}", *address).str();
      if (rax)
        return "reads RAX after the call" + where +
               ", whose callee returns nothing in it (what the callee left there)";
      return "reads RDX after the call" + where +
             ", whose callee returns RAX alone (RDX would be the second half of a result its "
             "signature does not have)";
    }
  return std::nullopt;
}

void replaceClobberedRdx(llvm::Module &module) {
  for (const char *name : {ClobberedRdxName, ClobberedRaxName}) {
    llvm::Function *marker = module.getFunction(name);
    if (!marker)
      continue;
    for (llvm::User *user : llvm::make_early_inc_range(marker->users())) {
      auto *call = llvm::cast<llvm::CallInst>(user);
      llvm::IRBuilder<> builder(call);
      call->replaceAllUsesWith(builder.CreateFreeze(llvm::PoisonValue::get(call->getType())));
      call->eraseFromParent();
    }
    marker->eraseFromParent();
  }
}

} // namespace hoist
