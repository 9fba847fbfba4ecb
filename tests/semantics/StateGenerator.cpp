#include "StateGenerator.h"

#include "CodeLayout.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <iterator>

namespace hoist::test {

int gprIndex(ZydisRegister reg) {
  switch (ZydisRegisterGetClass(reg)) {
  case ZYDIS_REGCLASS_GPR8:
  case ZYDIS_REGCLASS_GPR16:
  case ZYDIS_REGCLASS_GPR32:
  case ZYDIS_REGCLASS_GPR64:
    return ZydisRegisterGetId(ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, reg));
  default:
    return -1;
  }
}

uint64_t effectiveAddress(const Instr &instr, const Operand &operand, const CpuState &state) {
  uint64_t address = static_cast<uint64_t>(operand.disp);
  if (operand.base == ZYDIS_REGISTER_RIP)
    address += instr.next();
  else if (int base = gprIndex(operand.base); base >= 0)
    address += state.gpr[base];
  if (int index = gprIndex(operand.index); index >= 0)
    address += state.gpr[index] * operand.scale;
  if (instr.addressWidth == 32)
    address &= 0xffffffff;
  return address + segmentBase(operand);
}

uint64_t segmentBase(const Operand &operand) {
  return operand.segment == ZYDIS_REGISTER_GS ? layout::GsBase : 0;
}

StateGenerator::StateGenerator(const Instr &instr, uint64_t seed) : instr_(instr), random_(seed) {}

uint64_t StateGenerator::interestingValue() {
  // Values at the edges of the 64-bit width, where carries, overflows and signs change, and
  // small shift counts.
  static const uint64_t Boundaries[] = {
      0,          1,          2,          ~uint64_t(0),         0x7fffffffffffffff,
      0x8000000000000000,     0x100000000,                      0xffffffff80000000,
      0xffffffffffff8000,     0xffffffffffffff80,               0x7,
      0x8,        0xf,        0x10,       0x1f,                 0x20,
      0x3f,       0x40,       0x41,       0xff};
  switch (random_.below(8)) {
  case 0:
  case 1:
    return Boundaries[random_.below(std::size(Boundaries))];
  case 2:
  case 3: {
    // An edge of an 8-, 16- or 32-bit operand under random upper bits, which a narrow
    // operation must leave alone; sometimes in bits 8..15, for AH, CH, DH and BH.
    static const unsigned Widths[] = {8, 16, 32};
    unsigned width = Widths[random_.below(3)];
    uint64_t ones = (uint64_t(1) << width) - 1, signBit = uint64_t(1) << (width - 1);
    const uint64_t edges[] = {0, 1, signBit - 1, signBit, ones, ones - 1, signBit + 1};
    uint64_t edge = edges[random_.below(std::size(edges))];
    unsigned shift = width == 8 && random_.below(2) ? 8 : 0;
    return (random_.next() & ~(ones << shift)) | edge << shift;
  }
  case 4:
    return random_.next() & 0xff;   // counts of shifts and bytes near their edges
  default:
    return random_.next();
  }
}

