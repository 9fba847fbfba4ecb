// Function starts without symbols or unwinding tables: code references (`lea reg, [rip+X]`)
// and aligned code in the gaps between the functions found, under the precision policy of
// docs/CFG.md. Code pointers in data need sections, so tests/cfg checks them on whole binaries.
#include "Discover/ProgramDiscovery.h"
#include "Support/Diagnostics.h"

#include <gtest/gtest.h>

using namespace hoist;

namespace {

constexpr uint64_t Base = 0x1000;

ProgramCfg discoverAll(const std::vector<uint8_t> &code) {
  std::unique_ptr<Image> image = Image::fromRawBytes(code, Base);
  DiagnosticSink diagnostics;
  ProgramDiscoveryRequest request;
  request.roots = {Base};
  request.all = true;
  return discoverProgram(*image, request, LiftOptions{}, diagnostics);
}

std::vector<uint8_t> operator+(std::vector<uint8_t> a, const std::vector<uint8_t> &b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::vector<uint8_t> int3(size_t count) { return std::vector<uint8_t>(count, 0xcc); }

} // namespace

TEST(CodePointers, LeaOfCodeAndAlignedGapsStartFunctions) {
  std::vector<uint8_t> code =
      std::vector<uint8_t>{0x48, 0x8d, 0x05, 0x19, 0x00, 0x00, 0x00,   // 1000: lea rax,[rip+0x19]
                           0x48, 0x8d, 0x0d, 0xf5, 0xff, 0xff, 0xff,   // 1007: lea rcx,[rip-0xb]
                           0xc3} +                                     // 100e: ret
      int3(1) +                                                        // 100f
      std::vector<uint8_t>{0x31, 0xc0, 0xc3} + int3(13) +              // 1010: xor eax,eax; ret
      std::vector<uint8_t>{0xb8, 0x01, 0x00, 0x00, 0x00, 0xc3} +       // 1020: mov eax,1; ret
      int3(1) + std::vector<uint8_t>{0x5b, 0xc3};                      // 1027: pop rbx; ret
  ProgramCfg cfg = discoverAll(code);
  std::vector<uint64_t> entries;
  for (const auto &[entry, function] : cfg.functions)
    entries.push_back(entry);
  // 0x1020 is the lea's target; 0x1010 is aligned code after filler that nothing reaches;
  // 0x1027 is not aligned and pops what code before it pushed, which no function's entry does
  // (a bare `ret` there would be a function by its shape); 0x1002 (the second lea) is inside
  // the function that computes it.
  EXPECT_EQ(entries, (std::vector<uint64_t>{0x1000, 0x1010, 0x1020}));
  EXPECT_EQ(reasonNames(cfg.registry.reasons(0x1020)),
            (std::vector<std::string>{"code_reference"}));
  EXPECT_EQ(reasonNames(cfg.registry.reasons(0x1010)), (std::vector<std::string>{"gap"}));
}

TEST(CodePointers, ALeaIntoAnotherFunctionsBlocksIsNoStart) {
  std::vector<uint8_t> code =
      std::vector<uint8_t>{0xe8, 0x0b, 0x00, 0x00, 0x00,                // 1000: call 0x1010
                           0x48, 0x8d, 0x05, 0x07, 0x00, 0x00, 0x00,    // 1005: lea rax,[rip+7]
                           0xc3} +                                      // 100c: ret
      int3(3) + std::vector<uint8_t>{0x31, 0xc0, 0x90, 0xc3};          // 1010: xor; nop; ret
  ProgramCfg cfg = discoverAll(code);
  std::vector<uint64_t> entries;
  for (const auto &[entry, function] : cfg.functions)
    entries.push_back(entry);
  // The lea's target 0x1013 is inside the blocks of the function at 0x1010 (a label, not a
  // function): rejected.
  EXPECT_EQ(entries, (std::vector<uint64_t>{0x1000, 0x1010}));
  EXPECT_EQ(cfg.registry.reasons(0x1013), 0u);
}
