#include "StateGenerator.h"

#include <cstring>

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

StateGenerator::StateGenerator(const Instr &instr, const NativeRunner &runner, uint64_t seed)
    : instr_(instr), runner_(runner), random_(seed) {}

uint64_t StateGenerator::interestingValue() {
  // Values at the edges of every operand width, where carries, overflows and signs change.
  static const uint64_t Boundaries[] = {0,
                                        1,
                                        2,
                                        ~uint64_t(0),
                                        0x7f,
                                        0x80,
                                        0xff,
                                        0x7fff,
                                        0x8000,
                                        0xffff,
                                        0x7fffffff,
                                        0x80000000,
                                        0xffffffff,
                                        0x7fffffffffffffff,
                                        0x8000000000000000,
                                        0x100000000,
                                        0x1f,
                                        0x20,
                                        0x3f,
                                        0x40};
  switch (random_() % 4) {
  case 0:
    return Boundaries[random_() % std::size(Boundaries)];
  case 1:
    return random_() & 0xff;   // small values make shift counts and bytes meet their edges
  default:
    return random_();
  }
}

uint64_t StateGenerator::effectiveAddress(const Operand &operand, const CpuState &state) const {
  uint64_t address = static_cast<uint64_t>(operand.disp);
  if (operand.base == ZYDIS_REGISTER_RIP)
    address += instr_.next();
  else if (int base = gprIndex(operand.base); base >= 0)
    address += state.gpr[base];
  if (int index = gprIndex(operand.index); index >= 0)
    address += state.gpr[index] * operand.scale;
  return address;
}

bool StateGenerator::placeMemoryOperands(CpuState &state) {
  uint64_t arenaStart = runner_.dataAddress();
  uint64_t arenaEnd = arenaStart + NativeRunner::ArenaSize;
  for (unsigned i = 0; i < instr_.operandCount; ++i) {
    const Operand &operand = instr_.op(i);
    if (!operand.isMem() || operand.isAgen)
      continue;
    int base = gprIndex(operand.base);
    int index = gprIndex(operand.index);
    if (index >= 0 && index != 4)
      state.gpr[index] = random_() % 0x40;
    if (base >= 0 && base != 4)
      state.gpr[base] = runner_.dataAddress() + 0x400 + random_() % 0x400;
    if (base >= 0 && base == index)   // [rax+rax*2]: the address is a multiple of one value
      state.gpr[base] = (runner_.dataAddress() + 0x800 - operand.disp) / (1 + operand.scale);
    uint64_t address = effectiveAddress(operand, state);
    if (address < arenaStart || address + operand.bits / 8 > arenaEnd)
      return false;
  }
  return true;
}

void StateGenerator::plantBranchTargets(CpuState &state, std::vector<uint8_t> &arena) {
  auto writeArena = [&](uint64_t address, uint64_t value) {
    uint64_t offset = address - runner_.dataAddress();
    if (offset + 8 <= arena.size())
      std::memcpy(arena.data() + offset, &value, 8);
  };
  uint64_t target = runner_.indirectTarget();
  if (instr_.category == ZYDIS_CATEGORY_RET) {
    writeArena(state.gpr[4], target);
    return;
  }
  if (instr_.category != ZYDIS_CATEGORY_CALL && instr_.category != ZYDIS_CATEGORY_UNCOND_BR)
    return;
  const Operand &operand = instr_.op(0);
  if (operand.isReg())
    state.gpr[gprIndex(operand.reg)] = target;
  else if (operand.isMem())
    writeArena(effectiveAddress(operand, state), target);
}

bool StateGenerator::generate(unsigned index, CpuState &state, std::vector<uint8_t> &arena) {
  arena.resize(NativeRunner::ArenaSize);
  for (size_t i = 0; i < arena.size(); i += 8) {
    uint64_t value = random_();
    std::memcpy(arena.data() + i, &value, 8);
  }
  for (unsigned attempt = 0; attempt < 100; ++attempt) {
    for (uint64_t &gpr : state.gpr)
      gpr = interestingValue();
    // The stack pointer stays in the middle of the stack pages, 8-byte aligned.
    state.gpr[4] = runner_.stackAddress() + NativeRunner::StackSize / 2 + (random_() % 64) * 8;
    unsigned flags = index < 64 ? index : static_cast<unsigned>(random_());
    state.cf = flags >> 0 & 1;
    state.pf = flags >> 1 & 1;
    state.af = flags >> 2 & 1;
    state.zf = flags >> 3 & 1;
    state.sf = flags >> 4 & 1;
    state.of = flags >> 5 & 1;
    state.df = 0;
    state.rip = instr_.address;
    if (!placeMemoryOperands(state))
      continue;
    plantBranchTargets(state, arena);
    return true;
  }
  return false;
}

} // namespace hoist::test
