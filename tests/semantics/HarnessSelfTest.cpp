// The comparing half of the harness checked on its own: the undefined-flag masks, the report
// format, and that a lifted semantic which differs from the CPU is caught (by running the
// lifted code of one instruction against the CPU running another).
#include "Assembler.h"
#include "CodeLayout.h"
#include "Comparison.h"
#include "DecodeForm.h"
#include "Decode/Decoder.h"
#include "JitRunner.h"
#include "NativeRunner.h"
#include "StateGenerator.h"
#include "UndefinedFlags.h"
#include "XsaveArea.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstring>

using namespace hoist;
using namespace hoist::test;

namespace {

CpuState withCl(uint64_t rcx) {
  CpuState s{};
  s.gpr[1] = rcx;
  return s;
}

TEST(UndefinedFlags, ShiftsDependOnTheMaskedCount) {
  EXPECT_EQ(undefinedFlags(decodeForm("shl eax, 1"), {}), uint32_t(FlagAF));
  EXPECT_EQ(undefinedFlags(decodeForm("shl eax, 3"), {}), uint32_t(FlagAF | FlagOF));
  EXPECT_EQ(undefinedFlags(decodeForm("shl eax, 0"), {}), 0u);
  EXPECT_EQ(undefinedFlags(decodeForm("shl eax, 33"), {}), uint32_t(FlagAF));   // masked to 1
  EXPECT_EQ(undefinedFlags(decodeForm("shr rax, 64"), {}), 0u);                 // masked to 0
  Instr byCl = decodeForm("shr ax, cl");
  EXPECT_EQ(undefinedFlags(byCl, withCl(0xff20)), 0u);   // cl & 31 == 0
  EXPECT_EQ(undefinedFlags(byCl, withCl(1)), uint32_t(FlagAF));
  EXPECT_EQ(undefinedFlags(byCl, withCl(17)), uint32_t(FlagAF | FlagOF | FlagCF));
  EXPECT_EQ(undefinedFlags(decodeForm("shl bl, 9"), {}), uint32_t(FlagAF | FlagOF | FlagCF));
  // SAR's CF is the sign bit however far it shifts.
  EXPECT_EQ(undefinedFlags(decodeForm("sar bl, 12"), {}), uint32_t(FlagAF | FlagOF));
}

TEST(UndefinedFlags, OtherInstructionsUseTheManualsSet) {
  EXPECT_EQ(undefinedFlags(decodeForm("imul eax, ebx"), {}),
            uint32_t(FlagSF | FlagZF | FlagAF | FlagPF));
  EXPECT_EQ(undefinedFlags(decodeForm("and eax, ebx"), {}), uint32_t(FlagAF));
  EXPECT_EQ(undefinedFlags(decodeForm("adc eax, ebx"), {}), 0u);
  EXPECT_EQ(undefinedFlags(decodeForm("mov eax, ebx"), {}), 0u);
}

TEST(Comparison, ReportsEveryDifferingFieldInHex) {
  Instr instr = decodeForm("adc eax, ebx");
  CpuState in{};
  RunResult native, lifted;
  native.state.gpr[0] = 0xffffffff;
  lifted.state.gpr[0] = 0xfffffffe;
  native.state.cf = 1;
  std::vector<uint8_t> nativeArena(layout::ArenaSize), liftedArena(layout::ArenaSize);
  liftedArena[0x10] = 0xab;
  EXPECT_EQ(compareRuns(instr, in, native, lifted, nativeArena.data(), liftedArena.data()),
            "rax native=0xffffffff lifted=0xfffffffe; CF native=1 lifted=0; "
            "memory 0x60002010-0x60002010: native=00 lifted=ab");
  EXPECT_EQ(compareRuns(instr, in, native, native, nativeArena.data(), nativeArena.data()), "");
  // A flag the manual leaves undefined is not compared.
  Instr andForm = decodeForm("and eax, ebx");
  lifted = native;
  lifted.state.af = 1;
  EXPECT_EQ(compareRuns(andForm, in, native, lifted, nativeArena.data(), nativeArena.data()), "");
  lifted.outcome = Outcome::Fault;
  EXPECT_EQ(compareRuns(andForm, in, native, lifted, nativeArena.data(), nativeArena.data()),
            "outcome native=exit lifted=fault");
  // Both fault: the signals must agree (a #GP recorded as #DE is caught).
  native.outcome = Outcome::Fault;
  native.signal = SIGSEGV;
  lifted = native;
  EXPECT_EQ(compareRuns(andForm, in, native, lifted, nativeArena.data(), nativeArena.data()), "");
  lifted.signal = SIGFPE;
  EXPECT_EQ(compareRuns(andForm, in, native, lifted, nativeArena.data(), nativeArena.data()),
            "signal native=SIGSEGV lifted=SIGFPE");
}

TEST(Comparison, ComparesVectorAndX87StateMaskingOnlyUnmodelledExceptionFlags) {
  std::vector<uint8_t> arena(layout::ArenaSize);
  CpuState in{};
  RunResult native, lifted;
  native.state.fp.ymm[3][2] = 0x1234;
  native.state.fp.st[7][9] = 0x40;
  native.state.fp.ftw = 0x81;
  native.state.fp.fsw = 0x3800;
  lifted.state.fp.fsw = 0x3801;   // IE: an exception flag
  lifted.state.fp.mxcsr = 0x20;   // PE
  Instr addps = decodeForm("addps xmm1, xmm2");
  EXPECT_EQ(compareRuns(addps, in, native, lifted, arena.data(), arena.data()),
            "ymm3 native=0x0000000000000000_0x0000000000001234_0x0000000000000000_"
            "0x0000000000000000 lifted=0x0000000000000000_0x0000000000000000_"
            "0x0000000000000000_0x0000000000000000; ftw native=0x81 lifted=0x0; "
            "st(7) native=0x4000:0x0000000000000000 lifted=0x0000:0x0000000000000000");
  // ldmxcsr and fninit set the exception flags to known values: those are compared.
  lifted.state.fp = native.state.fp;
  lifted.state.fp.mxcsr = 0x20;
  EXPECT_EQ(compareRuns(decodeForm("ldmxcsr dword ptr [rsi]"), in, native, lifted, arena.data(),
                        arena.data()),
            "mxcsr native=0x0 lifted=0x20");
  lifted.state.fp = native.state.fp;
  lifted.state.fp.fsw = 0x3801;
  EXPECT_EQ(compareRuns(decodeForm("fninit"), in, native, lifted, arena.data(), arena.data()),
            "fsw native=0x3800 lifted=0x3801");
  // TOP (bits 11..13) is never masked.
  lifted.state.fp.fsw = 0x3000;
  EXPECT_EQ(compareRuns(addps, in, native, lifted, arena.data(), arena.data()),
            "fsw native=0x3800 lifted=0x3000");
}

/// One state run on the CPU (whatever NativeRunner has loaded) and lifted, each from the
/// arena `initial`, with the arenas they leave.
struct BothRuns {
  RunResult native, lifted;
  std::vector<uint8_t> nativeArena, liftedArena;
};

BothRuns runBoth(JitRunner &lifted, const CpuState &in, const std::vector<uint8_t> &initial) {
  NativeRunner &native = NativeRunner::instance();
  BothRuns runs;
  std::memcpy(native.arena(), initial.data(), layout::ArenaSize);
  runs.native = native.run(in);
  EXPECT_NE(runs.native.outcome, Outcome::HarnessError) << describeOutcome(runs.native);
  runs.nativeArena.assign(native.arena(), native.arena() + layout::ArenaSize);
  std::memcpy(native.arena(), initial.data(), layout::ArenaSize);
  std::string error;
  EXPECT_TRUE(lifted.run(in, runs.lifted, error)) << error;
  runs.liftedArena.assign(native.arena(), native.arena() + layout::ArenaSize);
  return runs;
}

/// Loads `nativeBytes` into the native runner and lifts `liftedBytes`: the lifted code (null
/// when it cannot be lifted) and, in `instr`, the instruction the CPU runs.
std::unique_ptr<JitRunner> prepare(const std::vector<uint8_t> &nativeBytes,
                                   const std::vector<uint8_t> &liftedBytes, Instr &instr) {
  NativeRunner::instance().load(nativeBytes);
  Decoder().decode(nativeBytes.data(), nativeBytes.size(), layout::InstructionAddress, instr);
  auto lifted = JitRunner::create(liftedBytes, layout::InstructionAddress);
  EXPECT_TRUE(bool(lifted)) << (lifted ? "" : llvm::toString(lifted.takeError()));
  return lifted ? std::move(*lifted) : nullptr;
}

/// Mismatching states when the CPU runs `nativeText` and the lifter lifts `liftedText`
/// (both the same length, so every exit address agrees).
unsigned mismatchesBetween(const std::string &nativeText, const std::string &liftedText,
                           std::string &firstReport) {
  llvm::Expected<std::vector<uint8_t>> nativeBytes = assemble(nativeText);
  llvm::Expected<std::vector<uint8_t>> liftedBytes = assemble(liftedText);
  EXPECT_TRUE(nativeBytes && liftedBytes);
  if (!nativeBytes || !liftedBytes) {
    llvm::consumeError(nativeBytes.takeError());
    llvm::consumeError(liftedBytes.takeError());
    return 0;
  }
  EXPECT_EQ(nativeBytes->size(), liftedBytes->size());
  Instr instr;
  std::unique_ptr<JitRunner> lifted = prepare(*nativeBytes, *liftedBytes, instr);
  if (!lifted)
    return 0;
  StateGenerator generator(instr, 1);
  std::vector<uint8_t> initial;
  unsigned mismatches = 0;
  for (unsigned index = 0; index < 256; ++index) {
    CpuState in{};
    EXPECT_TRUE(generator.generate(index, in, initial));
    BothRuns runs = runBoth(*lifted, in, initial);
    std::string report = compareRuns(instr, in, runs.native, runs.lifted,
                                     runs.nativeArena.data(), runs.liftedArena.data());
    if (!report.empty() && mismatches++ == 0)
      firstReport = report;
  }
  return mismatches;
}

TEST(HarnessSelfTest, CatchesAWrongCarry) {
  std::string report;
  // adc and add differ exactly when CF was set: half of the states.
  EXPECT_GT(mismatchesBetween("add eax, ebx", "adc eax, ebx", report), 64u);
  EXPECT_NE(report.find("rax native="), std::string::npos) << report;
}

TEST(HarnessSelfTest, CatchesAWrongStore) {
  std::string report;
  EXPECT_GT(mismatchesBetween("mov byte ptr [rsi], al", "mov byte ptr [rsi], bl", report), 200u);
  EXPECT_EQ(report.find("memory 0x6000"), 0u) << report;
}

TEST(HarnessSelfTest, CatchesAWrongVectorRegister) {
  std::string report;
  EXPECT_EQ(mismatchesBetween("movaps xmm1, xmm2", "movaps xmm1, xmm3", report), 256u);
  EXPECT_EQ(report.find("ymm1 native="), 0u) << report;
}

TEST(HarnessSelfTest, CatchesAWrongBranch) {
  std::string report;
  EXPECT_EQ(mismatchesBetween("jz target", "jnz target", report), 256u);
  EXPECT_EQ(report.find("rip native="), 0u) << report;
}

} // namespace

