#include "Discover/PathEvaluator.h"

namespace hoist {
namespace {

/// The 64-bit register holding `reg`, or NONE for anything but a general-purpose register.
ZydisRegister gpr64(ZydisRegister reg) {
  switch (ZydisRegisterGetClass(reg)) {
  case ZYDIS_REGCLASS_GPR8:
  case ZYDIS_REGCLASS_GPR16:
  case ZYDIS_REGCLASS_GPR32:
  case ZYDIS_REGCLASS_GPR64:
    return ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, reg);
  default:
    return ZYDIS_REGISTER_NONE;
  }
}

// Machine arithmetic wraps; signed overflow in C++ does not, so compute unsigned.
int64_t wrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
int64_t wrapMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

SymValue add(SymValue a, SymValue b) {
  if (!a.known || !b.known)
    return {};
  if (a.k == 0)
    std::swap(a, b);
  if (b.k == 0) {
    a.c = wrapAdd(a.c, b.c);
    return a;
  }
  if (a.sym != b.sym || a.signExtended != b.signExtended)
    return {};
  a.c = wrapAdd(a.c, b.c);
  a.k = wrapAdd(a.k, b.k);
  if (a.k == 0)
    return SymValue::constant(a.c);
  return a;
}

SymValue scale(SymValue a, int64_t factor) {
  if (!a.known)
    return {};
  a.c = wrapMul(a.c, factor);
  a.k = wrapMul(a.k, factor);
  if (a.k == 0)
    return SymValue::constant(a.c);
  return a;
}

int64_t immediate(const Operand &op, unsigned destinationBits) {
  uint64_t value = op.imm;
  if (destinationBits == 32)
    value &= 0xffffffffu;   // a 32-bit write zero-extends
  return static_cast<int64_t>(value);
}

const ZydisRegister CallerSaved[] = {ZYDIS_REGISTER_RAX, ZYDIS_REGISTER_RCX, ZYDIS_REGISTER_RDX,
                                     ZYDIS_REGISTER_RSI, ZYDIS_REGISTER_RDI, ZYDIS_REGISTER_R8,
                                     ZYDIS_REGISTER_R9,  ZYDIS_REGISTER_R10, ZYDIS_REGISTER_R11};

} // namespace

uint32_t PathEvaluator::fresh(PathSymbol symbol) {
  symbols_.push_back(symbol);
  return static_cast<uint32_t>(symbols_.size() - 1);
}

SymValue PathEvaluator::reg(ZydisRegister reg) {
  if (reg == ZYDIS_REGISTER_NONE)
    return SymValue::constant(0);
  ZydisRegister full = gpr64(reg);
  if (full == ZYDIS_REGISTER_NONE)
    return {};
  auto it = regs_.find(full);
  if (it != regs_.end())
    return it->second;
  SymValue input = SymValue::symbol(fresh({}));
  inputs_[input.sym] = full;
  regs_[full] = input;
  return input;
}

void PathEvaluator::write(ZydisRegister reg, SymValue value) {
  ZydisRegister full = gpr64(reg);
  if (full == ZYDIS_REGISTER_NONE)
    return;
  unsigned bits = ZydisRegisterGetWidth(ZYDIS_MACHINE_MODE_LONG_64, reg);
  // A write of 8 or 16 bits merges with the rest of the register: nothing simple is known.
  // What is not known is still one value: a fresh symbol, so that loads through the register
  // (the stack frame of -O0 code through rbp) can be told apart and matched again.
  if (bits < 32 || !value.known)
    value = SymValue::symbol(fresh({}));
  regs_[full] = value;
}

SymValue PathEvaluator::address(const Instr &instr, const Operand &op) {
  if (op.segment == ZYDIS_REGISTER_FS || op.segment == ZYDIS_REGISTER_GS)
    return {};
  SymValue base = op.base == ZYDIS_REGISTER_RIP ? SymValue::constant(instr.next()) : reg(op.base);
  SymValue index = scale(reg(op.index), op.scale ? op.scale : 1);
  return add(add(base, index), SymValue::constant(op.disp));
}

SymValue PathEvaluator::load(const Instr &instr, const Operand &op) {
  SymValue where = address(instr, op);
  if (!where.known)
    return {};
  auto key = std::make_pair(where, static_cast<unsigned>(op.bits));
  if (auto it = memory_.find(key); it != memory_.end())
    return it->second;
  PathSymbol symbol;
  symbol.kind = PathSymbol::Kind::Load;
  symbol.width = op.bits;
  symbol.address = where;
  symbol.at = instr.address;
  if (op.base != ZYDIS_REGISTER_RIP) {
    symbol.baseReg = op.base;
    symbol.baseValue = reg(op.base);
  } else {
    symbol.baseValue = SymValue::constant(instr.next());
  }
  symbol.indexReg = op.index;
  symbol.indexValue = reg(op.index);
  symbol.scale = op.scale ? op.scale : 1;
  symbol.disp = op.disp;
  SymValue value = SymValue::symbol(fresh(symbol));
  memory_[key] = value;
  if (op.base == ZYDIS_REGISTER_RSP)
    stackLocations_.insert(key);
  return value;
}

