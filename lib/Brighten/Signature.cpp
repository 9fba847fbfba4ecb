#include "Brighten/Signature.h"

#include "Arch/StateLayout.h"
#include "Brighten/ClobberedRdx.h"
#include "Brighten/CodePointers.h"
#include "Brighten/FoldNanPropagation.h"
#include "Brighten/ImageData.h"
#include "Brighten/LaneFlow.h"
#include "Brighten/LocalFrame.h"
#include "Brighten/PointerHolders.h"
#include "Brighten/PromoteStack.h"
#include "Brighten/StackProtector.h"
#include "Passes/GuardedValues.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/DemandedBits.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/ConstantRange.h>
#include <llvm/IR/Operator.h>
#include <llvm/ADT/MapVector.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Support/FormatVariadic.h>

#include <functional>
#include <set>

namespace hoist {
namespace {

constexpr unsigned XmmArgumentRegisters = 8;

/// A register or a stack argument slot (field RSP, element the slot).
struct ProbeRegister {
  HoistStateField field;
  unsigned element;
  bool isStackSlot() const { return field == HOIST_FIELD_RSP; }
};

/// The probe's parameters, in order: the general-purpose registers but RSP, FS/GS base,
/// XMM0-7, the stack argument slots.
std::vector<ProbeRegister> probeRegisters() {
  std::vector<ProbeRegister> registers;
  for (unsigned field = HOIST_FIELD_RAX; field <= HOIST_FIELD_R15; ++field)
    if (field != HOIST_FIELD_RSP)
      registers.push_back({HoistStateField(field), 0});
  registers.push_back({HOIST_FIELD_FS_BASE, 0});
  registers.push_back({HOIST_FIELD_GS_BASE, 0});
  for (unsigned i = 0; i < XmmArgumentRegisters; ++i)
    registers.push_back({HOIST_FIELD_YMM, i});
  for (unsigned i = 0; i < StackArgumentSlots; ++i)
    registers.push_back({HOIST_FIELD_RSP, i});
  return registers;
}

/// The probe's parameter for register `field` (XMM `element`).
const llvm::Argument *probeArgument(const llvm::Function &probe,
                                    llvm::ArrayRef<ProbeRegister> registers,
                                    HoistStateField field, unsigned element = 0) {
  return probe.getArg(llvm::find_if(registers, [&](const ProbeRegister &reg) {
                        return reg.field == field && reg.element == element;
                      }) - registers.begin());
}

std::string registerName(const ProbeRegister &reg) {
  std::string name = llvm::StringRef(stateField(reg.field).name).lower();
  if (reg.field == HOIST_FIELD_YMM)
    return "xmm" + std::to_string(reg.element);
  if (reg.isStackSlot())
    return "stack" + std::to_string(reg.element);
  return name;
}

bool isProbeSink(const llvm::User *user) {
  const auto *call = llvm::dyn_cast<llvm::CallInst>(user);
  return call && call->getCalledFunction() &&
         call->getCalledFunction()->getName() == ProbeSinkName;
}

/// The sink operand that reports register `reg` (0: RAX, 1: XMM0, 2: RDX, 3: XMM1), or none.
std::optional<unsigned> sinkOperandOf(const ProbeRegister &reg) {
  if (reg.field == HOIST_FIELD_RAX)
    return 0;
  if (reg.field == HOIST_FIELD_YMM && reg.element == 0)
    return 1;
  if (reg.field == HOIST_FIELD_RDX)
    return ProbeSinkRdxOperand;
  if (reg.field == HOIST_FIELD_YMM && reg.element == 1)
    return ProbeSinkXmm1Operand;
  return std::nullopt;
}

/// Whether `use` is the probe's report of a register's entry value as that same register
/// (sink operand `own`): the register unchanged at a return, no use of its value.
bool isReportOfItself(const llvm::Use &use, std::optional<unsigned> own) {
  return isProbeSink(use.getUser()) && own == use.getOperandNo();
}

/// Whether `use` of a register's entry value only reports it unchanged as that same register
/// (sink operand `own`), directly or through phis and selects, loops of them included: RAX
/// as a void function leaves it on some paths.
bool onlyReportedAsItself(const llvm::Use &use, std::optional<unsigned> own,
                          std::set<const llvm::User *> &seen) {
  const llvm::User *user = use.getUser();
  if (isProbeSink(user))
    return isReportOfItself(use, own);
  const auto *select = llvm::dyn_cast<llvm::SelectInst>(user);
  if (!llvm::isa<llvm::PHINode>(user) && !(select && use.getOperandNo() != 0))
    return false;
  // A merge seen already is being followed: its other uses decide.
  if (!seen.insert(user).second)
    return true;
  return seen.size() < 64 && llvm::all_of(user->uses(), [&](const llvm::Use &next) {
           return onlyReportedAsItself(next, own, seen);
         });
}

bool onlyReportedAsItself(const llvm::Use &use, std::optional<unsigned> own) {
  std::set<const llvm::User *> seen;
  return onlyReportedAsItself(use, own, seen);
}

/// Whether the function computes with `value`, the entry value of a register whose own sink
/// operand is `own`: reporting it unchanged as that same register is not a read (RAX or XMM0
/// unchanged on some path reaches the sink through a phi or select), reporting it as the
/// other is (`mov %rsi, %rax; ret` returns its second argument).
bool isRead(const llvm::Value &value, std::optional<unsigned> own) {
  return llvm::any_of(value.uses(),
                      [&](const llvm::Use &use) { return !onlyReportedAsItself(use, own); });
}

/// Whether `value` reaches the probe's sink as a register other than its own (sink operand
/// `own`), directly or through phis, selects and views of its bits (bitcasts, shuffles, the
/// XMM register out of its YMM slot): an argument returned unchanged.
bool isReturnedAsOther(const llvm::Value &value, std::optional<unsigned> own,
                       unsigned depth = 0) {
  return llvm::any_of(value.uses(), [&](const llvm::Use &use) {
    const llvm::User *user = use.getUser();
    if (isProbeSink(user))
      return !isReportOfItself(use, own);
    bool passesOn = llvm::isa<llvm::PHINode>(user) || llvm::isa<llvm::SelectInst>(user) ||
                    llvm::isa<llvm::BitCastInst>(user) ||
                    llvm::isa<llvm::ShuffleVectorInst>(user) ||
                    llvm::isa<llvm::ExtractElementInst>(user);
    return depth < 8 && passesOn && isReturnedAsOther(*user, own, depth + 1);
  });
}

/// R10 and R11, which neither convention passes an argument in nor keeps across calls.
bool isScratchInteger(HoistStateField field) {
  return field == HOIST_FIELD_R10 || field == HOIST_FIELD_R11;
}

/// Whether `use` (of a register's entry value) stores it as it is into the function's own
/// frame (a register saved, to be restored). A store anywhere else hands the caller's value
/// out (a `setjmp` writing RBX into its buffer), which a brightened function starting the
/// register at zero would not.
bool savesInOwnFrame(const llvm::Use &use) {
  const auto *store = llvm::dyn_cast<llvm::StoreInst>(use.getUser());
  return store && use.getOperandNo() == 0 &&
         llvm::isa<llvm::AllocaInst>(llvm::getUnderlyingObject(store->getPointerOperand()));
}

/// Whether `use` of a register's entry value (sink operand `own`) does what the ABI lets a
/// function do with a register it does not take: save it into its own frame, leave it in a
/// pointer call's stack slots, or report it unchanged as itself.
bool leavesAlone(const llvm::Use &use, std::optional<unsigned> own) {
  return savesInOwnFrame(use) || isPointerCallStackSlot(use) || onlyReportedAsItself(use, own);
}

/// Whether every use of `argument` (a callee-saved register's entry value) saves it as it is,
/// or computes something none of whose bits depend on it: `setne %r15b` merges into r15's
/// upper bits, which only the restore (from the saved copy) reads back. The brightened
/// function starts such registers at zero (defineBrightened), so no undefined value meets
/// those instructions. RAX (sink operand `own`) may also come back as it came.
bool isOnlySavedOrUndemanded(const llvm::Argument &argument, std::optional<unsigned> own,
                             llvm::DemandedBits &demanded) {
  return llvm::all_of(argument.uses(), [&](const llvm::Use &use) {
    if (leavesAlone(use, own))
      return true;
    return use.getUser()->getType()->isIntOrIntVectorTy() &&
           demanded.getDemandedBits(&const_cast<llvm::Use &>(use)).isZero();
  });
}

/// Whether the entry value of RAX only keeps its upper bits beside a byte written into AL,
/// and that reaches nothing but the RAX the function returns: `cmp; setne %al; ret` leaves the
/// caller's upper 56 bits in RAX next to a bool (`and %rax, ~0xff`, then `or` with the byte).
/// RAX carries no argument in either convention (AL only for a variadic callee, whose
/// `test %al,%al` is a branch, not this), so those bits are the caller's garbage, which no
/// caller of a C function reads; the brightened function starts RAX at zero instead.
bool onlyMergesIntoTheResult(const llvm::Argument &rax) {
  for (const llvm::User *user : rax.users()) {
    const auto *mask = llvm::dyn_cast<llvm::BinaryOperator>(user);
    const auto *bits = mask ? llvm::dyn_cast<llvm::ConstantInt>(mask->getOperand(1)) : nullptr;
    if (!mask || mask->getOpcode() != llvm::Instruction::And || !bits ||
        (bits->getZExtValue() & 0xff) != 0)
      return false;
  }
  std::vector<const llvm::Value *> pending(rax.user_begin(), rax.user_end());
  std::set<const llvm::Value *> seen;
  while (!pending.empty()) {
    const llvm::Value *value = pending.back();
    pending.pop_back();
    if (!seen.insert(value).second)
      continue;
    for (const llvm::Use &use : value->uses()) {
      const llvm::User *user = use.getUser();
      if (isProbeSink(user)) {
        if (use.getOperandNo() != 0)
          return false;
        continue;
      }
      const auto *select = llvm::dyn_cast<llvm::SelectInst>(user);
      bool computes = llvm::isa<llvm::BinaryOperator>(user) || llvm::isa<llvm::CastInst>(user) ||
                      llvm::isa<llvm::PHINode>(user) ||
                      (select && use.getOperandNo() != 0);
      if (!computes || !user->getType()->isIntegerTy())
        return false;
      pending.push_back(user);
    }
  }
  return true;
}

/// Whether every use of `argument`, a stack argument, is the probe's own store of it into the
/// caller's area `area`. A store anywhere else is a read: a spill into a frame the optimizer
/// could not dissolve (bzip2's mainSort copies its seventh argument into a 4 KiB frame and
/// dereferences the copy).
bool isOnlyStoredInCallerArea(const llvm::Argument &argument, const llvm::AllocaInst *area) {
  return area && llvm::all_of(argument.uses(), [&](const llvm::Use &use) {
           const auto *store = llvm::dyn_cast<llvm::StoreInst>(use.getUser());
           return savesInOwnFrame(use) &&
                  llvm::getUnderlyingObject(store->getPointerOperand()) == area;
         });
}

/// How much of the probe's caller area something but stores and the keeper reads (a load
/// PromoteStack found but the optimizer did not forward): none (0), the bytes below the
/// returned offset when every such read is a load at a constant offset (a struct passed by
/// value, copied with vector loads), or nullopt when a read's extent cannot be told (a
/// `va_list` walked or handed to vfprintf, an offset computed at run time).
std::optional<uint64_t> callerAreaBytesRead(llvm::Function &probe) {
  llvm::AllocaInst *area = findCallerArea(probe);
  if (!area)
    return 0;
  const llvm::DataLayout &layout = probe.getDataLayout();
  uint64_t extent = 0;
  std::vector<std::pair<const llvm::Value *, uint64_t>> pointers = {{area, 0}};
  while (!pointers.empty()) {
    auto [pointer, offset] = pointers.back();
    pointers.pop_back();
    for (const llvm::User *user : pointer->users()) {
      if (const auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(user)) {
        llvm::APInt step(64, 0);
        if (!gep->accumulateConstantOffset(layout, step) || step.isNegative())
          return std::nullopt;
        pointers.push_back({gep, offset + step.getZExtValue()});
        continue;
      }
      if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(user)) {
        extent = std::max<uint64_t>(
            extent, offset + layout.getTypeStoreSize(load->getType()).getFixedValue());
        continue;
      }
      const auto *store = llvm::dyn_cast<llvm::StoreInst>(user);
      const auto *call = llvm::dyn_cast<llvm::CallInst>(user);
      bool keeper = call && call->getCalledFunction() &&
                    call->getCalledFunction()->getName() == CallerAreaKeeper;
      if (!keeper && !(store && store->getPointerOperand() == pointer))
        return std::nullopt;
    }
  }
  return extent;
}

/// Whether `value` is used as an address: it reaches an inttoptr through additions,
/// subtractions and phis (a pointer walked by a loop), and is otherwise only compared.
bool isAddress(const llvm::Value &value, std::optional<unsigned> own, unsigned depth = 0) {
  bool reachesMemory = false;
  for (const llvm::Use &use : value.uses()) {
    const llvm::User *user = use.getUser();
    if (isReportOfItself(use, own))
      continue;
    if (llvm::isa<llvm::IntToPtrInst>(user)) {
      reachesMemory = true;
    } else if (llvm::isa<llvm::ICmpInst>(user)) {
      continue;
    } else if (depth < 4 && (llvm::isa<llvm::PHINode>(user) ||
                             (llvm::isa<llvm::BinaryOperator>(user) &&
                              (llvm::cast<llvm::BinaryOperator>(user)->getOpcode() ==
                                   llvm::Instruction::Add ||
                               llvm::cast<llvm::BinaryOperator>(user)->getOpcode() ==
                                   llvm::Instruction::Sub)))) {
      reachesMemory |= isAddress(*user, own, depth + 1);
    } else {
      return false;
    }
  }
  return reachesMemory;
}

/// Whether the function reads only the low byte of RAX's entry value, besides leaving it
/// unchanged as its RAX on some paths: AL, as a variadic function's prologue tests it.
bool readsOnlyAl(const llvm::Argument &rax, std::optional<unsigned> own,
                 llvm::DemandedBits &demanded) {
  bool read = false;
  for (const llvm::Use &use : rax.uses()) {
    if (onlyReportedAsItself(use, own))
      continue;
    if (!use.getUser()->getType()->isIntOrIntVectorTy() ||
        demanded.getDemandedBits(&const_cast<llvm::Use &>(use)).getActiveBits() > 8)
      return false;
    read = true;
  }
  return read;
}

/// The low bits of `argument` the function's results depend on (LLVM's DemandedBits over its
/// uses), rounded up to 8, 16, 32 or 64.
llvm::APInt demandedBits(const llvm::Argument &argument, std::optional<unsigned> own,
                         llvm::DemandedBits &demanded) {
  unsigned width = argument.getType()->getIntegerBitWidth();
  llvm::APInt bits(width, 0);
  for (const llvm::Use &use : argument.uses()) {
    if (isReportOfItself(use, own))
      continue;
    // DemandedBits answers for integer-typed users; a store, inttoptr or call keeps them all.
    if (!use.getUser()->getType()->isIntOrIntVectorTy())
      return llvm::APInt::getAllOnes(width);
    bits |= demanded.getDemandedBits(&const_cast<llvm::Use &>(use));
  }
  return bits;
}

unsigned usedBits(const llvm::Argument &argument, std::optional<unsigned> own,
                  llvm::DemandedBits &demanded) {
  llvm::APInt bits = demandedBits(argument, own, demanded);
  for (unsigned width : {8u, 16u, 32u})
    if (bits.getActiveBits() <= width)
      return width;
  return 64;
}

/// 32 or 64: whether `value` fits 32 bits, the rest being known zero. Never narrower: a C
/// caller of an `int` function reads all of EAX, and LLVM does not extend an i8 result (even
/// `zeroext`) past AL.
unsigned returnedBits(const llvm::Value *value, const llvm::DataLayout &layout,
                      std::set<const llvm::Value *> &walking) {
  // A merge takes the widest of its values, leaving out what a call left in RAX (the
  // marker): that is no result, as a recursive SCC's first guesses (void callees) show.
  if (llvm::isa<llvm::PHINode, llvm::SelectInst>(value) && walking.size() < 64 &&
      walking.insert(value).second) {
    const auto *merge = llvm::cast<llvm::Instruction>(value);
    unsigned bits = 32;
    auto incoming = llvm::isa<llvm::PHINode>(merge) ? merge->operands()
                                                     : llvm::drop_begin(merge->operands());
    for (const llvm::Use &operand : incoming)
      if (!isClobberedRax(operand.get()))
        bits = std::max(bits, returnedBits(operand.get(), layout, walking));
    return bits;
  }
  llvm::KnownBits known = llvm::computeKnownBits(value, layout);
  return 64 - known.countMinLeadingZeros() <= 32 ? 32 : 64;
}

unsigned returnedBits(const llvm::Value *value, const llvm::DataLayout &layout) {
  std::set<const llvm::Value *> walking;
  return returnedBits(value, layout, walking);
}

/// The bits of an XMM argument a scalar SSE function reads: 32 or 64 from its truncations, 0
/// when its lanes only pass through to the result (the base of an insertelement), nullopt for
/// a use as a vector.
std::optional<unsigned> floatArgumentBits(const llvm::Argument &argument,
                                          llvm::DemandedBits &demanded) {
  unsigned bits = 0;
  for (const llvm::Use &use : argument.uses()) {
    const llvm::User *user = use.getUser();
    if (isProbeSink(user))
      continue;
    if (llvm::isa<llvm::TruncInst>(user)) {
      // cvtss2sd reads a float as i64 bit fields: what counts is the bits it keeps.
      bits = std::max(
          bits, demanded.getDemandedBits(&const_cast<llvm::Use &>(use)).getActiveBits());
      continue;
    }
    const llvm::Value *view = user;
    if (const auto *mask = llvm::dyn_cast<llvm::BinaryOperator>(user);
        mask && mask->getOpcode() == llvm::Instruction::And &&
        llvm::isa<llvm::ConstantInt>(mask->getOperand(1))) {
      // movss from memory keeps only lane 0 of the register's old value: `and` then a view.
      bits = std::max(bits, llvm::cast<llvm::ConstantInt>(mask->getOperand(1))
                                ->getValue().getActiveBits());
      if (!mask->hasOneUse())
        return std::nullopt;
      view = *mask->user_begin();
    }
    const auto *cast = llvm::dyn_cast<llvm::BitCastInst>(view);
    if (!cast || !llvm::all_of(cast->users(), [cast](const llvm::User *viewUser) {
          const auto *insert = llvm::dyn_cast<llvm::InsertElementInst>(viewUser);
          return insert && insert->getOperand(0) == cast;
        }))
      return std::nullopt;
  }
  if (bits == 0)
    return 0u;   // also a truncation nothing depends on
  if (bits <= 64)
    return bits <= 32 ? 32u : 64u;
  return std::nullopt;
}

/// 0, 32 or 64: the bytes of XMM argument `argument` the function reads through vector lanes
/// (LaneFlow.h), as an unused register, a float or a double; nullopt for more than the low
/// 8 bytes, or uses LaneFlow does not follow.
std::optional<unsigned> scalarLaneBits(const llvm::Argument &argument,
                                       llvm::DemandedBits &demanded) {
  std::optional<ByteSet> bytes = bytesRead(argument, demanded, isProbeSink);
  if (!bytes || (*bytes >> 8).any())
    return std::nullopt;
  if (bytes->none())
    return 0u;
  return (*bytes >> 4).any() ? 64u : 32u;
}

/// The bits (32 or 64) of the scalars that land in lane 0 of a vector value, through views,
/// lane-0 extracts, shuffles that keep lane 0, phis and selects; 0 when only constants land
/// there; nullopt when it cannot be followed or the widths disagree.
std::optional<unsigned> lowLaneBits(const llvm::Value *value, unsigned depth = 0) {
  if (depth > 12)
    return std::nullopt;
  if (llvm::isa<llvm::Constant>(value))
    return 0u;
  if (const auto *insert = llvm::dyn_cast<llvm::InsertElementInst>(value)) {
    const auto *index = llvm::dyn_cast<llvm::ConstantInt>(insert->getOperand(2));
    if (index && index->isZero())
      return lowLaneBits(insert->getOperand(1), depth + 1);
    // movq xmm0, rax (or movsd from a register, or mingw's movq through RAX): lane 1 of a
    // two-lane vector cleared, so lane 0 is a scalar whatever computed the vector.
    const auto *vector = llvm::cast<llvm::FixedVectorType>(insert->getType());
    const auto *inserted = llvm::dyn_cast<llvm::Constant>(insert->getOperand(1));
    unsigned elementBits = vector->getElementType()->getPrimitiveSizeInBits();
    if (vector->getNumElements() == 2 && index && index->isOne() && inserted &&
        inserted->isNullValue() && (elementBits == 32 || elementBits == 64))
      return elementBits;
    return lowLaneBits(insert->getOperand(0), depth + 1);
  }
  if (const auto *extract = llvm::dyn_cast<llvm::ExtractElementInst>(value)) {
    const auto *index = llvm::dyn_cast<llvm::ConstantInt>(extract->getIndexOperand());
    if (!index || !index->isZero())
      return std::nullopt;
    return lowLaneBits(extract->getVectorOperand(), depth + 1);
  }
  if (llvm::isa<llvm::BitCastInst>(value) || llvm::isa<llvm::ZExtInst>(value))
    // A view, or a call's floating-point result in XMM0 with the upper lanes zero.
    return lowLaneBits(llvm::cast<llvm::Instruction>(value)->getOperand(0), depth + 1);
  if (const auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(value)) {
    if (shuffle->getMaskValue(0) != 0)
      return std::nullopt;
    return lowLaneBits(shuffle->getOperand(0), depth + 1);
  }
  if (llvm::isa<llvm::PHINode>(value) || llvm::isa<llvm::SelectInst>(value)) {
    const auto *instruction = llvm::cast<llvm::Instruction>(value);
    unsigned bits = 0;
    for (unsigned i = llvm::isa<llvm::SelectInst>(value) ? 1 : 0;
         i < instruction->getNumOperands(); ++i) {
      if (instruction->getOperand(i) == value)
        continue;
      std::optional<unsigned> incoming = lowLaneBits(instruction->getOperand(i), depth + 1);
      if (!incoming || (bits && *incoming && *incoming != bits))
        return std::nullopt;
      bits = std::max(bits, *incoming);
    }
    return bits;
  }
  if (value->getType()->isVectorTy())
    return std::nullopt;
  unsigned bits = value->getType()->getPrimitiveSizeInBits();
  return bits == 32 || bits == 64 ? std::optional<unsigned>(bits) : std::nullopt;
}

/// Whether `value` is computed from floating-point values or XMM arguments (and not only
/// moved from memory or integer registers): what a floating-point result is made of.
bool comesFromFloatingPoint(const llvm::Value *value, std::set<const llvm::Value *> &seen,
                            unsigned depth = 0) {
  if (depth > 16 || !seen.insert(value).second)
    return false;
  if (value->getType()->isFPOrFPVectorTy())
    return true;
  if (const auto *argument = llvm::dyn_cast<llvm::Argument>(value))
    return argument->getType()->isIntegerTy(128);
  const auto *instruction = llvm::dyn_cast<llvm::Instruction>(value);
  if (!instruction || llvm::isa<llvm::LoadInst>(instruction))
    return false;
  return llvm::any_of(instruction->operands(), [&](const llvm::Use &operand) {
    return comesFromFloatingPoint(operand.get(), seen, depth + 1);
  });
}

bool comesFromFloatingPoint(const llvm::Value *value) {
  std::set<const llvm::Value *> seen;
  return comesFromFloatingPoint(value, seen);
}

/// Whether `value` is computed by integer vector arithmetic (paddd on loaded vectors), not
/// only moved through XMM registers (an inlined memcpy leaves its last 16 bytes in XMM0).
bool comesFromVectorArithmetic(const llvm::Value *value, std::set<const llvm::Value *> &seen,
                               unsigned depth = 0) {
  if (depth > 16 || !seen.insert(value).second)
    return false;
  const auto *instruction = llvm::dyn_cast<llvm::Instruction>(value);
  if (!instruction || llvm::isa<llvm::LoadInst>(instruction))
    return false;
  if (llvm::isa<llvm::BinaryOperator>(instruction) && instruction->getType()->isVectorTy())
    return true;
  return llvm::any_of(instruction->operands(), [&](const llvm::Use &operand) {
    return comesFromVectorArithmetic(operand.get(), seen, depth + 1);
  });
}

/// Whether `value` is a load, or a phi or select of loads (and of the sentinel): the return
/// address read back from the stack on every path (a flattened function reads it in several).
bool isLoadedFromMemory(const llvm::Value *value, unsigned depth = 0) {
  if (llvm::isa<llvm::LoadInst>(value))
    return true;
  if (const auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value))
    return constant->getZExtValue() == ReturnSentinel;
  if (depth > 8 || !(llvm::isa<llvm::PHINode>(value) || llvm::isa<llvm::SelectInst>(value)))
    return false;
  const auto *instruction = llvm::cast<llvm::Instruction>(value);
  for (unsigned i = llvm::isa<llvm::SelectInst>(value) ? 1 : 0;
       i < instruction->getNumOperands(); ++i)
    if (instruction->getOperand(i) != value &&
        !isLoadedFromMemory(instruction->getOperand(i), depth + 1))
      return false;
  return true;
}

