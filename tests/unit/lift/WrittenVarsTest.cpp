// The decoder's word on what a function writes (lib/Arch/WrittenVars.h), how the lifter uses
// it (a register no instruction writes is never stored back) and what happens when the
// semantics write more than it said (the function is lifted again, with no trace of the
// first attempt).
#include "Arch/WrittenVars.h"
#include "Decode/Decoder.h"
#include "Discover/FunctionDiscovery.h"
#include "Discover/InstructionCache.h"
#include "Lift/CallTargets.h"
#include "Lift/FunctionLifter.h"
#include "Support/Diagnostics.h"
#include "hoist/Lifter.h"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <gtest/gtest.h>

#include <vector>

using namespace hoist;

namespace {

constexpr uint64_t Base = 0x1000;

VarSet writtenBy(std::vector<uint8_t> bytes) {
  Decoder decoder;
  Instr instr;
  EXPECT_EQ(decoder.decode(bytes.data(), bytes.size(), Base, instr), DecodeStatus::Ok);
  return varsWrittenBy(instr);
}

VarSet vars(std::initializer_list<Var> list) {
  VarSet set;
  for (Var var : list)
    set.set(static_cast<unsigned>(var));
  return set;
}

const VarSet StatusFlags = vars({Var::CF, Var::PF, Var::AF, Var::ZF, Var::SF, Var::OF});

/// The State fields `function` stores to, by the name of their pointer ("rbx.ptr").
std::vector<std::string> storedFields(const llvm::Function &function) {
  std::vector<std::string> names;
  for (const llvm::BasicBlock &bb : function)
    for (const llvm::Instruction &inst : bb)
      if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&inst))
        names.push_back(store->getPointerOperand()->getName().str());
  return names;
}

bool contains(const std::vector<std::string> &names, llvm::StringRef name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST(WrittenVars, PushWritesOnlyTheStackPointer) {
  EXPECT_EQ(writtenBy({0x55}), vars({Var::RSP}));   // push rbp
}

TEST(WrittenVars, AddWritesItsDestinationAndTheStatusFlags) {
  EXPECT_EQ(writtenBy({0x01, 0xd8}), vars({Var::RAX}) | StatusFlags);   // add eax, ebx
}

TEST(WrittenVars, StringInstructionsWriteTheirPointersAndCount) {
  // repne scasb: the decoder lists [rdi] as memory, not the update of rdi and rcx.
  EXPECT_EQ(writtenBy({0xf2, 0xae}),
            vars({Var::RSI, Var::RDI, Var::RCX}) | StatusFlags);
}

TEST(WrittenVars, VzeroupperMayWriteEverything) {
  EXPECT_TRUE(writtenBy({0xc5, 0xf8, 0x77}).all());
}

TEST(WrittenVars, RegisterNoInstructionWritesIsNotStoredBack) {
  // loop: dec rdi; jnz loop; ret -- rbx is read by nobody and written by nobody: before, the
  // loop header's placeholder phi for it was written back at the ret.
  std::unique_ptr<Image> image = Image::fromRawBytes({0x48, 0xff, 0xcf, 0x75, 0xfb, 0xc3}, Base);
  llvm::LLVMContext context;
  DiagnosticSink diagnostics;
  Lifter lifter(*image, context, diagnostics);
  llvm::Expected<llvm::Function *> function = lifter.liftFunction(Base);
  ASSERT_TRUE(!!function) << llvm::toString(function.takeError());
  EXPECT_FALSE(llvm::verifyModule(lifter.module(), &llvm::errs()));
  std::vector<std::string> stored = storedFields(**function);
  EXPECT_TRUE(contains(stored, "rdi.ptr"));
  EXPECT_TRUE(contains(stored, "rsp.ptr"));
  EXPECT_FALSE(contains(stored, "rbx.ptr"));
  EXPECT_FALSE(contains(stored, "ymm0.ptr"));
  EXPECT_EQ(lifter.stats().writesMispredicted, 0u);
}

TEST(WrittenVars, WrongAssumptionLiftsAgainWithoutTrace) {
  // add rbx, 1; vscalefpd zmm0, zmm1, zmm2 {rd-sae} (no semantics: one warning); ret --
  // lifted assuming it writes nothing, which the add refutes.
  std::unique_ptr<Image> image = Image::fromRawBytes(
      {0x48, 0x83, 0xc3, 0x01, 0x62, 0xf2, 0xf5, 0x38, 0x2c, 0xc2, 0xc3}, Base);
  llvm::LLVMContext context;
  llvm::Module module("test", context);
  DiagnosticSink diagnostics;
  InstructionCache cache(*image);
  DiscoveredFunction discovered = discoverFunction(*image, cache, Base, {}, diagnostics);
  size_t diagnosticsBefore = diagnostics.all().size();
  LiftStats stats;
  VarSet nothing;
  llvm::Function *function = declareLiftedFunction(module, *image, Base);
  liftExploredFunction({*image, discovered.explored, diagnostics, stats, &nothing}, *function);

  EXPECT_EQ(stats.writesMispredicted, 1u);
  EXPECT_EQ(stats.instructionsLifted, 3u);
  EXPECT_EQ(stats.unsupported.size(), 1u);
  ASSERT_EQ(diagnostics.all().size(), diagnosticsBefore + 1);
  EXPECT_EQ(diagnostics.all().back().code, "unsupported-instruction");
  EXPECT_FALSE(llvm::verifyModule(module, &llvm::errs()));
  EXPECT_TRUE(contains(storedFields(*function), "rbx.ptr"));
}

} // namespace