SymValue PathEvaluator::operandValue(const Instr &instr, unsigned index) {
  const Operand &op = instr.op(index);
  switch (op.kind) {
  case Operand::Kind::Reg:
    return reg(op.reg);
  case Operand::Kind::Imm:
    return SymValue::constant(static_cast<int64_t>(op.imm));
  case Operand::Kind::Mem:
    return op.isAgen ? address(instr, op) : load(instr, op);
  default:
    return {};
  }
}

void PathEvaluator::clobberWritten(const Instr &instr) {
  for (unsigned i = 0; i < instr.operandCount; ++i) {
    const Operand &op = instr.op(i);
    if (op.isReg() && op.written)
      write(op.reg, {});
    if (op.isMem() && op.written && !op.isAgen)
      forgetMemory(instr, op);
  }
}

void PathEvaluator::forgetMemory(const Instr &instr, const Operand &written) {
  if (written.base != ZYDIS_REGISTER_RSP) {
    // A write at `p + c` leaves alone what is known at `p + d` when the two ranges of bytes
    // are apart: a field stored between the compare of another field and its reload
    // (`cmp dword [rdi+0x34], 0x1b; mov [rdi+0x3c], edx; ja ...; mov ecx, [rdi+0x34]`: GNU
    // indent). Anything else may alias.
    SymValue where = address(instr, written);
    uint64_t size = written.bits / 8;
    for (auto it = memory_.begin(); it != memory_.end();) {
      const SymValue &known = it->first.first;
      bool apart = where.known && known.known && known.k == where.k && known.sym == where.sym &&
                   known.signExtended == where.signExtended && size > 0 &&
                   // The distances wrap, as the addresses do: unsigned, never signed overflow.
                   (static_cast<uint64_t>(known.c) - static_cast<uint64_t>(where.c) >= size &&
                    static_cast<uint64_t>(where.c) - static_cast<uint64_t>(known.c) >=
                        it->first.second / 8);
      if (apart) {
        ++it;
      } else {
        stackLocations_.erase(it->first);
        it = memory_.erase(it);
      }
    }
    return;
  }
  // A write to the stack (a push, a spill) leaves alone the memory not read or written through
  // rsp: the globals a switch reads twice (`cmp [rip+format], 4; ja ...; push ...; mov eax,
  // [rip+format]`), and a field compared, then read again after a spill (`cmp word [rbx+0x68],
  // 0xd; ...; mov [rsp+8], rax; ja ...; movzx eax, word [rbx+0x68]`: coreutils' chmod). A
  // compiler's spill slot holds no object that a pointer elsewhere reads.
  SymValue stack = reg(ZYDIS_REGISTER_RSP);
  for (auto it = memory_.begin(); it != memory_.end();) {
    const SymValue &address = it->first.first;
    bool onStack = stackLocations_.count(it->first) ||
                   (!address.isConstant() && stack.known && address.sym == stack.sym);
    it = onStack ? memory_.erase(it) : std::next(it);
  }
}

void PathEvaluator::store(const Instr &instr, const Operand &op, SymValue value) {
  SymValue where = address(instr, op);
  forgetMemory(instr, op);
  if (where.known && value.known) {
    std::pair<SymValue, unsigned> key{where, static_cast<unsigned>(op.bits)};
    memory_[key] = value;
    if (op.base == ZYDIS_REGISTER_RSP)
      stackLocations_.insert(key);
  }
}