/// Whether the failed return check that `marker` stands for fails only if the return address
/// loaded back from the stack differs from the one stored: a write the optimizer could not
/// bound away from the return slot (`memset` of a computed length into a local buffer), which
/// in the machine code is a smashed stack. The brightened function then traps where the
/// original would jump to whatever overwrote its return address. Any other shape (a constant
/// target, as after push/ret; a computed one) is not this.
bool onlyGuardsAStackOverwrite(const llvm::CallInst &marker) {
  const llvm::BasicBlock *predecessor = marker.getParent()->getSinglePredecessor();
  const auto *branch =
      predecessor ? llvm::dyn_cast<llvm::BranchInst>(predecessor->getTerminator()) : nullptr;
  if (!branch || !branch->isConditional())
    return false;
  // True where the check passed (the marker on the false edge), else where it failed.
  bool trueIsPassed = branch->getSuccessor(1) == marker.getParent();
  // The return paths' checks merged: each path's is such a comparison, or passed already.
  std::function<bool(const llvm::Value *, unsigned)> isReturnCheck =
      [&](const llvm::Value *condition, unsigned depth) {
        if (const auto *merged = llvm::dyn_cast<llvm::PHINode>(condition))
          return depth < 4 && llvm::all_of(merged->incoming_values(), [&](const llvm::Use &in) {
                   const auto *passed = llvm::dyn_cast<llvm::ConstantInt>(in.get());
                   return (passed && passed->isOne() == trueIsPassed) ||
                          isReturnCheck(in.get(), depth + 1);
                 });
        const auto *compare = llvm::dyn_cast<llvm::ICmpInst>(condition);
        if (!compare || compare->getPredicate() != (trueIsPassed ? llvm::ICmpInst::ICMP_EQ
                                                                 : llvm::ICmpInst::ICMP_NE))
          return false;
        for (unsigned i = 0; i < 2; ++i) {
          const auto *sentinel = llvm::dyn_cast<llvm::ConstantInt>(compare->getOperand(i));
          if (sentinel && sentinel->getZExtValue() == ReturnSentinel &&
              isLoadedFromMemory(compare->getOperand(1 - i)))
            return true;
        }
        return false;
      };
  return isReturnCheck(branch->getCondition(), 0);
}