bool StateGenerator::placeVsibOperand(const Operand &operand, CpuState &state) {
  // A gather's or scatter's VSIB operand [base + vindex*scale + disp] (vpgatherdd,
  // vpscatterdd, ...): placeMemoryOperands has pointed base + disp into the arena; here each
  // index element (dword or qword, sign-extended) gets a small signed value that keeps its
  // element inside the arena. An AVX2 gather's mask elements get a random sign bit (all of them
  // set in a quarter of the states); an AVX-512 form's opmask register is generateAvx512State's.
  // In half the states every masked-off element points into the guard page below the code,
  // where an access would fault. It runs after generateFpState and generateAvx512State, which
  // fill the vector and opmask registers.
  static const ZydisMnemonic QwordIndex[] = {
      ZYDIS_MNEMONIC_VPGATHERQD,  ZYDIS_MNEMONIC_VPGATHERQQ,  ZYDIS_MNEMONIC_VGATHERQPS,
      ZYDIS_MNEMONIC_VGATHERQPD,  ZYDIS_MNEMONIC_VPSCATTERQD, ZYDIS_MNEMONIC_VPSCATTERQQ,
      ZYDIS_MNEMONIC_VSCATTERQPS, ZYDIS_MNEMONIC_VSCATTERQPD};
  static const ZydisMnemonic QwordElement[] = {
      ZYDIS_MNEMONIC_VPGATHERDQ,  ZYDIS_MNEMONIC_VPGATHERQQ,  ZYDIS_MNEMONIC_VGATHERDPD,
      ZYDIS_MNEMONIC_VGATHERQPD,  ZYDIS_MNEMONIC_VPSCATTERDQ, ZYDIS_MNEMONIC_VPSCATTERQQ,
      ZYDIS_MNEMONIC_VSCATTERDPD, ZYDIS_MNEMONIC_VSCATTERQPD};
  bool qwordIndex = std::find(std::begin(QwordIndex), std::end(QwordIndex), instr_.mnemonic) !=
                    std::end(QwordIndex);
  bool qwordElement = std::find(std::begin(QwordElement), std::end(QwordElement),
                                instr_.mnemonic) != std::end(QwordElement);
  Operand common = operand;
  common.index = ZYDIS_REGISTER_NONE;
  int64_t start = int64_t(effectiveAddress(instr_, common, state));
  int64_t scale = operand.scale, lowest = int64_t(layout::ArenaAddress);
  int64_t highest = int64_t(layout::ArenaAddress + layout::ArenaSize) - 8;   // the last element
  // The indices that keep the element inside: ceil and floor of the bounds over the scale.
  int64_t low = lowest - start, high = highest - start;
  low = low >= 0 ? (low + scale - 1) / scale : -(-low / scale);
  high = high >= 0 ? high / scale : -((-high + scale - 1) / scale);
  low = std::max(low, std::min(int64_t(-0x40), high));
  high = std::min(high, std::max(int64_t(0x40), low));
  if (low > high || low < INT32_MIN || high > INT32_MAX)
    return false;

  // Qword j of a vector register: 0..3 of register 0-15 in ymm, 4..7 in zmmHigh; 16-31 in zmm16.
  auto qword = [&](ZydisRegister reg, unsigned j) -> uint64_t & {
    unsigned id = unsigned(ZydisRegisterGetId(reg));
    if (id >= 16)
      return state.fp.zmm16[id - 16][j];
    return j < 4 ? state.fp.ymm[id][j] : state.fp.zmmHigh[id][j - 4];
  };
  bool avx512 = instr_.isAvx512();
  if (!avx512) {
    ZydisRegister maskRegister = instr_.op(2).reg;   // the last operand; the sign bit of every
    bool allSet = random_.below(4) == 0;             // dword covers both element widths
    for (unsigned lane = 0; lane < 4; ++lane) {
      uint64_t signs = allSet ? 0x8000000080000000 : random_.next() & 0x8000000080000000;
      qword(maskRegister, lane) = (qword(maskRegister, lane) & 0x7fffffff7fffffff) | signs;
    }
  }
  auto enabled = [&](unsigned i) {
    if (avx512)
      return (state.fp.k[ZydisRegisterGetId(instr_.evex.mask)] >> i & 1) != 0;
    unsigned bit = qwordElement ? 64 * i + 63 : 32 * i + 31;
    return (qword(instr_.op(2).reg, bit / 64) >> (bit % 64) & 1) != 0;
  };
  bool guardMaskedOff = random_.below(2) == 0;
  unsigned indexBits = qwordIndex ? 64 : 32;
  unsigned count = ZydisRegisterGetWidth(ZYDIS_MACHINE_MODE_LONG_64, operand.index) / indexBits;
  for (unsigned i = 0; i < count; ++i) {
    int64_t value = low + int64_t(random_.below(uint64_t(high - low + 1)));
    if (guardMaskedOff && !enabled(i)) {
      int64_t guard = int64_t(layout::MappingAddress + 0x400 + random_.below(0x800));
      value = (guard - start) / scale;
    }
    if (qwordIndex) {
      qword(operand.index, i) = uint64_t(value);
    } else {
      uint64_t &pair = qword(operand.index, i / 2);
      unsigned shift = i % 2 * 32;
      pair = (pair & ~(0xffffffffull << shift)) | (uint64_t(value) & 0xffffffff) << shift;
    }
  }
  return true;
}

