#include "Decode/DecodeMemo.h"

#include <gtest/gtest.h>

#include <vector>

using namespace hoist;

namespace {

/// Every field a semantic reads, operand by operand.
void expectSameInstr(const Instr &a, const Instr &b) {
  EXPECT_EQ(a.address, b.address);
  EXPECT_EQ(a.length, b.length);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_EQ(a.mnemonic, b.mnemonic);
  EXPECT_EQ(a.category, b.category);
  EXPECT_EQ(a.isaSet, b.isaSet);
  EXPECT_EQ(a.isaExt, b.isaExt);
  EXPECT_EQ(a.encoding, b.encoding);
  EXPECT_EQ(a.operandWidth, b.operandWidth);
  EXPECT_EQ(a.addressWidth, b.addressWidth);
  EXPECT_EQ(a.attributes, b.attributes);
  EXPECT_EQ(a.operandCount, b.operandCount);
  EXPECT_EQ(a.explicitCount, b.explicitCount);
  for (unsigned i = 0; i < Instr::MaxOperands; ++i) {
    const Operand &x = a.op(i), &y = b.op(i);
    EXPECT_EQ(x.kind, y.kind);
    EXPECT_EQ(x.explicitOperand, y.explicitOperand);
    EXPECT_EQ(x.read, y.read);
    EXPECT_EQ(x.written, y.written);
    EXPECT_EQ(x.bits, y.bits);
    EXPECT_EQ(x.reg, y.reg);
    EXPECT_EQ(x.segment, y.segment);
    EXPECT_EQ(x.base, y.base);
    EXPECT_EQ(x.index, y.index);
    EXPECT_EQ(x.scale, y.scale);
    EXPECT_EQ(x.disp, y.disp);
    EXPECT_EQ(x.isAgen, y.isAgen);
    EXPECT_EQ(x.imm, y.imm);
    EXPECT_EQ(x.immSigned, y.immSigned);
    EXPECT_EQ(x.immRelative, y.immRelative);
  }
  EXPECT_EQ(a.flagsTested, b.flagsTested);
  EXPECT_EQ(a.flagsModified, b.flagsModified);
  EXPECT_EQ(a.flagsSet0, b.flagsSet0);
  EXPECT_EQ(a.flagsSet1, b.flagsSet1);
  EXPECT_EQ(a.flagsUndefined, b.flagsUndefined);
  EXPECT_EQ(a.fpuFlagsModified, b.fpuFlagsModified);
  EXPECT_EQ(a.fpuFlagsUndefined, b.fpuFlagsUndefined);
}

DecodeStatus viaMemo(DecodeMemo &memo, const std::vector<uint8_t> &bytes, uint64_t address,
                     Instr &out) {
  Decoder decoder;
  out = Instr{};
  return memo.decodeIntoFresh(decoder, bytes.data(), bytes.size(), address, out);
}

Instr direct(const std::vector<uint8_t> &bytes, uint64_t address) {
  Decoder decoder;
  Instr instr;
  EXPECT_EQ(decoder.decode(bytes.data(), bytes.size(), address, instr), DecodeStatus::Ok);
  return instr;
}

TEST(DecodeMemo, SameBytesElsewhereDecodeAsTheDecoderDoes) {
  DecodeMemo memo;
  // call rel32, then the same bytes followed by other bytes at another address.
  std::vector<uint8_t> call{0xe8, 0x10, 0x20, 0x00, 0x00};
  std::vector<uint8_t> callThenRet{0xe8, 0x10, 0x20, 0x00, 0x00, 0xc3, 0x90};
  Instr first, second;
  ASSERT_EQ(viaMemo(memo, call, 0x1000, first), DecodeStatus::Ok);
  ASSERT_EQ(viaMemo(memo, callThenRet, 0x7000, second), DecodeStatus::Ok);
  EXPECT_EQ(memo.hits(), 1u);
  expectSameInstr(first, direct(call, 0x1000));
  expectSameInstr(second, direct(callThenRet, 0x7000));
  EXPECT_EQ(second.next() + second.op(0).imm, 0x7005u + 0x2010u);
}

TEST(DecodeMemo, LongerInstructionWithTheSamePrefixIsNotTakenForAShorterOne) {
  DecodeMemo memo;
  std::vector<uint8_t> movRaxRbx{0x48, 0x89, 0xd8, 0x90};                 // mov rax, rbx
  std::vector<uint8_t> movMem{0x48, 0x89, 0x05, 0x10, 0x00, 0x00, 0x00};  // mov [rip+0x10], rax
  std::vector<uint8_t> movMem2{0x48, 0x89, 0x05, 0x20, 0x00, 0x00, 0x00}; // mov [rip+0x20], rax
  Instr a, b, c;
  ASSERT_EQ(viaMemo(memo, movRaxRbx, 0x10, a), DecodeStatus::Ok);
  ASSERT_EQ(viaMemo(memo, movMem, 0x20, b), DecodeStatus::Ok);
  ASSERT_EQ(viaMemo(memo, movMem2, 0x30, c), DecodeStatus::Ok);
  expectSameInstr(a, direct(movRaxRbx, 0x10));
  expectSameInstr(b, direct(movMem, 0x20));
  expectSameInstr(c, direct(movMem2, 0x30));
  EXPECT_EQ(c.op(0).disp, 0x20);
  EXPECT_EQ(memo.hits(), 0u);
}

TEST(DecodeMemo, RememberedInstructionNeedsAllItsBytes) {
  DecodeMemo memo;
  std::vector<uint8_t> movMem{0x48, 0x89, 0x05, 0x10, 0x00, 0x00, 0x00};
  Instr instr;
  ASSERT_EQ(viaMemo(memo, movMem, 0x20, instr), DecodeStatus::Ok);
  std::vector<uint8_t> truncated(movMem.begin(), movMem.begin() + 5);
  EXPECT_EQ(viaMemo(memo, truncated, 0x20, instr), DecodeStatus::NoMoreData);
  EXPECT_EQ(viaMemo(memo, {0x06, 0x00, 0x00}, 0x20, instr), DecodeStatus::Invalid);
  EXPECT_EQ(viaMemo(memo, {0x06, 0x00, 0x00}, 0x20, instr), DecodeStatus::Invalid);
}

TEST(DecodeMemo, ManyInstructionsOfOneSetAreEvictedNotConfused) {
  // 16-bit immediates of `mov ax, imm16` (66 b8 lo hi): one three-byte key per low byte, so
  // the high bytes share keys and sets fill and evict; every answer must still be exact.
  DecodeMemo memo;
  for (unsigned round = 0; round < 2; ++round)
    for (unsigned value = 0; value < 4096; value += 7) {
      std::vector<uint8_t> bytes{0x66, 0xb8, uint8_t(value), uint8_t(value >> 8), 0xc3};
      Instr instr;
      ASSERT_EQ(viaMemo(memo, bytes, 0x1000 + value, instr), DecodeStatus::Ok);
      ASSERT_EQ(instr.op(1).imm, value);
      ASSERT_EQ(instr.address, 0x1000u + value);
      ASSERT_EQ(instr.length, 4);
    }
  EXPECT_GT(memo.hits(), 0u);
  EXPECT_GT(memo.misses(), 4096u / 7);
}

} // namespace