/// Whether `value` is computed from `source` (through at most 32 instructions of data flow).
bool computedFrom(const llvm::Value *value, const llvm::Value *source,
                  std::set<const llvm::Value *> &seen, unsigned depth = 0) {
  if (value == source)
    return true;
  if (depth > 32 || !seen.insert(value).second)
    return false;
  const auto *instruction = llvm::dyn_cast<llvm::Instruction>(value);
  return instruction && llvm::any_of(instruction->operands(), [&](const llvm::Use &operand) {
           return computedFrom(operand.get(), source, seen, depth + 1);
         });
}

bool computedFrom(const llvm::Value *value, const llvm::Value *source) {
  std::set<const llvm::Value *> seen;
  return computedFrom(value, source, seen);
}

/// `value` without the bitcasts and zero extensions around it.
const llvm::Value *stripViews(const llvm::Value *value) {
  while (value && (llvm::isa<llvm::BitCastInst>(value) || llvm::isa<llvm::ZExtInst>(value)))
    value = llvm::cast<llvm::Instruction>(value)->getOperand(0);
  return value;
}

/// Whether `value`, XMM0 at a return, is a scalar moved in from a general register with the
/// rest of the register zeroed (`movq %rbx, %xmm0`): how compilers return a double whose bits
/// an integer register holds (libjq's `jv_number_value` returns a jv's number field so). A
/// copied block of memory, which also leaves XMM0 written without floating-point arithmetic
/// (an inlined memcpy), fills the whole register instead.
bool isScalarMovedIn(const llvm::Value *value) {
  value = stripViews(value);
  // The XMM register out of its YMM slot.
  if (const auto *extract = llvm::dyn_cast<llvm::ExtractElementInst>(value);
      extract && extract->getType()->isIntegerTy(128)) {
    const auto *index = llvm::dyn_cast<llvm::ConstantInt>(extract->getIndexOperand());
    value = index && index->isZero() ? stripViews(extract->getVectorOperand()) : nullptr;
  }
  if (const auto *insert = llvm::dyn_cast_or_null<llvm::InsertElementInst>(value)) {
    // Lane 0 of 64-bit lanes, with lane 1 (the rest of the XMM register) zero.
    const auto *index = llvm::dyn_cast<llvm::ConstantInt>(insert->getOperand(2));
    const auto *rest = llvm::dyn_cast<llvm::Constant>(insert->getOperand(0));
    const llvm::Constant *laneOne = rest ? rest->getAggregateElement(1u) : nullptr;
    bool laneZeroAlone = index && index->isZero() && laneOne && laneOne->isNullValue() &&
                         insert->getOperand(1)->getType()->isIntegerTy(64);
    value = laneZeroAlone ? insert->getOperand(1) : nullptr;
  }
  return value && !llvm::isa<llvm::Constant>(value) &&
         (value->getType()->isIntegerTy(64) || value->getType()->isIntegerTy(32));
}

