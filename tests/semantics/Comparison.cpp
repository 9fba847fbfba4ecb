#include "Comparison.h"

#include "CodeLayout.h"
#include "FaultGuard.h"
#include "HostModel.h"
#include "StateGenerator.h"
#include "UndefinedFlags.h"
#include "XsaveArea.h"

#include <llvm/Support/FormatVariadic.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace hoist::test {
namespace {

const char *const GprNames[16] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                  "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};

struct FlagField {
  const char *name;
  uint32_t mask;
  uint8_t CpuState::*field;
};
const FlagField Flags[] = {{"CF", FlagCF, &CpuState::cf}, {"PF", FlagPF, &CpuState::pf},
                           {"AF", FlagAF, &CpuState::af}, {"ZF", FlagZF, &CpuState::zf},
                           {"SF", FlagSF, &CpuState::sf}, {"DF", FlagDF, &CpuState::df},
                           {"OF", FlagOF, &CpuState::of}};

std::string hexBytes(const uint8_t *bytes, size_t count) {
  std::string out;
  for (size_t i = 0; i < count; ++i)
    out += llvm::formatv("{0}{1:x-2}", i ? " " : "", bytes[i]).str();
  return out;
}

/// Up to four differing ranges of the arenas; ranges closer than 8 bytes are merged.
std::string compareArenas(const uint8_t *native, const uint8_t *lifted) {
  if (std::memcmp(native, lifted, layout::ArenaSize) == 0)
    return "";
  std::string out;
  unsigned ranges = 0;
  for (size_t i = 0; i < layout::ArenaSize;) {
    if (native[i] == lifted[i]) {
      ++i;
      continue;
    }
    size_t end = i + 1, lastDiff = i;
    while (end < layout::ArenaSize && end - lastDiff < 8) {
      if (native[end] != lifted[end])
        lastDiff = end;
      ++end;
    }
    size_t count = lastDiff + 1 - i, shown = std::min<size_t>(count, 16);
    if (++ranges > 4) {
      out += "more memory differs; ";
      break;
    }
    out += llvm::formatv("memory {0:x}-{1:x}: native={2}{4} lifted={3}{4}; ",
                         layout::ArenaAddress + i, layout::ArenaAddress + lastDiff,
                         hexBytes(native + i, shown), hexBytes(lifted + i, shown),
                         shown < count ? " ..." : "")
               .str();
    i = lastDiff + 1;
  }
  return out;
}

std::string hexLanes(const uint64_t lanes[4]) {
  return llvm::formatv("{0:x16}_{1:x16}_{2:x16}_{3:x16}", lanes[3], lanes[2], lanes[1], lanes[0])
      .str();
}

std::string hexExtended(const uint8_t value[10]) {
  uint16_t signExponent = uint16_t(value[9]) << 8 | value[8];
  uint64_t significand = 0;
  for (int i = 7; i >= 0; --i)
    significand = significand << 8 | value[i];
  return llvm::formatv("{0:x4}:{1:x16}", signExponent, significand).str();
}

/// The SIMD and x87 differences; the exception flags and undefined condition codes are
/// masked as `undefined` says.
std::string compareFpStates(const FpState &native, const FpState &lifted,
                            const Undefined &undefined) {
  std::string out;
  for (unsigned i = 0; i < 16; ++i)
    if (std::memcmp(native.ymm[i], lifted.ymm[i], 32) != 0)
      out += llvm::formatv("ymm{0} native={1} lifted={2}; ", i, hexLanes(native.ymm[i]),
                           hexLanes(lifted.ymm[i]))
                 .str();
  for (unsigned i = 0; i < 16; ++i)
    if (std::memcmp(native.zmmHigh[i], lifted.zmmHigh[i], 32) != 0)
      out += llvm::formatv("zmm{0}[511:256] native={1} lifted={2}; ", i,
                           hexLanes(native.zmmHigh[i]), hexLanes(lifted.zmmHigh[i]))
                 .str();
  for (unsigned i = 0; i < 16; ++i)
    if (std::memcmp(native.zmm16[i], lifted.zmm16[i], 64) != 0)
      out += llvm::formatv("zmm{0} native={1}_{2} lifted={3}_{4}; ", 16 + i,
                           hexLanes(native.zmm16[i] + 4), hexLanes(native.zmm16[i]),
                           hexLanes(lifted.zmm16[i] + 4), hexLanes(lifted.zmm16[i]))
                 .str();
  for (unsigned i = 0; i < 8; ++i)
    if (native.k[i] != lifted.k[i])
      out += llvm::formatv("k{0} native={1:x16} lifted={2:x16}; ", i, native.k[i], lifted.k[i])
                 .str();
  if ((native.mxcsr & ~undefined.mxcsr) != (lifted.mxcsr & ~undefined.mxcsr))
    out += llvm::formatv("mxcsr native={0:x} lifted={1:x}; ", native.mxcsr, lifted.mxcsr).str();
  if (native.fcw != lifted.fcw)
    out += llvm::formatv("fcw native={0:x} lifted={1:x}; ", native.fcw, lifted.fcw).str();
  if ((native.fsw & ~undefined.fsw) != (lifted.fsw & ~undefined.fsw))
    out += llvm::formatv("fsw native={0:x} lifted={1:x}; ", native.fsw, lifted.fsw).str();
  if (native.ftw != lifted.ftw)
    out += llvm::formatv("ftw native={0:x} lifted={1:x}; ", native.ftw, lifted.ftw).str();
  for (unsigned i = 0; i < 8; ++i)
    if (std::memcmp(native.st[i], lifted.st[i], 10) != 0)
      out += llvm::formatv("st({0}) native={1} lifted={2}; ", i, hexExtended(native.st[i]),
                           hexExtended(lifted.st[i]))
                 .str();
  return out;
}

} // namespace

