// What a semantic sees while it lifts one instruction: operands, registers, flags, memory and
// the control-flow operations, all in terms of the CPU. lib/Lift implements the control flow.
#pragma once

#include "Arch/LiftBuilder.h"
#include "Arch/RegisterFile.h"
#include "Decode/Instr.h"
#include "hoist/Exception.h"

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/IRBuilder.h>

#include <array>

namespace hoist {

/// On an instruction whose value an instruction's register operand writes into RSP (`sub
/// rsp, rax`, `mov rsp, rbp`): brightening checks the stack it moves (Brighten/StackBound.h).
inline constexpr const char *StackPointerWriteMetadata = "hoist.rsp-write";

class DiagnosticSink;

enum class LiftStatus { Lifted, Unsupported };

/// Where control goes; implemented by the function lifter, which knows the blocks.
class ControlTransfers {
public:
  virtual ~ControlTransfers() = default;
  virtual void jump(uint64_t target) = 0;
  virtual void branch(llvm::Value *condition, uint64_t taken, uint64_t notTaken) = 0;
  virtual void jumpIndirect(llvm::Value *target) = 0;
  /// A call to `target`; lifting continues after it at `returnAddress`.
  virtual void call(llvm::Value *target, uint64_t returnAddress) = 0;
  virtual void ret(llvm::Value *target) = 0;
  /// The instruction faults or traps (ud2, int3, hlt, divide error): ends the path. `address`
  /// is the RIP the CPU reports: the instruction for a fault, the next one for a trap.
  /// `exception` goes to State.EXCEPTION, so a runtime raises the signal the kernel would.
  virtual void trap(llvm::Value *address, HoistException exception) = 0;
  /// Faults when `condition` holds (a divide error, say) and goes on after it otherwise. The
  /// current block is split: the code a semantic emits next runs only when it did not fault.
  virtual void trapIf(llvm::Value *condition, llvm::Value *address,
                      HoistException exception) = 0;
  /// Goes to `target` (a successor of this instruction) when `condition` holds and goes on
  /// with the rest of the instruction otherwise; splits the block like trapIf.
  virtual void branchIf(llvm::Value *condition, uint64_t target) = 0;
  /// An instruction whose effect only the machine can produce (cpuid, rdtsc, syscall, ...):
  /// writes State back, calls `void @<name>(ptr %state, ptr %mem, i64 address)`, which puts
  /// the results into State, and reads State again.
  virtual void callRuntime(llvm::StringRef name) = 0;
  /// Emits `then` for where `condition` holds and `otherwise` (may be empty) for where it does
  /// not; lifting of the instruction goes on after both, registers merging by phis. For the
  /// parts of one instruction that run-time values select (xsave's state components, chosen
  /// by EDX:EAX). Either part may split its block (trapIf) or end its path.
  virtual void ifThenElse(llvm::Value *condition, llvm::function_ref<void()> then,
                          llvm::function_ref<void()> otherwise) = 0;
  /// Hands the instruction to the runtime as if it had no semantics: State is written back,
  /// __hoist_unsupported called at its address, and State read again after it. For a case of
  /// a lifted instruction that only run-time values reveal (xsave of a state component Hoist
  /// does not model); used in one part of ifThenElse.
  virtual void unsupportedAtRunTime() = 0;
  /// Runs `attempt` until the flag it returns is true, then goes on after the loop; values
  /// `attempt` computes are usable after it. `attempt` emits IR only, no register reads or
  /// writes: the compare-and-swap loop of a locked update no atomicrmw does (lock neg).
  virtual void repeatUntil(llvm::function_ref<llvm::Value *()> attempt) = 0;
};

/// Sees the memory accesses semantics make through LiftContext::load and store. Concolic
/// lifting (lib/Deobf/Concolic) keeps concrete memory this way; static lifting has none.
class MemoryObserver {
public:
  virtual ~MemoryObserver() = default;
  /// The value a load of `type` at `address` reads, when it is known; null: the load is emitted.
  virtual llvm::Value *knownLoad(llvm::IRBuilderBase &ir, llvm::Value *address, llvm::Type *type) = 0;
  /// A store was emitted.
  virtual void stored(llvm::Value *address, llvm::Value *value) = 0;
};

/// Condition codes in the order of their encoding (jo=0 ... jg=15).
enum class Condition : uint8_t { O, NO, B, AE, E, NE, BE, A, S, NS, P, NP, L, GE, LE, G };

class LiftContext {
public:
  LiftContext(llvm::LLVMContext &context, RegisterFile &registers, llvm::Value *memoryBase,
              ControlTransfers &control, DiagnosticSink &diagnostics);

