// What the decoder reports of an EVEX prefix (Instr::evex, Operand::isWriteMask): the AVX-512
// semantics rely on each of these, and on Zydis scaling compressed displacements.
#include "Decode/Decoder.h"

#include <gtest/gtest.h>

#include <vector>

using namespace hoist;

namespace {

Instr decodeOk(std::vector<uint8_t> bytes) {
  Decoder decoder;
  Instr instr;
  EXPECT_EQ(decoder.decode(bytes.data(), bytes.size(), 0x1000, instr), DecodeStatus::Ok);
  return instr;
}

TEST(EvexDecode, ZeroMaskingAndScaledDisplacement) {
  // vmovdqu8 zmm1 {k1} {z}, zmmword ptr [rsi+0x40]: disp8 = 1, scaled by N = 64.
  Instr instr = decodeOk({0x62, 0xf1, 0x7f, 0xc9, 0x6f, 0x4e, 0x01});
  EXPECT_EQ(instr.mnemonic, ZYDIS_MNEMONIC_VMOVDQU8);
  EXPECT_TRUE(instr.isAvx512());
  EXPECT_EQ(instr.evex.vectorBits, 512);
  EXPECT_EQ(instr.evex.mask, ZYDIS_REGISTER_K1);
  EXPECT_TRUE(instr.evex.zeroing);
  EXPECT_EQ(instr.evex.broadcastCount, 0);
  EXPECT_FALSE(instr.evex.embeddedRounding);
  unsigned memory = instr.op(1).isWriteMask ? 2 : 1;
  ASSERT_TRUE(instr.op(memory).isMem());
  EXPECT_EQ(instr.op(memory).disp, 0x40);
}

TEST(EvexDecode, MergeMaskingAndBroadcast) {
  // vpaddd zmm1 {k2}, zmm2, dword ptr [rsi+8]{1to16}: disp8 = 2, scaled by the element (4).
  Instr instr = decodeOk({0x62, 0xf1, 0x6d, 0x5a, 0xfe, 0x4e, 0x02});
  EXPECT_EQ(instr.evex.mask, ZYDIS_REGISTER_K2);
  EXPECT_FALSE(instr.evex.zeroing);
  EXPECT_EQ(instr.evex.broadcastCount, 16);
  const Operand &memory = instr.op(instr.explicitCount - 1);
  ASSERT_TRUE(memory.isMem());
  EXPECT_EQ(memory.disp, 8);
}

TEST(EvexDecode, UnmaskedFormHasNoWriteMask) {
  // vpternlogd ymm17, ymm18, ymmword ptr [rsi], 0x96
  Instr instr = decodeOk({0x62, 0xe3, 0x6d, 0x20, 0x25, 0x0e, 0x96});
  EXPECT_EQ(instr.evex.vectorBits, 256);
  EXPECT_EQ(instr.evex.mask, ZYDIS_REGISTER_NONE);
  EXPECT_EQ(instr.op(0).reg, ZYDIS_REGISTER_YMM17);
}

TEST(EvexDecode, EmbeddedRoundingIsReported) {
  // vaddps zmm0, zmm1, zmm2, {rz-sae}
  Instr instr = decodeOk({0x62, 0xf1, 0x74, 0x78, 0x58, 0xc2});
  EXPECT_TRUE(instr.evex.embeddedRounding);
  EXPECT_EQ(instr.evex.staticRounding, ZYDIS_ROUNDING_MODE_RZ);
}

TEST(EvexDecode, RoundToNearestIsReported) {
  // vaddps zmm0, zmm1, zmm2, {rn-sae}
  Instr instr = decodeOk({0x62, 0xf1, 0x74, 0x18, 0x58, 0xc2});
  EXPECT_TRUE(instr.evex.embeddedRounding);
  EXPECT_EQ(instr.evex.staticRounding, ZYDIS_ROUNDING_MODE_RN);
}

} // namespace