bool StateGenerator::placeVsibOperands(CpuState &state) {
  for (unsigned i = 0; i < instr_.operandCount; ++i) {
    const Operand &operand = instr_.op(i);
    ZydisRegisterClass indexClass = ZydisRegisterGetClass(operand.index);
    if (operand.isMem() && (indexClass == ZYDIS_REGCLASS_XMM || indexClass == ZYDIS_REGCLASS_YMM ||
                            indexClass == ZYDIS_REGCLASS_ZMM) &&
        !placeVsibOperand(operand, state))
      return false;
  }
  return true;
}

bool StateGenerator::placeMemoryOperands(CpuState &state) {
  // First point every address register, then check every operand: two operands may share
  // a register. An index is a small signed number, and the base what makes the address land
  // at a random place of the data page; without a base (`[data+rcx*4]`) the index does. RSP
  // stays where it is, in the stack.
  constexpr int Rsp = 4;
  for (unsigned i = 0; i < instr_.operandCount; ++i) {
    const Operand &operand = instr_.op(i);
    if (!operand.isMem() || operand.isAgen)
      continue;
    int base = gprIndex(operand.base), index = gprIndex(operand.index);
    uint64_t wanted = layout::DataAddress + 0x200 + random_.below(layout::DataSize - 0x400);
    uint64_t sinceDisp = wanted - static_cast<uint64_t>(operand.disp) - segmentBase(operand);
    if (index >= 0 && index != Rsp)
      state.gpr[index] = uint64_t(int64_t(random_.below(0x80)) - 0x40);
    if (base >= 0 && base != Rsp && base == index)   // [rax+rax*2]
      state.gpr[base] = sinceDisp / (1 + operand.scale);
    else if (base >= 0 && base != Rsp)
      state.gpr[base] = sinceDisp - (index >= 0 ? state.gpr[index] * operand.scale : 0);
    else if (base < 0 && operand.base != ZYDIS_REGISTER_RIP && index >= 0 && index != Rsp)
      state.gpr[index] = sinceDisp / operand.scale;
    // With 32-bit addresses (0x67) the upper halves must not matter: make them random.
    if (instr_.addressWidth == 32)
      for (int reg : {base, index})
        if (reg >= 0 && reg != Rsp)
          state.gpr[reg] = (random_.next() << 32) | (state.gpr[reg] & 0xffffffff);
  }
  for (unsigned i = 0; i < instr_.operandCount; ++i) {
    const Operand &operand = instr_.op(i);
    if (!operand.isMem() || operand.isAgen)
      continue;
    // A VSIB operand's index is a vector register: this checks base + disp, and
    // placeVsibOperand keeps every element inside the arena.
    uint64_t address = effectiveAddress(instr_, operand, state);
    if (address < layout::ArenaAddress ||
        address + operand.bits / 8 > layout::ArenaAddress + layout::ArenaSize)
      return false;
  }
  return true;
}