std::string describeOutcome(const RunResult &run) {
  switch (run.outcome) {
  case Outcome::Exit:
    return "exit";
  case Outcome::Fault:
    if (run.signal == 0)
      return "fault";
    return llvm::formatv("fault ({0} at rip={1:x}, address {2:x})", signalName(run.signal),
                         run.state.rip, run.faultAddress)
        .str();
  case Outcome::HostCrash:
    return llvm::formatv("host crash ({0}, address {1:x})", signalName(run.signal),
                         run.faultAddress)
        .str();
  case Outcome::Unsupported:
    return "unsupported";
  case Outcome::HarnessError:
    return llvm::formatv("harness error ({0} at rip={1:x}, in the harness's own code)",
                         signalName(run.signal), run.state.rip)
        .str();
  }
  return "?";
}

const char *outcomeName(Outcome outcome) {
  switch (outcome) {
  case Outcome::Exit:
    return "exit";
  case Outcome::Fault:
    return "fault";
  case Outcome::HostCrash:
    return "host crash";
  case Outcome::Unsupported:
    return "unsupported";
  case Outcome::HarnessError:
    return "harness error";
  }
  return "?";
}

std::string compareRuns(const Instr &instr, const CpuState &in, const RunResult &native,
                        const RunResult &lifted, const uint8_t *nativeArena,
                        const uint8_t *liftedArena) {
  std::string out;
  // Not a result of the tested code: reported, never passed (DifferentialTest counts it apart).
  if (native.outcome == Outcome::HarnessError)
    return "native run ended with a " + describeOutcome(native);
  if (modelChoosesOutcome(instr, in, native, lifted, nativeArena))
    return out;   // the host's model decides this state (HostModel.h): nothing to compare
  if (native.outcome != lifted.outcome) {
    out += "outcome native=" + describeOutcome(native) + " lifted=" + describeOutcome(lifted) +
           "; ";
    if (lifted.outcome == Outcome::HostCrash)
      return out;   // the lifted state is whatever the crash left: nothing to compare
  } else if (native.outcome == Outcome::Fault && native.signal != lifted.signal) {
    // The exception the lift recorded must be the one the CPU raised (as the kernel reports
    // it): a translated program dies of that signal.
    out += llvm::formatv("signal native={0} lifted={1}; ", signalName(native.signal),
                         signalName(lifted.signal))
               .str();
  }
  // A faulting instruction changed nothing, so then every flag and register is defined.
  Undefined undefined = native.outcome == Outcome::Fault ? Undefined{} : undefinedEffects(instr, in);
  for (unsigned i = 0; i < 16; ++i)
    if ((native.state.gpr[i] ^ lifted.state.gpr[i]) & ~undefined.registerBits[i])
      out += llvm::formatv("{0} native={1:x} lifted={2:x}; ", GprNames[i], native.state.gpr[i],
                           lifted.state.gpr[i])
                 .str();
  if (native.state.rip != lifted.state.rip)
    out += llvm::formatv("rip native={0:x} lifted={1:x}; ", native.state.rip, lifted.state.rip)
               .str();
  for (const FlagField &flag : Flags)
    if (!(undefined.flags & flag.mask) && native.state.*flag.field != lifted.state.*flag.field)
      out += llvm::formatv("{0} native={1} lifted={2}; ", flag.name, native.state.*flag.field,
                           lifted.state.*flag.field)
                 .str();
  FpState liftedFp = lifted.state.fp;
  if (native.outcome == Outcome::Exit && lifted.outcome == Outcome::Exit)
    acceptDotProductNans(instr, native.state.fp, liftedFp);
  if (native.outcome == Outcome::Fault && lifted.outcome == Outcome::Fault)
    acceptPartialRestore(instr, in, nativeArena, native.state.fp, liftedFp);
  out += compareFpStates(native.state.fp, liftedFp, undefined);
  if (native.outcome == Outcome::Exit && lifted.outcome == Outcome::Exit &&
      areaKind(instr) != AreaKind::None) {
    std::vector<uint8_t> accepted(liftedArena, liftedArena + layout::ArenaSize);
    acceptProcessorChoices(instr, in, nativeArena, accepted.data());
    AreaKind kind = areaKind(instr);
    uint64_t area = effectiveAddress(instr, instr.op(0), in);
    if (kind != AreaKind::Fxrstor && kind != AreaKind::Xrstor && area >= layout::ArenaAddress &&
        area + 32 <= layout::ArenaAddress + layout::ArenaSize)
      acceptHostMxcsrMask(nativeArena + (area - layout::ArenaAddress),
                          accepted.data() + (area - layout::ArenaAddress));
    out += compareArenas(nativeArena, accepted.data());
  } else {
    out += compareArenas(nativeArena, liftedArena);
  }
  if (!out.empty())
    out.resize(out.size() - 2);   // the last "; "
  return out;
}