  LiftBuilder ir;   // positioned at the end of the current block
  void setPosition(RegisterFile::Block *block, const Instr *instr);
  /// setPosition at the start of a new instruction: forgets what the last one computed.
  void startInstruction(RegisterFile::Block *block, const Instr *instr);
  const Instr &instr() const { return *instr_; }
  RegisterFile::Block *block() const { return block_; }
  ControlTransfers &control() { return control_; }
  DiagnosticSink &diagnostics() { return diagnostics_; }

  llvm::IntegerType *intType(unsigned bits) { return ir.getIntNTy(bits); }
  /// An integer constant of `bits`, keeping the low bits of `value`.
  llvm::ConstantInt *constant(unsigned bits, uint64_t value) {
    uint64_t mask = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    return llvm::ConstantInt::get(intType(bits), value & mask);
  }

  // Registers and flags.
  llvm::Value *readVar(Var var) { return registers_.read(block_, var); }
  void writeVar(Var var, llvm::Value *value) { registers_.write(block_, var, value); }
  /// A general-purpose register as an integer of its width (al is i8, ah is bits 8..15).
  llvm::Value *readReg(ZydisRegister reg);
  /// Writes a general-purpose register with the x86 merge rules: 8- and 16-bit writes keep the
  /// other bits, 32-bit writes zero-extend.
  void writeReg(ZydisRegister reg, llvm::Value *value);
  /// Whether writeReg tags the values it writes into RSP (StackPointerWriteMetadata).
  bool tagStackPointerWrites = true;
  /// The full 64-bit value the register's variable would hold after writeReg(reg, value):
  /// for semantics that choose between register results with a select.
  llvm::Value *mergedRegister(ZydisRegister reg, llvm::Value *value);
  /// A State field of machine configuration (HOIST_FIELD_XCR0), loaded here.
  llvm::Value *readConfiguration(HoistStateField field) {
    return registers_.loadConfiguration(ir, field);
  }
  /// A State field that is no variable (a segment selector), loaded or stored right here:
  /// the few instructions that touch one go to State directly instead of through SSA.
  llvm::Value *readStateField(HoistStateField field) {
    return registers_.loadConfiguration(ir, field);
  }
  void writeStateField(HoistStateField field, llvm::Value *value) {
    ir.CreateStore(value, registers_.fieldPointer(field));
  }
  llvm::Value *readFlag(Var flag) { return readVar(flag); }
  void writeFlag(Var flag, llvm::Value *value) { writeVar(flag, value); }
  void writeFlags(FlagOp op, llvm::Value *lhs, llvm::Value *rhs, llvm::Value *result,
                  llvm::Value *carryIn = nullptr);
  llvm::Value *condition(Condition cc);

  // Memory: every access is `getelementptr i8, ptr %mem, i64 address`.
  llvm::Value *memoryBase() const { return memoryBase_; }
  void setMemoryObserver(MemoryObserver *observer) { memoryObserver_ = observer; }
  /// Faults (#GP, at this instruction) unless `address` is a multiple of `bytes`, a power of
  /// two: movaps, cmpxchg16b, fxsave.
  void trapIfMisaligned(llvm::Value *address, unsigned bytes);
  llvm::Value *load(llvm::Value *address, llvm::Type *type);
  void store(llvm::Value *address, llvm::Value *value);
  void push(llvm::Value *value);
  llvm::Value *pop(unsigned bits);

  // Locked updates (AtomicAccess.cpp). A lock-prefixed read-modify-write, or xchg with memory
  // (locked without the prefix), is one seq_cst atomic operation: other threads see it whole,
  // and it orders memory as x86's full barrier does. Exact results and flags as without lock.
  /// Whether the machine updates memory operand `index` of this instruction atomically. Not
  /// under a MemoryObserver: concolic lifting follows one thread's memory itself.
  bool updatesAtomically(unsigned index) const;
  /// Operand `index`'s value before the instruction. Where updatesAtomically, also stores
  /// `old op operand` into it in the same seq_cst atomicrmw; the semantic's writeOperand of
  /// its result then stores nothing more (the semantics harness checks the two agree).
  llvm::Value *readOperandForUpdate(unsigned index, llvm::AtomicRMWInst::BinOp op,
                                    llvm::Value *operand);
  /// The same for an update no atomicrmw does: `next` computes the new value from the old
  /// with IR only; a compare-and-swap loop retries until no other thread wrote in between.
  llvm::Value *readOperandForUpdate(unsigned index,
                                    llvm::function_ref<llvm::Value *(llvm::Value *)> next);
  /// `old op operand` stored atomically at `address` (bt* with a register bit offset, whose
  /// address is no operand's); returns old.
  llvm::Value *atomicUpdate(llvm::Value *address, llvm::AtomicRMWInst::BinOp op,
                            llvm::Value *operand);
  /// A seq_cst compare-and-swap at `address`: returns the value memory held and whether it
  /// equalled `expected` (then `replacement` was stored). x86's locked cmpxchg also writes the
  /// old value back on failure, which no other thread can tell apart from no write.
  std::pair<llvm::Value *, llvm::Value *> compareExchange(llvm::Value *address,
                                                          llvm::Value *expected,
                                                          llvm::Value *replacement);

