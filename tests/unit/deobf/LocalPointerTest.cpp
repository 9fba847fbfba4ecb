// Whether a taken address stays a local base of reads (lib/Deobf/Concolic/LocalPointer.h):
// the function is a few instructions at 0x1000; the object is at 0x2000 ([0x2000, 0x2040)).
#include "Decode/Decoder.h"
#include "Deobf/Concolic/LocalPointer.h"

#include <gtest/gtest.h>

namespace hoist {
namespace {

constexpr uint64_t Begin = 0x1000;
constexpr std::pair<uint64_t, uint64_t> Object{0x2000, 0x2040};

FunctionCode decodeAll(const std::vector<uint8_t> &bytes) {
  FunctionCode function;
  function.begin = Begin;
  function.end = Begin + bytes.size();
  Decoder decoder;
  for (size_t offset = 0; offset < bytes.size();) {
    Instr instr;
    EXPECT_EQ(decoder.decode(bytes.data() + offset, bytes.size() - offset, Begin + offset, instr),
              DecodeStatus::Ok);
    function.instructions.push_back(instr);
    offset += instr.length;
  }
  return function;
}

std::optional<std::string> escapes(const std::vector<uint8_t> &bytes, bool targetsStay = true,
                                   size_t taker = 0) {
  return localPointerEscapes(decodeAll(bytes), taker, Object,
                             [&](uint64_t, uint64_t) { return targetsStay; });
}

// lea rdx, [rip+0xff9] (0x2000)
const std::vector<uint8_t> LeaRdx = {0x48, 0x8d, 0x15, 0xf9, 0x0f, 0x00, 0x00};

std::vector<uint8_t> operator+(std::vector<uint8_t> a, const std::vector<uint8_t> &b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(LocalPointer, ThreadedWalkStaysLocal) {
  // mov rcx, [rdx+8]; add rdx, 16; jmp rcx
  EXPECT_EQ(escapes(LeaRdx + std::vector<uint8_t>{0x48, 0x8b, 0x4a, 0x08, 0x48, 0x83, 0xc2,
                                                   0x10, 0xff, 0xe1}),
            std::nullopt);
}

TEST(LocalPointer, JumpToATargetOutsideTheFunctionLetsAnArgumentRegisterEscape) {
  // The same walk, but the object holds a code address outside the function: the jump may
  // be a tail call with the pointer in rdx.
  std::optional<std::string> why = escapes(
      LeaRdx + std::vector<uint8_t>{0x48, 0x8b, 0x4a, 0x08, 0x48, 0x83, 0xc2, 0x10, 0xff, 0xe1},
      false);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("passed in rdx"), std::string::npos) << *why;
}

TEST(LocalPointer, CallWithThePointerInAnArgumentRegisterEscapes) {
  // mov rdi, rdx; call +0
  std::optional<std::string> why =
      escapes(LeaRdx + std::vector<uint8_t>{0x48, 0x89, 0xd7, 0xe8, 0x00, 0x00, 0x00, 0x00});
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("passed in rdi"), std::string::npos) << *why;
}

TEST(LocalPointer, StoreThroughOrOfThePointerEscapes) {
  // mov [rdx+8], rcx
  std::optional<std::string> through =
      escapes(LeaRdx + std::vector<uint8_t>{0x48, 0x89, 0x4a, 0x08});
  ASSERT_TRUE(through);
  EXPECT_NE(through->find("stored through"), std::string::npos) << *through;
  // mov [rsp+8], rdx
  std::optional<std::string> stored =
      escapes(LeaRdx + std::vector<uint8_t>{0x48, 0x89, 0x54, 0x24, 0x08});
  ASSERT_TRUE(stored);
  EXPECT_NE(stored->find("stored at"), std::string::npos) << *stored;
}

TEST(LocalPointer, SavedCalleeSavedRegisterIsNoEscape) {
  // push rbx; lea rbx, [rip+0xff8]; mov rax, [rbx]; pop rbx; ret: the caller's rbx is saved
  // and restored (flow-insensitively, the push might push the pointer), rax holds what was
  // read, not the pointer.
  std::vector<uint8_t> code = {0x53, 0x48, 0x8d, 0x1d, 0xf8, 0x0f, 0x00, 0x00, 0x48,
                               0x8b, 0x03, 0x5b, 0xc3};
  EXPECT_EQ(escapes(code, true, 1), std::nullopt);
  // Without the pop, the push may be a stack argument.
  code.erase(code.begin() + 11);
  EXPECT_TRUE(escapes(code, true, 1));
}

TEST(LocalPointer, ReturnedPointerEscapes) {
  // mov rax, rdx; ret
  std::optional<std::string> why = escapes(LeaRdx + std::vector<uint8_t>{0x48, 0x89, 0xd0, 0xc3});
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("returned in rax"), std::string::npos) << *why;
}

} // namespace
} // namespace hoist