namespace {

TEST(HarnessSelfTest, LiftedCodeThatCrashesIsAResultNotADeadProcess) {
  llvm::Expected<std::vector<uint8_t>> bytes = assemble("mov rax, qword ptr [rbx]");
  ASSERT_TRUE(bool(bytes)) << llvm::toString(bytes.takeError());
  auto lifted = JitRunner::create(*bytes, layout::InstructionAddress);
  ASSERT_TRUE(bool(lifted)) << llvm::toString(lifted.takeError());
  CpuState in{};
  in.gpr[3] = layout::MappingAddress;   // the guard page below the code
  in.gpr[4] = layout::StackAddress + layout::StackSize / 2;
  in.rip = layout::InstructionAddress;
  RunResult out;
  std::string error;
  ASSERT_TRUE((*lifted)->run(in, out, error)) << error;
  EXPECT_EQ(out.outcome, Outcome::HostCrash);
  EXPECT_EQ(out.signal, SIGSEGV);
  EXPECT_EQ(out.faultAddress, layout::MappingAddress);
}

} // namespace

namespace {

TEST(HarnessSelfTest, CatchesTheWrongXsaveFormat) {
  std::string report;
  // xsavec writes XCOMP_BV and clears the XSTATE_BV bits outside RFBM; xsave does neither.
  EXPECT_GT(mismatchesBetween("xsave [rsi]", "xsavec [rsi]", report), 150u);
  EXPECT_EQ(report.find("memory 0x6000"), 0u) << report;
  EXPECT_GT(mismatchesBetween("xsavec [rsi]", "xsave [rsi]", report), 150u);
  EXPECT_EQ(report.find("memory 0x6000"), 0u) << report;
}

TEST(HarnessSelfTest, CatchesAWrongTranscendental) {
  // The x87 transcendentals run the instruction itself: the wrong one must still be caught.
  std::string report;
  EXPECT_GT(mismatchesBetween("fsin", "fcos", report), 128u);
  EXPECT_NE(report.find("st(0) native="), std::string::npos) << report;
  EXPECT_GT(mismatchesBetween("fptan", "fsincos", report), 128u);
  EXPECT_GT(mismatchesBetween("fyl2x", "fpatan", report), 128u);
}

TEST(HarnessSelfTest, CatchesAnXsaveImageWithTheAvxStateMisplaced) {
  // Lifted images of xsave that hold AVX state in use, with their AVX region moved from 576
  // to 640 as a wrong offset would put it: each must be reported, none hidden by the masks.
  llvm::Expected<std::vector<uint8_t>> bytes = assemble("xsave [rsi]");
  ASSERT_TRUE(bool(bytes)) << llvm::toString(bytes.takeError());
  Instr instr;
  std::unique_ptr<JitRunner> lifted = prepare(*bytes, *bytes, instr);
  ASSERT_TRUE(lifted);
  StateGenerator generator(instr, 2);
  std::vector<uint8_t> initial;
  unsigned checked = 0;
  for (unsigned index = 0; index < 512; ++index) {
    CpuState in{};
    ASSERT_TRUE(generator.generate(index, in, initial));
    uint64_t avx = uint64_t(1) << xsave::Avx;
    if (!(requestedFeatures(in) & avx) || !(componentsInUse(in.fp) & avx) ||
        leavesToRuntime(instr, in) || in.gpr[6] % 64 != 0)
      continue;
    BothRuns runs = runBoth(*lifted, in, initial);
    ASSERT_EQ(compareRuns(instr, in, runs.native, runs.lifted, runs.nativeArena.data(),
                          runs.liftedArena.data()),
              "");
    std::vector<uint8_t> &moved = runs.liftedArena;
    size_t avxRegion = in.gpr[6] - layout::ArenaAddress + xsave::AvxOffset;
    std::memmove(&moved[avxRegion + 64], &moved[avxRegion], 256);
    std::string report = compareRuns(instr, in, runs.native, runs.lifted,
                                     runs.nativeArena.data(), moved.data());
    EXPECT_EQ(report.find("memory 0x6000"), 0u) << report;
    ++checked;
  }
  EXPECT_GT(checked, 20u);
}

TEST(HarnessSelfTest, AcceptsOnlyInitialValuesWhereXsaveoptSkippedAComponent) {
  Instr instr = decodeForm("xsaveopt [rsi]");
  CpuState in{};
  in.gpr[0] = 0x7;                               // RFBM: x87, SSE, AVX
  in.gpr[6] = layout::DataAddress + 0x400;       // the area
  in.fp.fcw = 0x037f;
  in.fp.st[0][9] = 0x3f;                         // x87 in use; XMM zero (initial); AVX in use
  for (auto &reg : in.fp.ymm)
    reg[2] = 1;
  RunResult native, lifted;
  native.state = lifted.state = in;
  std::vector<uint8_t> nativeArena(layout::ArenaSize, 0xa5);
  size_t area = 0x400;
  uint64_t nativeBv = 0x5, liftedBv = 0x7;       // the CPU skipped SSE, Hoist wrote it
  std::memcpy(&nativeArena[area + xsave::HeaderOffset], &nativeBv, 8);
  std::vector<uint8_t> liftedArena = nativeArena;
  std::memcpy(&liftedArena[area + xsave::HeaderOffset], &liftedBv, 8);
  std::memset(&liftedArena[area + 160], 0, 256);   // the XMM registers' initial values
  EXPECT_EQ(compareRuns(instr, in, native, lifted, nativeArena.data(), liftedArena.data()), "");
  // Anything but the initial values where the CPU skipped is reported.
  liftedArena[area + 200] = 1;
  std::string report =
      compareRuns(instr, in, native, lifted, nativeArena.data(), liftedArena.data());
  EXPECT_EQ(report.find("memory 0x600024a0-0x6000259f"), 0u) << report;   // the XMM region
  // A component in use must be reported in use: x87 with XSTATE_BV[0] = 0 is wrong.
  liftedArena[area + 200] = 0;
  liftedBv = 0x6;
  std::memcpy(&liftedArena[area + xsave::HeaderOffset], &liftedBv, 8);
  EXPECT_EQ(compareRuns(instr, in, native, lifted, nativeArena.data(), liftedArena.data())
                .find("memory 0x60002600-0x60002600"),
            0u);
}

} // namespace
