#include "Decode/Decoder.h"

#include <gtest/gtest.h>

#include <vector>

using namespace hoist;

namespace {

Instr decodeOk(std::vector<uint8_t> bytes, uint64_t address = 0x1000) {
  Decoder decoder;
  Instr instr;
  EXPECT_EQ(decoder.decode(bytes.data(), bytes.size(), address, instr), DecodeStatus::Ok);
  return instr;
}

TEST(Decoder, AddRegRegHasOperandsAndFlags) {
  Instr instr = decodeOk({0x48, 0x01, 0xd8});   // add rax, rbx
  EXPECT_EQ(instr.mnemonic, ZYDIS_MNEMONIC_ADD);
  EXPECT_EQ(instr.length, 3);
  EXPECT_EQ(instr.explicitCount, 2);
  EXPECT_EQ(instr.op(0).reg, ZYDIS_REGISTER_RAX);
  EXPECT_TRUE(instr.op(0).read && instr.op(0).written);
  EXPECT_EQ(instr.op(1).reg, ZYDIS_REGISTER_RBX);
  EXPECT_EQ(instr.op(0).bits, 64);
  EXPECT_EQ(instr.flagsModified & StatusFlags, StatusFlags);
  EXPECT_EQ(instr.text(), "add rax, rbx");
  EXPECT_EQ(instr.describe(), "0x1000: add rax, rbx");
}

TEST(Decoder, RipRelativeMemoryOperand) {
  Instr instr = decodeOk({0x48, 0x8b, 0x05, 0x10, 0x00, 0x00, 0x00});   // mov rax, [rip+0x10]
  ASSERT_TRUE(instr.op(1).isMem());
  EXPECT_EQ(instr.op(1).base, ZYDIS_REGISTER_RIP);
  EXPECT_EQ(instr.op(1).disp, 0x10);
  EXPECT_EQ(instr.next(), 0x1007u);
}

TEST(Decoder, RelativeBranchImmediateIsSignedDisplacement) {
  Instr instr = decodeOk({0x74, 0xfe});   // jz to itself
  EXPECT_EQ(instr.mnemonic, ZYDIS_MNEMONIC_JZ);
  ASSERT_TRUE(instr.op(0).isImm());
  EXPECT_TRUE(instr.op(0).immRelative);
  EXPECT_EQ(instr.next() + instr.op(0).imm, 0x1000u);
  EXPECT_EQ(instr.flagsTested, uint32_t(FlagZF));
}

TEST(Decoder, ImulUndefinedFlagsReported) {
  Instr instr = decodeOk({0x48, 0x0f, 0xaf, 0xc3});   // imul rax, rbx
  EXPECT_NE(instr.flagsUndefined & FlagZF, 0u);
  EXPECT_NE(instr.flagsModified & FlagCF, 0u);
}

TEST(Decoder, TruncatedInstructionNeedsMoreData) {
  Decoder decoder;
  Instr instr;
  uint8_t bytes[] = {0x48, 0x8b};
  EXPECT_EQ(decoder.decode(bytes, sizeof bytes, 0, instr), DecodeStatus::NoMoreData);
}

TEST(Decoder, InvalidBytesAreInvalid) {
  Decoder decoder;
  Instr instr;
  uint8_t bytes[] = {0x06};   // push es: invalid in 64-bit mode
  EXPECT_EQ(decoder.decode(bytes, sizeof bytes, 0, instr), DecodeStatus::Invalid);
}

TEST(Decoder, HighByteRegisterAndLockPrefix) {
  Instr instr = decodeOk({0xf0, 0x00, 0x23});   // lock add [rbx], ah
  EXPECT_TRUE(instr.hasLock());
  EXPECT_EQ(instr.op(1).reg, ZYDIS_REGISTER_AH);
  EXPECT_EQ(instr.op(0).bits, 8);
}

} // namespace