/// What lane 0 of a vector value comes from, through views and shuffles that keep lane 0 and
/// inserts into other lanes: the scalar inserted there, or the vector computed whole (an
/// `xor <2 x i64>` of the argument with a sign mask); null where it cannot be followed.
const llvm::Value *laneZeroSource(const llvm::Value *value) {
  for (unsigned depth = 0; depth < 8 && value; ++depth) {
    value = stripViews(value);
    if (const auto *insert = llvm::dyn_cast<llvm::InsertElementInst>(value)) {
      const auto *index = llvm::dyn_cast<llvm::ConstantInt>(insert->getOperand(2));
      if (index && index->isZero())
        return insert->getOperand(1);
      value = insert->getOperand(0);
    } else if (const auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(value)) {
      value = shuffle->getMaskValue(0) == 0 ? shuffle->getOperand(0) : nullptr;
    } else if (const auto *extract = llvm::dyn_cast<llvm::ExtractElementInst>(value);
               extract && extract->getType()->isIntegerTy(128)) {
      // The XMM register out of its YMM slot.
      const auto *index = llvm::dyn_cast<llvm::ConstantInt>(extract->getIndexOperand());
      value = index && index->isZero() ? extract->getVectorOperand() : nullptr;
    } else {
      return value;
    }
  }
  return nullptr;
}

