// The register bits the comparison leaves out, checked to be no more than the rules say: a
// lifted result that differs in a bit the manuals define must be reported.
#include "CodeLayout.h"
#include "Comparison.h"
#include "DecodeForm.h"
#include "HostModel.h"
#include "UndefinedFlags.h"

#include <gtest/gtest.h>

#include <vector>

using namespace hoist;
using namespace hoist::test;

namespace {

/// What compareRuns says when the lifted run differs from the native one only in `bits` of
/// GPR `index`.
std::string differingIn(const Instr &instr, const CpuState &in, unsigned index, uint64_t bits) {
  RunResult native, lifted;
  native.state = in;
  lifted.state = in;
  lifted.state.gpr[index] ^= bits;
  std::vector<uint8_t> arena(layout::ArenaSize);
  return compareRuns(instr, in, native, lifted, arena.data(), arena.data());
}

constexpr unsigned Rax = 0, Rcx = 1, Rbx = 3, Rsi = 6, Rdi = 7;

TEST(UndefinedRegisters, ShldAboveTheOperandSizeLeavesOutOnlyTheLow16Bits) {
  Instr shld = decodeForm("shld ax, bx, cl");
  CpuState in{};
  in.gpr[Rcx] = 20;   // above 16: the destination is undefined
  EXPECT_EQ(differingIn(shld, in, Rax, 0x8), "");
  EXPECT_NE(differingIn(shld, in, Rax, uint64_t(1) << 20), "");   // bits 16..63 are kept
  EXPECT_NE(differingIn(shld, in, Rax, uint64_t(1) << 63), "");
  in.gpr[Rcx] = 12;   // within the operand: the destination is defined
  EXPECT_NE(differingIn(shld, in, Rax, 0x8), "");
}

TEST(UndefinedRegisters, AnEmptyRepeatWith32BitAddressesLeavesOutOnlyUpperHalves) {
  Instr repMovsb = decodeForm(".byte 0x67, 0xf3, 0xa4");   // rep movsb with addr32
  CpuState in{};
  in.gpr[Rcx] = 0xffffffff00000000u;   // ECX = 0: nothing moves
  for (unsigned pointer : {Rsi, Rdi}) {
    EXPECT_EQ(differingIn(repMovsb, in, pointer, uint64_t(1) << 40), "");
    EXPECT_NE(differingIn(repMovsb, in, pointer, 0x10), "");   // the low half stays
  }
}

TEST(UndefinedRegisters, BitScanOfZeroComparesTheDestinationWhereAmdDefinesIt) {
  Instr bsf = decodeForm("bsf eax, ebx");
  CpuState in{};
  in.gpr[Rbx] = 0xffffffff00000000u;   // EBX = 0
  // AMD: the destination does not change; Intel: undefined.
  EXPECT_EQ(differingIn(bsf, in, Rax, 0x1).empty(), !hostIsAmd());
  // Bits 32..63 of a 32-bit destination: AMD keeps them, Intel's parts clear them.
  EXPECT_EQ(differingIn(bsf, in, Rax, uint64_t(1) << 40), "");
  Instr bsr64 = decodeForm("bsr rax, rbx");
  in.gpr[Rbx] = 0;
  EXPECT_EQ(differingIn(bsr64, in, Rax, uint64_t(1) << 40).empty(), !hostIsAmd());
  in.gpr[Rbx] = 0x10;   // a set bit: the destination is defined everywhere
  EXPECT_NE(differingIn(bsf, in, Rax, 0x1), "");
}

} // namespace