std::string describeInput(const Instr &instr, const CpuState &in, const uint8_t *initialArena) {
  std::string out;
  for (unsigned i = 0; i < 16; ++i)
    out += llvm::formatv("{0}={1:x} ", GprNames[i], in.gpr[i]).str();
  for (const FlagField &flag : Flags)
    out += llvm::formatv("{0}={1} ", flag.name, in.*flag.field).str();
  // The vector registers the instruction names, and the FP environment when it is SIMD or x87.
  bool fp = false;
  for (unsigned i = 0; i < instr.operandCount; ++i) {
    const Operand &operand = instr.op(i);
    ZydisRegisterClass regClass =
        operand.isReg() ? ZydisRegisterGetClass(operand.reg) : ZYDIS_REGCLASS_INVALID;
    bool vector = regClass == ZYDIS_REGCLASS_XMM || regClass == ZYDIS_REGCLASS_YMM ||
                  regClass == ZYDIS_REGCLASS_ZMM;
    int id = operand.isReg() ? ZydisRegisterGetId(operand.reg) : -1;
    if (vector && id < 16) {
      out += llvm::formatv("ymm{0}={1} ", id, hexLanes(in.fp.ymm[id])).str();
      if (in.fp.avx512)
        out += llvm::formatv("zmm{0}[511:256]={1} ", id, hexLanes(in.fp.zmmHigh[id])).str();
    } else if (vector) {
      out += llvm::formatv("zmm{0}={1}_{2} ", id, hexLanes(in.fp.zmm16[id - 16] + 4),
                           hexLanes(in.fp.zmm16[id - 16]))
                 .str();
    } else if (regClass == ZYDIS_REGCLASS_MASK) {
      out += llvm::formatv("k{0}={1:x16} ", id, in.fp.k[id]).str();
    }
    fp |= vector || regClass == ZYDIS_REGCLASS_X87;
  }
  if (fp || instr.isaExt == ZYDIS_ISA_EXT_X87 || !instr.isGeneralPurpose()) {
    out += llvm::formatv("mxcsr={0:x} fcw={1:x} fsw={2:x} ftw={3:x} ", in.fp.mxcsr, in.fp.fcw,
                         in.fp.fsw, in.fp.ftw)
               .str();
    if (instr.isaExt == ZYDIS_ISA_EXT_X87)
      for (unsigned i = 0; i < 8; ++i)
        out += llvm::formatv("st({0})={1} ", i, hexExtended(in.fp.st[i])).str();
  }
  for (unsigned i = 0; i < instr.operandCount; ++i) {
    const Operand &operand = instr.op(i);
    if (!operand.isMem() || operand.isAgen)
      continue;
    uint64_t address = effectiveAddress(instr, operand, in);
    size_t size = std::clamp<size_t>(operand.bits / 8, 1, 64);
    if (address >= layout::ArenaAddress && address + size <= layout::ArenaAddress + layout::ArenaSize)
      out += llvm::formatv("[{0:x}]={1} ", address,
                           hexBytes(initialArena + (address - layout::ArenaAddress), size))
                 .str();
  }
  AreaKind area = areaKind(instr);
  if (isXsaveFamily(area)) {
    uint64_t address = effectiveAddress(instr, instr.op(0), in);
    out += llvm::formatv("rfbm={0:x} ", requestedFeatures(in)).str();
    if (address >= layout::ArenaAddress &&
        address + xsave::ModelledSize <= layout::ArenaAddress + layout::ArenaSize)
      out += llvm::formatv("header={0} ",
                           hexBytes(initialArena + (address - layout::ArenaAddress) +
                                        xsave::HeaderOffset,
                                    24))
                 .str();
  }
  out.pop_back();
  return out;
}

} // namespace hoist::test