/// Whether `xmm`, reported at a return, is the register's entry value `entry`, seen through
/// views of its bits (the XMM register out of its YMM slot).
bool isEntryValue(const llvm::Value *xmm, const llvm::Value *entry) {
  return stripViews(xmm) == entry || laneZeroSource(xmm) == entry;
}

/// Whether `rax` holds the bits of XMM0's low lane: the same scalar, or element 0 of the
/// vector that lane comes from (gcc -O0 and mingw move a double result through RAX).
bool holdsLowLane(const llvm::Value *rax, const llvm::Value *xmm0) {
  const llvm::Value *integer = stripViews(rax);
  const llvm::Value *source = stripViews(laneZeroSource(xmm0));
  if (!integer || !source)
    return false;
  if (integer == source)
    return true;
  const auto *extract = llvm::dyn_cast<llvm::ExtractElementInst>(integer);
  const auto *index = extract ? llvm::dyn_cast<llvm::ConstantInt>(extract->getIndexOperand())
                              : nullptr;
  return index && index->isZero() && stripViews(extract->getVectorOperand()) == source &&
         integer->getType()->getPrimitiveSizeInBits() ==
             llvm::cast<llvm::VectorType>(source->getType())
                 ->getElementType()
                 ->getPrimitiveSizeInBits();
}

/// The shape of a 128-bit floating-point vector type, None for any other type.
VectorShape shapeOfType(const llvm::Type *type) {
  const auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
  if (!vector || vector->getPrimitiveSizeInBits() != 128)
    return VectorShape::None;
  if (vector->getElementType()->isFloatTy())
    return VectorShape::Float4;
  if (vector->getElementType()->isDoubleTy())
    return VectorShape::Double2;
  return VectorShape::None;
}

/// What the lanes of a whole XMM register `start` hold: the first floating-point vector type
/// among the values it flows into (`followUsers`: an argument) or is made of (a result),
/// through views, shuffles, lane inserts and extracts and phis; else integers (__m128i).
VectorShape vectorShape(const llvm::Value *start, bool followUsers) {
  std::vector<std::pair<const llvm::Value *, unsigned>> work = {{start, 0}};
  std::set<const llvm::Value *> seen;
  while (!work.empty()) {
    auto [value, depth] = work.back();
    work.pop_back();
    if (!seen.insert(value).second)
      continue;
    if (VectorShape shape = shapeOfType(value->getType()); shape != VectorShape::None)
      return shape;
    if (depth >= 8)
      continue;
    if (followUsers) {
      for (const llvm::User *user : value->users())
        if (llvm::isa<llvm::BitCastInst>(user) || llvm::isa<llvm::ShuffleVectorInst>(user) ||
            llvm::isa<llvm::InsertElementInst>(user) || llvm::isa<llvm::PHINode>(user) ||
            llvm::isa<llvm::ExtractElementInst>(user) || llvm::isa<llvm::BinaryOperator>(user))
          work.push_back({user, depth + 1});
    } else if (const auto *instruction = llvm::dyn_cast<llvm::Instruction>(value)) {
      for (const llvm::Value *operand : instruction->operands())
        work.push_back({operand, depth + 1});
    }
  }
  return VectorShape::Int2;
}

/// How many of `bits` count: up to the last one used.
size_t usedPrefix(llvm::ArrayRef<unsigned> bits) {
  size_t count = bits.size();
  while (count > 0 && bits[count - 1] == 0)
    --count;
  return count;
}

/// The arguments, in the order LLVM's lowering of `convention` assigns them the registers and
/// stack slots read (docs/BRIGHTEN.md): an unused register before a used one is an i64 (or a
/// double) nobody reads.
std::variant<Signature, std::string> assembleArguments(llvm::ArrayRef<unsigned> integerBits,
                                                       const std::vector<bool> &pointers,
                                                       llvm::ArrayRef<unsigned> floatBits,
                                                       llvm::ArrayRef<VectorShape> shapes,
                                                       llvm::ArrayRef<unsigned> stackBits,
                                                       bool vectorCountInAl,
                                                       CallingConvention convention) {
  llvm::ArrayRef<HoistStateField> integers = integerArgumentRegisters(convention);
  size_t stackCount = usedPrefix(stackBits);
  Signature signature;
  auto integer = [&](size_t i) {
    signature.arguments.push_back(
        {integers[i], 0, integerBits[i] ? integerBits[i] : 64, false, false, bool(pointers[i])});
  };
  auto floating = [&](size_t i) {
    signature.arguments.push_back(
        {HOIST_FIELD_YMM, unsigned(i), floatBits[i] ? floatBits[i] : 64, true, false, false,
         shapes[i]});
  };
  if (convention == CallingConvention::Win64) {
    // Microsoft x64: argument i is in the i-th integer register or in XMMi, never both.
    size_t positions = stackCount ? integers.size()
                                  : std::max(usedPrefix(integerBits), usedPrefix(floatBits));
    for (size_t i = 0; i < positions; ++i) {
      if (integerBits[i] && floatBits[i])
        return llvm::formatv("reads {0} and xmm{1}, both argument {2} in win64",
                             llvm::StringRef(stateField(integers[i]).name).lower(), i, i + 1)
          .str();
      if (floatBits[i])
        floating(i);
      else
        integer(i);
    }
  } else {
    size_t integerCount = stackCount ? integers.size() : usedPrefix(integerBits);
    for (size_t i = 0; i < integerCount; ++i)
      integer(i);
    for (size_t i = 0, count = usedPrefix(floatBits); i < count; ++i)
      floating(i);
    // XMM0-7 all read whole: the variadic prologue's save of them, for which AL is 8.
    signature.takesAl =
        vectorCountInAl && !llvm::all_of(floatBits, [](unsigned bits) { return bits == 128; });
    if (signature.takesAl)
      signature.arguments.push_back({HOIST_FIELD_RAX, 0, 8, false});
  }
  signature.vectorCountInAl = vectorCountInAl;
  for (size_t i = 0; i < stackCount; ++i)
    signature.arguments.push_back(
        {HOIST_FIELD_RSP, unsigned(i), stackBits[i] ? stackBits[i] : 64, false, true});
  return signature;
}

} // namespace

llvm::Expected<llvm::Function *> buildSignatureProbe(llvm::Function &flat,
                                                     CallingConvention convention) {
  llvm::Module &module = *flat.getParent();
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *i64 = llvm::Type::getInt64Ty(context);
  llvm::Type *i128 = llvm::Type::getInt128Ty(context);
  std::vector<ProbeRegister> registers = probeRegisters();
  std::vector<llvm::Type *> parameterTypes;
  for (const ProbeRegister &reg : registers)
    parameterTypes.push_back(reg.field == HOIST_FIELD_YMM ? i128 : i64);
  auto *probe = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), parameterTypes, false),
      llvm::GlobalValue::InternalLinkage, flat.getName() + ".probe", module);
  probe->addFnAttr(BrightenedAttribute);
  if (flat.hasFnAttribute(GuardCheckInRaxAttribute))
    probe->addFnAttr(GuardCheckInRaxAttribute);

  // The sink only touches memory nobody else can see: it keeps the values alive without
  // keeping the local stack alive.
  llvm::FunctionCallee sink = module.getOrInsertFunction(
      ProbeSinkName,
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), {i64, i128, i64, i128}, false));
  if (auto *sinkFunction = llvm::dyn_cast<llvm::Function>(sink.getCallee())) {
    sinkFunction->setMemoryEffects(llvm::MemoryEffects::inaccessibleMemOnly());
    sinkFunction->addFnAttr(llvm::Attribute::NoUnwind);
    sinkFunction->addFnAttr(llvm::Attribute::WillReturn);
  }

  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", probe));
  std::vector<RegisterInput> inputs;
  std::vector<llvm::Value *> stackArguments;
  for (auto [reg, argument] : llvm::zip(registers, probe->args())) {
    argument.setName(registerName(reg));
    if (reg.isStackSlot())
      stackArguments.push_back(&argument);
    else
      inputs.push_back({reg.field, reg.element, &argument});
  }
  llvm::Expected<llvm::AllocaInst *> state =
      emitLocalFrameCall(builder, flat, inputs, stackArguments, convention);
  if (!state)
    return state.takeError();
  llvm::Value *rax = builder.CreateLoad(i64, stateFieldPointer(builder, *state, HOIST_FIELD_RAX));
  llvm::Value *xmm0 =
      builder.CreateLoad(i128, stateFieldPointer(builder, *state, HOIST_FIELD_YMM, 0));
  llvm::Value *rdx = builder.CreateLoad(i64, stateFieldPointer(builder, *state, HOIST_FIELD_RDX));
  llvm::Value *xmm1 =
      builder.CreateLoad(i128, stateFieldPointer(builder, *state, HOIST_FIELD_YMM, 1));
  builder.CreateCall(sink, {rax, xmm0, rdx, xmm1});
  builder.CreateRetVoid();
  return probe;
}