void StateGenerator::plantBranchTargets(CpuState &state, std::vector<uint8_t> &arena) {
  auto writeArena = [&](uint64_t address, uint64_t value) {
    uint64_t offset = address - layout::ArenaAddress;
    if (offset + 8 <= arena.size())
      std::memcpy(arena.data() + offset, &value, 8);
  };
  if (instr_.category == ZYDIS_CATEGORY_RET) {
    writeArena(state.gpr[4], layout::IndirectTarget);
    return;
  }
  if (instr_.mnemonic == ZYDIS_MNEMONIC_POPF || instr_.mnemonic == ZYDIS_MNEMONIC_POPFQ) {
    // The popped RFLAGS must not set TF (a trap after the next instruction, in the harness)
    // or AC (alignment checking in the host code); the other bits stay random.
    uint64_t offset = state.gpr[4] - layout::ArenaAddress;
    constexpr uint64_t TrapFlag = 1u << 8, AlignmentCheck = 1u << 18;
    uint64_t value;
    std::memcpy(&value, arena.data() + offset, 8);
    value &= ~(TrapFlag | AlignmentCheck);
    std::memcpy(arena.data() + offset, &value, 8);
    return;
  }
  if (instr_.category != ZYDIS_CATEGORY_CALL && instr_.category != ZYDIS_CATEGORY_UNCOND_BR)
    return;
  const Operand &operand = instr_.op(0);
  if (operand.isReg())
    state.gpr[gprIndex(operand.reg)] = layout::IndirectTarget;
  else if (operand.isMem())
    writeArena(effectiveAddress(instr_, operand, state), layout::IndirectTarget);
}

void StateGenerator::shapeStringState(unsigned index, CpuState &state,
                                      std::vector<uint8_t> &arena) {
  // A repeated instruction runs rcx times: keep the count small so that both runs stay in
  // the data page (pointers start in its middle, 0x400..0x800), and include 0 and 1.
  if (instr_.hasRepeatPrefix())
    state.gpr[1] = index % 7 == 0 ? index % 2 : random_.below(48);
  // Every third state makes the data page one repeated byte, and al that byte, so that
  // repe cmps / repne scas run through long equal stretches instead of stopping at once.
  if (index % 3 == 0) {
    uint8_t fill = static_cast<uint8_t>(random_.next());
    std::memset(arena.data(), fill, layout::DataSize);
    state.gpr[0] = (state.gpr[0] & ~uint64_t(0xff)) | fill;
  }
}

bool StateGenerator::generate(unsigned index, CpuState &state, std::vector<uint8_t> &arena) {
  arena.resize(layout::ArenaSize);
  for (size_t i = 0; i < arena.size(); i += 8) {
    uint64_t value = random_.next();
    std::memcpy(arena.data() + i, &value, 8);
  }
  for (unsigned attempt = 0; attempt < 100; ++attempt) {
    for (uint64_t &gpr : state.gpr)
      gpr = interestingValue();
    // The stack pointer stays in the middle of the stack pages, 8-byte aligned.
    state.gpr[4] = layout::StackAddress + layout::StackSize / 2 + random_.below(64) * 8;
    uint64_t flags = index < 64 ? index : random_.next();
    state.cf = flags >> 0 & 1;
    state.pf = flags >> 1 & 1;
    state.af = flags >> 2 & 1;
    state.zf = flags >> 3 & 1;
    state.sf = flags >> 4 & 1;
    state.of = flags >> 5 & 1;
    state.df = index < 64 ? 0 : flags >> 6 & 1;   // nothing here reads DF; it must survive
    state.rip = instr_.address;
    if (!placeMemoryOperands(state))
      continue;
    if (instr_.category == ZYDIS_CATEGORY_STRINGOP)
      shapeStringState(index, state, arena);
    plantBranchTargets(state, arena);
    generateFpState(state);
    if (usesAvx512State(index))
      generateAvx512State(index, state, arena);
    shapeRoundingLanes(index, state);
    plantFloatingPointOperand(state, arena);
    if (!shapeStateArea(state, arena))
      continue;
    if (!placeVsibOperands(state))
      continue;
    return true;
  }
  return false;
}

} // namespace hoist::test