/// The data movement and arithmetic the patterns need; false for anything else.
bool PathEvaluator::stepData(const Instr &instr) {
  const Operand &dst = instr.op(0);
  const Operand &src = instr.op(1);
  if (!dst.isReg())
    return false;
  unsigned bits = dst.bits;
  switch (instr.mnemonic) {
  case ZYDIS_MNEMONIC_MOV:
    if (src.isImm()) {
      write(dst.reg, SymValue::constant(immediate(src, bits)));
    } else {
      SymValue value = operandValue(instr, 1);
      if (src.isReg() && bits == 32)
        value.signExtended = false;   // zero-extends the low half
      write(dst.reg, value);
    }
    return true;
  case ZYDIS_MNEMONIC_MOVSXD:
  case ZYDIS_MNEMONIC_MOVSX: {
    SymValue value = operandValue(instr, 1);
    if (value.isSymbol())
      value.signExtended = true;
    write(dst.reg, value);
    return true;
  }
  case ZYDIS_MNEMONIC_CDQE: {
    SymValue value = reg(ZYDIS_REGISTER_RAX);
    if (value.isSymbol())
      value.signExtended = true;
    write(ZYDIS_REGISTER_RAX, value);
    return true;
  }
  case ZYDIS_MNEMONIC_MOVZX: {
    SymValue value = operandValue(instr, 1);
    value.signExtended = false;
    write(dst.reg, value);
    return true;
  }
  case ZYDIS_MNEMONIC_LEA:
    write(dst.reg, address(instr, src));
    return true;
  case ZYDIS_MNEMONIC_ADD:
    write(dst.reg, add(reg(dst.reg), operandValue(instr, 1)));
    return true;
  case ZYDIS_MNEMONIC_SUB:
    if (src.isImm())
      write(dst.reg, add(reg(dst.reg), SymValue::constant(static_cast<int64_t>(0 - src.imm))));
    else if (src.isReg() && gpr64(src.reg) == gpr64(dst.reg))
      write(dst.reg, SymValue::constant(0));
    else
      write(dst.reg, add(reg(dst.reg), scale(operandValue(instr, 1), -1)));
    return true;
  case ZYDIS_MNEMONIC_SHL:
    if (!src.isImm() || src.imm > 8)
      return false;
    write(dst.reg, scale(reg(dst.reg), int64_t(1) << src.imm));
    return true;
  case ZYDIS_MNEMONIC_XOR:
    if (!src.isReg() || gpr64(src.reg) != gpr64(dst.reg))
      return false;
    write(dst.reg, SymValue::constant(0));
    return true;
  case ZYDIS_MNEMONIC_AND: {
    if (!src.isImm())
      return false;
    uint64_t mask = bits == 32 ? (src.imm & 0xffffffffu) : src.imm;
    if (mask == 0xffffffffu && bits >= 32) {
      write(dst.reg, reg(dst.reg));
      return true;
    }
    if (mask > (1u << 20))
      return false;
    PathSymbol masked;
    masked.kind = PathSymbol::Kind::Masked;
    masked.bounded = true;
    masked.max = mask;
    write(dst.reg, SymValue::symbol(fresh(masked)));
    return true;
  }
  default:
    return false;
  }
}

void PathEvaluator::step(const Instr &instr) {
  std::optional<Compare> compare;
  const Operand &first = instr.op(0);
  const Operand &second = instr.op(1);
  if (instr.mnemonic == ZYDIS_MNEMONIC_CMP && second.isImm())
    compare = Compare{operandValue(instr, 0), second.imm, first.bits};
  else if (instr.mnemonic == ZYDIS_MNEMONIC_SUB && first.isReg() && second.isImm())
    compare = Compare{reg(first.reg), second.imm, first.bits};   // flags as for cmp of the old value
  if (compare && first.bits < 64)
    compare->imm &= (uint64_t(1) << first.bits) - 1;

  if (instr.category == ZYDIS_CATEGORY_CALL) {
    for (ZydisRegister reg : CallerSaved)
      write(reg, {});
    memory_.clear();
    stackLocations_.clear();
  } else if (instr.mnemonic == ZYDIS_MNEMONIC_MOV && first.isMem() &&
             (second.isReg() || second.isImm())) {
    store(instr, first,
          second.isImm() ? SymValue::constant(immediate(second, first.bits))
                         : (first.bits >= 32 ? reg(second.reg) : SymValue{}));
  } else if (!stepData(instr)) {
    clobberWritten(instr);
  }
  if (compare)
    compare_ = compare;
  else if (instr.flagsModified)
    compare_.reset();
}

void PathEvaluator::takeEdge(const Instr &jcc, bool taken) {
  if (!compare_ || !compare_->value.known || compare_->value.k != 1)
    return;
  // The unsigned outcome on the path: value <= atMost, or value >= atLeast.
  std::optional<uint64_t> atMost, atLeast;
  uint64_t imm = compare_->imm;
  uint64_t top = compare_->bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << compare_->bits) - 1;
  switch (jcc.mnemonic) {
  case ZYDIS_MNEMONIC_JNBE:   // ja
    if (!taken)
      atMost = imm;
    else if (imm < top)
      atLeast = imm + 1;
    break;
  case ZYDIS_MNEMONIC_JNB:    // jae
    if (!taken && imm > 0)
      atMost = imm - 1;
    else if (taken)
      atLeast = imm;
    break;
  case ZYDIS_MNEMONIC_JBE:
    if (taken)
      atMost = imm;
    else if (imm < top)
      atLeast = imm + 1;
    break;
  case ZYDIS_MNEMONIC_JB:
    if (taken && imm > 0)
      atMost = imm - 1;
    else if (!taken)
      atLeast = imm;
    break;
  default:
    break;
  }
  int64_t biasedBy = compare_->value.c;
  uint64_t max = 0;
  if (atMost) {
    max = *atMost;
  } else if (atLeast) {
    // value - atLeast is in [0, top - atLeast], modulo the compare's width: a range at the top
    // of the unsigned values (cmp r32, -5; jb) that the index wraps around to zero.
    max = top - *atLeast;
    uint64_t bias = static_cast<uint64_t>(biasedBy) - *atLeast;
    if (compare_->bits < 64)
      bias &= top;
    biasedBy = static_cast<int64_t>(bias);
  } else {
    return;
  }
  PathSymbol &symbol = symbols_[compare_->value.sym];
  if (symbol.bounded && symbol.biasedBy == biasedBy && symbol.max <= max)
    return;   // an earlier, tighter bound
  symbol.bounded = true;
  symbol.biasedBy = biasedBy;
  symbol.max = max;
}

} // namespace hoist