bool isProbeEntryValue(const llvm::Value *value, HoistStateField field, unsigned element) {
  const auto *argument = llvm::dyn_cast<llvm::Argument>(value);
  if (!argument)
    return false;
  std::vector<ProbeRegister> registers = probeRegisters();
  if (argument->getArgNo() >= registers.size() ||
      argument->getParent()->arg_size() != registers.size())
    return false;
  const ProbeRegister &reg = registers[argument->getArgNo()];
  return reg.field == field && reg.element == element;
}

std::variant<Signature, std::string>
readSignatureProbe(llvm::Function &probe, CallingConvention convention,
                   llvm::function_ref<bool(uint64_t)> isBrightenedEntry,
                   llvm::function_ref<unsigned()> raxBitsRead) {
  std::optional<unsigned> resultBitsRead;
  auto uncarried = [](llvm::StringRef address) {
    return llvm::formatv("accesses the binary's memory at {0}, which holds what only the "
                         "original process has (code, the GOT, relocated pointers, imports)",
                         address)
        .str();
  };
  if (std::optional<uint64_t> either = listedAddressSurvives(probe, AmbiguousAddressAttribute))
    return llvm::formatv("uses {0:x}, which the code names as an address and an instruction "
                         "also holds as a number: which one a use is cannot be told",
                         *either)
        .str();
  if (llvm::Attribute data = probe.getFnAttribute(ImageDataAttribute); data.isValid())
    return uncarried(data.getValueAsString());
  if (std::optional<uint64_t> data = listedAddressSurvives(probe, UncarriedAddressAttribute))
    return uncarried("0x" + llvm::utohexstr(*data, true));
  if (std::optional<uint64_t> code = listedAddressSurvives(probe, CodeAddressAttribute))
    return llvm::formatv("hands on the code address {0:x}, which means the original "
                         "function, which the recompiled program does not have",
                         *code)
        .str();
  if (const llvm::Function *function = computesWithFunctionAddress(probe))
    return llvm::formatv("computes with the address of {0}, which the recompiled program has "
                         "elsewhere",
                         function->getName())
        .str();
  if (std::optional<std::string> reason = whyReadsUncarriedSlot(probe, isBrightenedEntry))
    return *reason;
  if (std::optional<std::string> reason = whyHandsOnPointerHolder(probe))
    return *reason;
  if (llvm::Attribute outside = probe.getFnAttribute(StackOutsideAttribute);
      outside.isValid())
    return llvm::formatv("addresses the stack {0} bytes past the local stack's top (more "
                         "than {1} stack arguments, or its caller's frame)",
                         outside.getValueAsString(), StackArgumentSlots)
        .str();

  for (const llvm::Instruction &instruction : llvm::instructions(probe))
    if (const auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
        call && call->getCalledFunction() &&
        call->getCalledFunction()->getName() == UnresolvedJumpMarker) {
      uint64_t address =
          llvm::cast<llvm::ConstantInt>(call->getArgOperand(0))->getZExtValue();
      if (address == ReturnedElsewhere) {
        if (onlyGuardsAStackOverwrite(*call))
          continue;
        return "may return somewhere other than to its caller (its return address replaced, "
               "as by push/ret)";
      }
      return llvm::formatv("jumps to a target the lifter did not resolve at {0:x}", address)
          .str();
    }

  std::vector<ProbeRegister> registers = probeRegisters();
  // Read as the brightened function runs it, from zero (onlyMergesIntoTheResult).
  if (auto *raxIn = const_cast<llvm::Argument *>(probeArgument(probe, registers, HOIST_FIELD_RAX));
      raxIn && isRead(*raxIn, 0) && onlyMergesIntoTheResult(*raxIn))
    raxIn->replaceAllUsesWith(llvm::ConstantInt::get(raxIn->getType(), 0));
  llvm::DominatorTree dominators(probe);
  llvm::AssumptionCache assumptions(probe);
  llvm::DemandedBits demanded(probe, assumptions, dominators);
  llvm::ArrayRef<HoistStateField> argumentRegisters = integerArgumentRegisters(convention);
  std::vector<unsigned> argumentBits(argumentRegisters.size(), 0);
  std::vector<bool> pointerArguments(argumentRegisters.size(), false);
  std::vector<unsigned> floatBits(XmmArgumentRegisters, 0);
  std::vector<VectorShape> shapes(XmmArgumentRegisters, VectorShape::None);
  std::vector<unsigned> stackBits(StackArgumentSlots, 0);
  bool vectorCountInAl = false;
  // A read of the caller's area whose extent cannot be told reads the slots a call through a
  // pointer passes (a variadic function's va_list: "Own variadic functions" in
  // docs/BRIGHTEN.md).
  uint64_t areaRead = callerAreaBytesRead(probe).value_or(
      stackArgumentOffset(HandedOnStackSlots, convention) - 8);
  const llvm::AllocaInst *callerArea = findCallerArea(probe);
  for (auto [reg, argument] : llvm::zip(registers, probe.args())) {
    if (!isRead(argument, sinkOperandOf(reg)))
      continue;
    if (reg.isStackSlot()) {
      // Its store into the caller's area is not a read, unless a load from the area covers it.
      if (stackArgumentOffset(reg.element, convention) - 8 < areaRead ||
          !isOnlyStoredInCallerArea(argument, callerArea))
        stackBits[reg.element] = usedBits(argument, std::nullopt, demanded);
      continue;
    }
    if (reg.field == HOIST_FIELD_YMM) {
      // Returned in XMM0 as it came (`movapd %xmm1, %xmm0; ret`): a double, a float and an
      // __m128 look the same, so all of it, a vector, which is right for a caller of each.
      std::optional<unsigned> bits;
      if (!isReturnedAsOther(argument, sinkOperandOf(reg))) {
        bits = scalarLaneBits(argument, demanded);
        if (!bits)
          bits = floatArgumentBits(argument, demanded);
      }
      if (!bits) {
        // More than the low lane, or uses LaneFlow does not follow: the whole register, a
        // vector argument (__m128, __m128d, __m128i). Win64 passes those by reference, so
        // code reading one in an XMM register does not follow it.
        if (convention == CallingConvention::Win64)
          return llvm::formatv("reads {0} as a vector, which win64 passes by reference",
                               registerName(reg))
              .str();
        bits = 128;
        shapes[reg.element] = vectorShape(&argument, true);
      }
      if (*bits == 0)
        continue;
      if (reg.element >= floatArgumentRegisterCount(convention))
        return llvm::formatv("reads {0} before writing it, which is not an argument register "
                             "of {1}",
                             registerName(reg), callingConventionName(convention))
            .str();
      floatBits[reg.element] = *bits;
      continue;
    }
    bool calleeSaved = isCalleeSaved(reg.field, convention);
    // clang's `push %rax` aligns the stack and `pop %rax` drops the slot: RAX's entry value,
    // which carries no argument, only saved as a callee-saved register is (into a frame that
    // may escape to a callee, which finds the caller's garbage there in the original).
    if ((calleeSaved || reg.field == HOIST_FIELD_RAX) &&
        isOnlySavedOrUndemanded(argument, sinkOperandOf(reg), demanded))
      continue;
    // The register itself on the path (ls's `main` pushes R10 to align the stack, restores
    // it with `pop` and pushes it again on the next turn of its loop) may be saved; a value
    // computed from it in a stack slot a call passes is the caller's garbage there as the
    // register itself is.
    auto harmless = [&](const llvm::Use &use, bool unchanged) {
      return unchanged ? leavesAlone(use, sinkOperandOf(reg)) : isPointerCallStackSlot(use);
    };
    // Of the result, the bits its callers read (a `bool` in AL: `sete %r14b; mov %r14d, %eax`
    // leaves the caller's R14 above it).
    auto needed = [&](const llvm::Use &use) -> uint64_t {
      if (!isProbeSink(use.getUser()) || use.getOperandNo() != 0 || !raxBitsRead)
        return ~uint64_t(0);
      if (!resultBitsRead)
        resultBitsRead = raxBitsRead();
      return *resultBitsRead < 64 ? (uint64_t(1) << *resultBitsRead) - 1 : ~uint64_t(0);
    };
    // Left unset on a path where a flag says it holds nothing (GuardedValues.h): the
    // brightened function starts it at zero, and nothing it does sees the difference.
    if (calleeSaved && !mayReachAnEffect(argument, harmless, demanded, 20000, needed))
      continue;
    if (calleeSaved)
      return llvm::formatv("reads {0} before writing it, which is callee-saved in {1}, not an "
                           "argument",
                           registerName(reg), callingConventionName(convention))
          .str();
    if (reg.field == HOIST_FIELD_RAX) {
      // Its low byte alone: the count of vector registers a variadic call passes, which the
      // caller sets up in AL (SysV 3.5.7) and the prologue tests before saving XMM0-7.
      if (convention == CallingConvention::SysV &&
          readsOnlyAl(argument, sinkOperandOf(reg), demanded)) {
        vectorCountInAl = true;
        continue;
      }
      return std::string("reads rax before writing it, which is not an argument register");
    }
    // The brightened function finds the guard through its own thread pointer
    // (defineBrightened), which the x86-64 Linux ABI keeps at %fs:0.
    if (reg.field == HOIST_FIELD_FS_BASE && convention == CallingConvention::SysV &&
        readsOnlyTheStackGuard(argument))
      continue;
    if (reg.field == HOIST_FIELD_FS_BASE || reg.field == HOIST_FIELD_GS_BASE)
      return llvm::formatv("reads the {0} for thread-local storage (only the stack "
                           "protector's guard at %fs:0x28 is the recompiled program's too)",
                           registerName(reg))
          .str();
    auto *position = llvm::find(argumentRegisters, reg.field);
    // A scratch register gcc or clang leaves unset where only bits nobody needs, or a path a
    // flag rules out, see it (as for callee-saved ones above): it starts at zero.
    if (position == argumentRegisters.end() && isScratchInteger(reg.field) &&
        !mayReachAnEffect(argument, harmless, demanded, 20000, needed))
      continue;
    if (position == argumentRegisters.end())
      return llvm::formatv("reads {0} before writing it, which is not an argument register "
                           "of {1}",
                           registerName(reg), callingConventionName(convention))
          .str();
    size_t index = position - argumentRegisters.begin();
    argumentBits[index] = usedBits(argument, sinkOperandOf(reg), demanded);
    pointerArguments[index] =
        argumentBits[index] == 64 && isAddress(argument, sinkOperandOf(reg));
  }

  std::variant<Signature, std::string> assembled =
      assembleArguments(argumentBits, pointerArguments, floatBits, shapes, stackBits,
                        vectorCountInAl, convention);
  if (auto *reason = std::get_if<std::string>(&assembled))
    return *reason;
  Signature signature = std::get<Signature>(assembled);
  // The sink stands after the check that the function returned to its caller: once
  // simplification removed every one, no path returns.
  signature.noReturn = llvm::none_of(llvm::instructions(probe), [](const llvm::Instruction &i) {
    return isProbeSink(&i);
  });

  const llvm::Argument *raxIn = probe.getArg(0);
  bool raxWritten = false, xmm0Written = false;
  const llvm::Argument *xmm0In = probeArgument(probe, registers, HOIST_FIELD_YMM, 0);
  const llvm::Argument *fsBaseIn = probeArgument(probe, registers, HOIST_FIELD_FS_BASE);
  bool guardCheckInRax = probe.hasFnAttribute(GuardCheckInRaxAttribute);
  unsigned bits = 0, floatResultBits = 0;
  // XMM0's low lane is the result when it holds a floating-point scalar and RAX is unchanged,
  // clobbered by a call, or the same bits (gcc -O0 moves a double result through RAX: movq
  // rax, xmm0), or RAX holds an integer not computed from floating-point values (a loop
  // counter next to a float sum). Otherwise RAX is the result and XMM0 SSE scratch.
  bool floatResult = true, xmm0Scratch = true, xmm0IntegerVector = false;
  // RAX holding only a copy of an argument (gcc -O0 loads a pointer argument through RAX)
  // does not make RAX the result next to a vector in XMM0; a constant does (a static
  // buffer's address returned by a vectorized loop that fills it).
  bool raxOnlyCopied = true;
  // A path where RAX and XMM0's low lane both hold results of floating-point computation and
  // neither is made from the other: either may be the result (gcc's `(double)(long)(x*1e3)/7
  // + (int)y` leaves (int)y in EAX as scratch; `(int)(x*2)` leaves x*2 in XMM0). Which one the
  // callers read decides it, which this probe cannot see: both are returned, RAX where the
  // callers may read it.
  bool ambiguousResult = false;
  // A call through a pointer returns in RAX or XMM0, which of them its unknown prototype says:
  // where both reach a return as it left them, the function returns both.
  bool passedThrough = false;
  // RDX is a second result beside RAX's where some return has in it a value the function put
  // there: not RDX's entry value, not what a call left undefined (ClobberedRdx.h), not what a
  // stack guard check leaves. Which of those values its callers read, this probe cannot see;
  // a result one wider than the callers use is never wrong, one narrower is.
  const llvm::Argument *rdxIn = probeArgument(probe, registers, HOIST_FIELD_RDX);
  bool guardCheckInRdx = probe.hasFnAttribute(GuardCheckInRdxAttribute);
  bool rdxWritten = false, rdxFromPointerCall = false;
  // XMM1 the same way beside a floating-point result; after a typed call it keeps what it
  // held before, which counts as the function's own (a result wider than needed).
  const llvm::Argument *xmm1In = probeArgument(probe, registers, HOIST_FIELD_YMM, 1);
  bool xmm1Written = false, xmm1FromPointerCall = false;
  // XMM0 beside an integer result, as RDX beside it: a value of the function's own at some
  // return (not what a call left: poison, or a call through a pointer's result).
  bool xmm0Own = false, xmm0FromAnyPointerCall = false;
  bool rdxKept = true;
  for (const llvm::Instruction &instruction : llvm::instructions(probe)) {
    if (!isProbeSink(&instruction))
      continue;
    const auto *call = llvm::cast<llvm::CallInst>(&instruction);
    rdxKept &= call->getArgOperand(ProbeSinkRdxOperand) == rdxIn;
    const llvm::Value *rax = call->getArgOperand(0);
    const llvm::Value *xmm0 = call->getArgOperand(1);
    // Through phis and selects: RDX unchanged on one path and clobbered by a call on another
    // is no value of the function's own on either.
    std::function<bool(const llvm::Value *, unsigned)> ownValue =
        [&](const llvm::Value *rdx, unsigned depth) {
          if (rdx == rdxIn || isClobberedRdx(rdx) || llvm::isa<llvm::UndefValue>(rdx) ||
              (guardCheckInRdx && isLeftByTheGuardCheck(rdx, *fsBaseIn)))
            return false;
          // What a call through a pointer left: a result forwarded only where its RAX is too
          // (passedThrough below).
          if (isPointerCallResult(rdx, 1)) {
            rdxFromPointerCall = true;
            return false;
          }
          if (depth > 8 || !(llvm::isa<llvm::PHINode>(rdx) || llvm::isa<llvm::SelectInst>(rdx)))
            return true;
          const auto *merge = llvm::cast<llvm::Instruction>(rdx);
          for (unsigned i = llvm::isa<llvm::SelectInst>(rdx) ? 1 : 0; i < merge->getNumOperands();
               ++i)
            if (merge->getOperand(i) != rdx && ownValue(merge->getOperand(i), depth + 1))
              return true;
          return false;
        };
    rdxWritten |= ownValue(call->getArgOperand(ProbeSinkRdxOperand), 0);
    const llvm::Value *xmm1 = call->getArgOperand(ProbeSinkXmm1Operand);
    bool xmm1Unchanged = isEntryValue(xmm1, xmm1In);
    if (isPointerCallResult(stripViews(xmm1), 3))
      xmm1FromPointerCall = true;
    else
      xmm1Written |= !xmm1Unchanged && !llvm::isa<llvm::UndefValue>(xmm1);
    bool raxFromPointerCall = isPointerCallResult(rax, 0);
    bool xmm0FromPointerCall = isPointerCallResult(stripViews(xmm0), 2);
    passedThrough |= raxFromPointerCall && xmm0FromPointerCall;
    // The marker (or poison): a call clobbered RAX (its callee returns in XMM0 or nothing). A
    // guard check in RAX clobbers it as well, and so does a call through a pointer next to a
    // floating-point XMM0 computed from its result. Next to integer data in XMM0 (a struct
    // copied with movdqu after `p = hooks.alloc(n)`) RAX is the pointer call's result, which
    // the function may return (zstd's context constructors do).
    bool xmm0FloatingPoint =
        xmm0 != xmm0In && (comesFromFloatingPoint(xmm0) || isScalarMovedIn(xmm0));
    bool raxClobbered = llvm::isa<llvm::PoisonValue>(rax) || isClobberedRax(rax) ||
                        (guardCheckInRax && isLeftByTheGuardCheck(rax, *fsBaseIn)) ||
                        (raxFromPointerCall && !xmm0FromPointerCall && xmm0FloatingPoint);
    if (rax != raxIn && !raxClobbered) {
      raxWritten = true;
      const llvm::Value *source = stripViews(rax);
      raxOnlyCopied &= llvm::isa<llvm::Argument>(source);
      bits = std::max(bits, returnedBits(rax, probe.getDataLayout()));
    }
    bool xmm0Unchanged = isEntryValue(xmm0, xmm0In);
    xmm0FromAnyPointerCall |= xmm0FromPointerCall;
    xmm0Own |= !xmm0Unchanged && !xmm0FromPointerCall &&
               !llvm::isa<llvm::UndefValue>(stripViews(xmm0));
    if (xmm0 == xmm0In)
      continue;
    xmm0Written = true;
    bool floatingPoint = comesFromFloatingPoint(xmm0) || isScalarMovedIn(xmm0);
    xmm0Scratch &= !floatingPoint;
    std::set<const llvm::Value *> seen;
    xmm0IntegerVector |= comesFromVectorArithmetic(xmm0, seen);
    std::optional<unsigned> scalarBits = lowLaneBits(xmm0);
    bool raxAgrees = rax == raxIn || raxClobbered || !comesFromFloatingPoint(rax) ||
                     holdsLowLane(rax, xmm0);
    if (!raxAgrees && floatingPoint && scalarBits && *scalarBits) {
      // Both computed: the one made from the other's final value is the result (cvtsi2sd of
      // the integer into the returned double; cvttsd2si of the double into the returned int).
      const llvm::Value *integer = stripViews(rax);
      bool floatFromInteger = computedFrom(xmm0, integer);
      bool integerFromFloat = computedFrom(integer, stripViews(xmm0)) ||
                              computedFrom(integer, laneZeroSource(xmm0));
      if (floatFromInteger && !integerFromFloat)
        raxAgrees = true;
      else if (!integerFromFloat)
        ambiguousResult = true;
    }
    floatResult &= floatingPoint && scalarBits && *scalarBits && raxAgrees;
    floatResultBits = std::max(floatResultBits, scalarBits.value_or(0));
  }
  // Win64 returns a struct of more than 8 bytes through memory, never in RDX, XMM1, or RAX and
  // XMM0 together; and only SysV's callers are scanned (SecondResult.h).
  bool sysV = convention == CallingConvention::SysV;
  signature.keepsRdx = rdxKept;
  rdxWritten &= sysV;
  xmm1Written &= sysV;
  if (passedThrough) {
    signature.returnsPassedThrough = true;
    signature.returnsRdx = rdxWritten || rdxFromPointerCall;
    signature.returnsXmm1 = xmm1FromPointerCall;
    signature.returnBits = 64;
    return signature;
  }
  if (ambiguousResult && !sysV)
    return "RAX and XMM0 both hold a floating-point computation at a return and neither is "
           "made from the other: the result may be either";
  if (ambiguousResult) {
    // Both, unless no caller reads RAX (SecondResult.h): a caller reading either reads it right.
    signature.returnsFloat = true;
    signature.returnBits = floatResultBits ? floatResultBits : 64;
    signature.returnsXmm1 = xmm1Written;
    signature.returnsMixed = true;
    return signature;
  }
  if (xmm0Written && floatResult) {
    signature.returnsFloat = true;
    signature.returnBits = floatResultBits;
    signature.returnsXmm1 = xmm1Written;
    signature.returnsMixed = sysV && raxWritten;
    return signature;
  }
  if (xmm0Written && (!raxWritten || raxOnlyCopied) && (!xmm0Scratch || xmm0IntegerVector)) {
    // Floating-point data, XMM arguments or integer vector arithmetic in more than XMM0's low
    // lane, RAX untouched: a vector result, in XMM0 in both conventions.
    signature.returnsFloat = true;
    signature.returnBits = 128;
    VectorShape shape = VectorShape::Int2;
    for (const llvm::Instruction &instruction : llvm::instructions(probe))
      if (isProbeSink(&instruction))
        if (VectorShape found = vectorShape(llvm::cast<llvm::CallInst>(instruction).getArgOperand(1),
                                            false);
            found != VectorShape::Int2)
          shape = found;
    signature.returnVector = shape;
    signature.returnsXmm1 = xmm1Written;
    signature.returnsMixed = sysV && raxWritten;
    return signature;
  }
  if (sysV && !raxWritten && xmm0Own) {
    signature.returnsFloat = true;
    signature.returnBits = 128;
    signature.returnVector = VectorShape::Int2;
    signature.returnsXmm0IfRead = true;
    return signature;
  }
  signature.returnBits = raxWritten ? bits : 0;
  // A result in RDX or XMM0 alone is none: a 9-16 byte struct has an eightbyte in RAX.
  signature.returnsRdx = raxWritten && rdxWritten;
  signature.returnsMixed = sysV && raxWritten && xmm0Own;
  signature.keepsXmm0 = !xmm0Own && !xmm0FromAnyPointerCall;
  return signature;
}

std::vector<ResultRegister> resultRegisters(const Signature &signature) {
  std::vector<ResultRegister> registers;
  if (signature.returnsPassedThrough || signature.returnsRdx || signature.returnsMixed)
    registers.push_back({HOIST_FIELD_RAX});
  if (signature.returnsRdx)
    registers.push_back({HOIST_FIELD_RDX});
  if (signature.returnsPassedThrough || signature.returnsXmm1 || signature.returnsMixed)
    registers.push_back({HOIST_FIELD_YMM, 0});
  if (signature.returnsXmm1)
    registers.push_back({HOIST_FIELD_YMM, 1});
  return registers;
}

unsigned stackSlotsOf(const Signature &signature) {
  unsigned slots = 0;
  for (const Signature::Argument &argument : signature.arguments)
    if (argument.onStack)
      slots = std::max(slots, argument.element + 1);
  return slots;
}

} // namespace hoist