  // Operands of the current instruction.
  llvm::Value *effectiveAddress(const Operand &operand);
  /// Operand `index` as an integer of `bits` (0: the operand's own size); immediates are
  /// sign- or zero-extended as the decoder says, then truncated.
  llvm::Value *readOperand(unsigned index, unsigned bits = 0);
  void writeOperand(unsigned index, llvm::Value *value);
  unsigned operandBits(unsigned index) const { return instr_->op(index).bits; }

  // Vector registers and operands (VectorAccess.cpp). A view is a fixed vector of `element`
  // filling the register or operand: readVector(1, f32) of an xmm operand is <4 x float>, of
  // a 64-bit memory operand <2 x float>.
  static bool isVectorRegister(ZydisRegister reg);
  /// 128 for xmm, 256 for ymm, 512 for zmm.
  static unsigned vectorRegisterBits(ZydisRegister reg);
  llvm::FixedVectorType *vectorType(llvm::Type *element, unsigned bits);
  /// `value` (a vector or an integer) seen as a vector of `element` of the same size.
  llvm::Value *vectorView(llvm::Value *value, llvm::Type *element);
  /// An xmm register as a 128-bit view, a ymm register as a 256-bit view, a zmm register as
  /// a 512-bit view (registers 0-31).
  llvm::Value *readVectorReg(ZydisRegister reg, llvm::Type *element);
  /// `value` has the register's size (128 bits for xmm, 256 for ymm, 512 for zmm), any vector
  /// or integer type. An xmm write by a legacy SSE instruction keeps bits 128..511 of the zmm
  /// register; a VEX or EVEX one zeroes every bit above the register written (SDM vol. 1,
  /// 14.1.3 and 15.5), the upper half of zmm 0-15 included.
  void writeVectorReg(ZydisRegister reg, llvm::Value *value);
  /// Operand `index`, a vector register or memory, as a view of the operand's size. Memory
  /// that the instruction requires aligned (movaps, legacy SSE arithmetic, ...) faults when it
  /// is not, as the CPU's #GP does.
  llvm::Value *readVector(unsigned index, llvm::Type *element);
  void writeVector(unsigned index, llvm::Value *value);
  /// The low `type` of a vector register, or a memory, GPR or immediate operand as `type` (an
  /// integer or floating-point type): the scalar source of addss, movd, cvtsi2sd.
  llvm::Value *readScalar(unsigned index, llvm::Type *type);
  /// For the three-operand VEX forms (vaddps xmm1, xmm2, xmm3): the operand index of the first
  /// source, 1; for the two-operand legacy form (addps xmm1, xmm2) it is the destination, 0.
  unsigned firstSource() const { return instr_->isVexOrEvex() ? 1 : 0; }

  /// For a semantic that meets a form it does not handle; it must not have emitted IR yet.
  /// The block lifter then lifts the instruction as a call to __hoist_unsupported.
  LiftStatus unsupported() { return LiftStatus::Unsupported; }

private:
  void checkAlignment(const Operand &operand, llvm::Value *address);

  RegisterFile &registers_;
  llvm::Value *memoryBase_;
  ControlTransfers &control_;
  DiagnosticSink &diagnostics_;
  RegisterFile::Block *block_ = nullptr;
  const Instr *instr_ = nullptr;
  MemoryObserver *memoryObserver_ = nullptr;
  /// The last narrow register read of the current position (readReg): the value it made from
  /// which full variable value, in which block.
  struct SliceRead {
    llvm::Value *full = nullptr;
    unsigned offset = 0;
    unsigned bits = 0;
    llvm::Value *value = nullptr;
    llvm::BasicBlock *block = nullptr;
  } lastSlice_;
  /// The address of each memory operand as readOperand or writeOperand first computed it in
  /// the current instruction, and in which block: a write after the instruction changed a
  /// register of the address (`xadd [rcx], cl`, `cmpxchg [rax], bl` that fails) goes where
  /// the CPU's does, to the address computed before any write. `pop [rsp+8]`, whose address
  /// the SDM computes after the pop, never reads its operand, so its first computation is
  /// after the pop.
  struct OperandAddress {
    llvm::Value *address = nullptr;
    llvm::BasicBlock *block = nullptr;
  };
  std::array<OperandAddress, Instr::MaxOperands> operandAddresses_{};
  llvm::Value *operandAddress(unsigned index);
  /// The memory operands of the current instruction a locked update already wrote.
  std::array<bool, Instr::MaxOperands> storedAtomically_{};
  llvm::Value *memoryPointer(llvm::Value *address) {
    return ir.CreateGEP(ir.getInt8Ty(), memoryBase_, address);
  }
};

} // namespace hoist
