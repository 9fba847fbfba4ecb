#include "HostModel.h"

#include "CodeLayout.h"
#include "StateGenerator.h"
#include "XsaveArea.h"

#include <llvm/ADT/StringRef.h>

#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace hoist::test {

bool hostRunsAvx512() {
  static const bool runs = [] {
    const char *disabled = std::getenv("HOIST_SEMANTICS_NO_AVX512");
    if (disabled && *disabled && *disabled != '0')
      return false;
    // The compiler's CPU model checks XCR0 too, so an OS that did not enable the state
    // reads as a host without AVX-512.
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512vl");
  }();
  return runs;
}

bool hostRunsGfni() {
  static const bool runs = [] {
    const char *disabled = std::getenv("HOIST_SEMANTICS_NO_GFNI");
    if (disabled && *disabled && *disabled != '0')
      return false;
    return __builtin_cpu_supports("gfni") != 0;
  }();
  return runs;
}

namespace {

/// An extension some forms need beyond the base AVX-512 sets, named by Zydis's ISA set (the
/// part before the vector width: "AVX512_VBMI2" of AVX512_VBMI2_128). Hosts of this kind
/// differ here: a Skylake-X has AVX-512 without VBMI, a Zen 4 has AVX-512 VNNI without the
/// VEX AVX-VNNI, a Zen 3 has VAES without AVX-512.
struct Extension {
  const char *isaSet;
  bool (*hostHas)();
};

// __builtin_cpu_supports takes only a literal, hence one function each.
const Extension Extensions[] = {
    {"AVX512_VBMI", [] { return __builtin_cpu_supports("avx512vbmi") != 0; }},
    {"AVX512_VBMI2", [] { return __builtin_cpu_supports("avx512vbmi2") != 0; }},
    {"AVX512_IFMA", [] { return __builtin_cpu_supports("avx512ifma") != 0; }},
    {"AVX512_VNNI", [] { return __builtin_cpu_supports("avx512vnni") != 0; }},
    {"AVX512_BITALG", [] { return __builtin_cpu_supports("avx512bitalg") != 0; }},
    {"AVX512_VPOPCNTDQ", [] { return __builtin_cpu_supports("avx512vpopcntdq") != 0; }},
    {"AVX512_BF16", [] { return __builtin_cpu_supports("avx512bf16") != 0; }},
    {"AVX512_FP16", [] { return __builtin_cpu_supports("avx512fp16") != 0; }},
    {"AVX512_VP2INTERSECT", [] { return __builtin_cpu_supports("avx512vp2intersect") != 0; }},
    {"AVX512_GFNI", hostRunsGfni},
    {"AVX512_VAES", [] { return __builtin_cpu_supports("vaes") != 0; }},
    {"AVX512_VPCLMULQDQ", [] { return __builtin_cpu_supports("vpclmulqdq") != 0; }},
    // Xeon Phi's sets: no host of this kind has them.
    {"AVX512ER", [] { return false; }},
    {"AVX512PF", [] { return false; }},
    {"AVX512_4FMAPS", [] { return false; }},
    {"AVX512_4VNNIW", [] { return false; }},
    {"GFNI", hostRunsGfni},
    {"AVX_GFNI", hostRunsGfni},
    {"AVX_VNNI", [] { return __builtin_cpu_supports("avxvnni") != 0; }},
    {"VAES", [] { return __builtin_cpu_supports("vaes") != 0; }},
    {"VPCLMULQDQ", [] { return __builtin_cpu_supports("vpclmulqdq") != 0; }},
    {"SHA", [] { return __builtin_cpu_supports("sha") != 0; }},
    {"XSAVEC", [] { return __builtin_cpu_supports("xsavec") != 0; }},
};

/// The ISA set without its vector width: "AVX512_VBMI2" of "AVX512_VBMI2_128", "SHA" of "SHA".
llvm::StringRef withoutWidth(llvm::StringRef isaSet) {
  for (llvm::StringRef width : {"_128", "_128N", "_256", "_512", "_SCALAR"})
    if (isaSet.consume_back(width))
      break;
  return isaSet;
}

} // namespace

const char *hostLacks(const Instr &instr) {
  if (instr.isAvx512() && !hostRunsAvx512())
    return "AVX-512 (F, CD, BW, DQ, VL)";
  llvm::StringRef set = withoutWidth(ZydisISASetGetString(instr.isaSet));
  for (const Extension &extension : Extensions)
    if (set == extension.isaSet)
      return extension.hostHas() ? nullptr : extension.isaSet;
  return nullptr;
}

bool hostRunsForm(const Instr &instr) { return hostLacks(instr) == nullptr; }
namespace {

constexpr uint32_t ModelledMxcsrMask = 0xffff;   // lib/Semantics/LegacyRegion.h
constexpr size_t MxcsrOffset = 24, MxcsrMaskOffset = 28;

uint32_t read32(const uint8_t *bytes) {
  uint32_t value;
  std::memcpy(&value, bytes, 4);
  return value;
}

bool inArena(uint64_t address, uint64_t size) {
  return address >= layout::ArenaAddress &&
         address + size <= layout::ArenaAddress + layout::ArenaSize;
}

/// The MXCSR value the instruction loads, when it loads one from memory.
std::optional<uint32_t> loadedMxcsr(const Instr &instr, const CpuState &in, const uint8_t *arena) {
  uint64_t offset = 0;
  switch (instr.mnemonic) {
  case ZYDIS_MNEMONIC_LDMXCSR:
  case ZYDIS_MNEMONIC_VLDMXCSR:
    break;
  case ZYDIS_MNEMONIC_FXRSTOR:
  case ZYDIS_MNEMONIC_FXRSTOR64:
  case ZYDIS_MNEMONIC_XRSTOR:
  case ZYDIS_MNEMONIC_XRSTOR64:
    offset = MxcsrOffset;
    break;
  default:
    return std::nullopt;
  }
  uint64_t address = effectiveAddress(instr, instr.op(0), in) + offset;
  if (!inArena(address, 4))
    return std::nullopt;
  return read32(arena + (address - layout::ArenaAddress));
}

/// Whether the instruction loads DS or ES with 0x20..0x23, Linux's 32-bit user code segment
/// (lib/Semantics/SegmentMove.cpp).
bool loadsUser32CodeSelector(const Instr &instr, const CpuState &in, const uint8_t *arena) {
  if (instr.mnemonic != ZYDIS_MNEMONIC_MOV || !instr.op(0).isReg() ||
      (instr.op(0).reg != ZYDIS_REGISTER_DS && instr.op(0).reg != ZYDIS_REGISTER_ES))
    return false;
  const Operand &source = instr.op(1);
  uint16_t selector;
  if (source.isReg()) {
    int index = gprIndex(source.reg);
    if (index < 0)
      return false;
    selector = uint16_t(in.gpr[index]);
  } else {
    uint64_t address = effectiveAddress(instr, source, in);
    if (!inArena(address, 2))
      return false;
    std::memcpy(&selector, arena + (address - layout::ArenaAddress), 2);
  }
  return (selector & 0xfffc) == 0x20;
}

bool isSha(ZydisMnemonic mnemonic) {
  switch (mnemonic) {
  case ZYDIS_MNEMONIC_SHA1MSG1:
  case ZYDIS_MNEMONIC_SHA1MSG2:
  case ZYDIS_MNEMONIC_SHA1NEXTE:
  case ZYDIS_MNEMONIC_SHA1RNDS4:
  case ZYDIS_MNEMONIC_SHA256MSG1:
  case ZYDIS_MNEMONIC_SHA256MSG2:
  case ZYDIS_MNEMONIC_SHA256RNDS2:
    return true;
  default:
    return false;
  }
}

std::optional<unsigned> vectorIndex(ZydisRegister reg) {
  if (reg >= ZYDIS_REGISTER_XMM0 && reg <= ZYDIS_REGISTER_XMM15)
    return reg - ZYDIS_REGISTER_XMM0;
  if (reg >= ZYDIS_REGISTER_YMM0 && reg <= ZYDIS_REGISTER_YMM15)
    return reg - ZYDIS_REGISTER_YMM0;
  return std::nullopt;
}

} // namespace

uint32_t hostMxcsrMask() {
  static const uint32_t mask = [] {
    alignas(16) uint8_t area[512] = {};
    asm volatile("fxsave64 %0" : "=m"(area));
    uint32_t saved = read32(area + MxcsrMaskOffset);
    return saved ? saved : 0xffbfu;
  }();
  return mask;
}

bool hostIsAmd() {
  static const bool amd = [] {
    uint32_t eax = 0, ebx, ecx, edx;
    asm volatile("cpuid" : "+a"(eax), "=b"(ebx), "=c"(ecx), "=d"(edx));
    char vendor[13] = {};
    std::memcpy(vendor, &ebx, 4);
    std::memcpy(vendor + 4, &edx, 4);
    std::memcpy(vendor + 8, &ecx, 4);
    return std::strcmp(vendor, "AuthenticAMD") == 0;
  }();
  return amd;
}

void actAsHostWithoutIa32Emulation(const Instr &instr, const CpuState &in,
                                   const uint8_t *nativeArena, RunResult &native) {
  static const bool acting = [] {
    const char *set = std::getenv("HOIST_SEMANTICS_NO_IA32_EMULATION");
    return set && *set && *set != '0';
  }();
  if (!acting || native.outcome != Outcome::Exit ||
      !loadsUser32CodeSelector(instr, in, nativeArena))
    return;
  native.outcome = Outcome::Fault;
  native.signal = SIGSEGV;
  native.state = in;
  native.faultAddress = 0;
}

const char *modelChoiceRule(const Instr &instr, const CpuState &in, const RunResult &native,
                            const RunResult &lifted, const uint8_t *nativeArena) {
  if (native.outcome == Outcome::Fault && lifted.outcome == Outcome::Exit &&
      loadsUser32CodeSelector(instr, in, nativeArena))
    return "the 32-bit user code segment, which this host's kernel runs without (IA32 "
           "emulation off)";
  if (native.outcome != Outcome::Exit || lifted.outcome != Outcome::Fault)
    return nullptr;
  if (std::optional<uint32_t> value = loadedMxcsr(instr, in, nativeArena)) {
    uint32_t hostOnly = hostMxcsrMask() & ~ModelledMxcsrMask;
    bool chosen =
        (*value & ~ModelledMxcsrMask) != 0 && (*value & ~ModelledMxcsrMask & ~hostOnly) == 0;
    return chosen ? "an MXCSR bit only the host defines" : nullptr;
  }
  if (isSha(instr.mnemonic) && instr.op(1).kind == Operand::Kind::Mem &&
      effectiveAddress(instr, instr.op(1), in) % 16 != 0)
    return "a misaligned SHA operand the host reads";
  return nullptr;
}

bool modelChoosesOutcome(const Instr &instr, const CpuState &in, const RunResult &native,
                         const RunResult &lifted, const uint8_t *nativeArena) {
  return modelChoiceRule(instr, in, native, lifted, nativeArena) != nullptr;
}

const char *whyModelChoosesOften(const Instr &instr) {
  if (instr.mnemonic == ZYDIS_MNEMONIC_MOV && instr.op(0).isReg() &&
      (instr.op(0).reg == ZYDIS_REGISTER_DS || instr.op(0).reg == ZYDIS_REGISTER_ES))
    return "the state generator draws small values often (about 2% of states load 0x20..0x23), "
           "and a host whose kernel runs without IA32 emulation faults on them";
  if (isSha(instr.mnemonic) && instr.op(1).kind == Operand::Kind::Mem)
    return "the state generator's memory operands are 16-byte aligned in 1 state of 16, and a "
           "host without SHA's #GP (AMD's) runs the other 15";
  return nullptr;
}

void acceptHostMxcsrMask(const uint8_t *nativeArea, uint8_t *liftedArea) {
  uint32_t nativeMask = read32(nativeArea + MxcsrMaskOffset);
  if (nativeMask == hostMxcsrMask() && read32(liftedArea + MxcsrMaskOffset) == ModelledMxcsrMask &&
      (nativeMask & ModelledMxcsrMask) == ModelledMxcsrMask)
    std::memcpy(liftedArea + MxcsrMaskOffset, nativeArea + MxcsrMaskOffset, 4);
}

void acceptDotProductNans(const Instr &instr, const FpState &native, FpState &lifted) {
  bool singles;
  switch (instr.mnemonic) {
  case ZYDIS_MNEMONIC_DPPS:
  case ZYDIS_MNEMONIC_VDPPS:
    singles = true;
    break;
  case ZYDIS_MNEMONIC_DPPD:
  case ZYDIS_MNEMONIC_VDPPD:
    singles = false;
    break;
  default:
    return;
  }
  std::optional<unsigned> index = vectorIndex(instr.op(0).reg);
  if (!index)
    return;
  auto *nativeBytes = reinterpret_cast<const uint8_t *>(native.ymm[*index]);
  auto *liftedBytes = reinterpret_cast<uint8_t *>(lifted.ymm[*index]);
  unsigned width = singles ? 4 : 8;
  for (unsigned at = 0; at < 32; at += width) {
    bool bothNan;
    if (singles) {
      float a, b;
      std::memcpy(&a, nativeBytes + at, 4);
      std::memcpy(&b, liftedBytes + at, 4);
      bothNan = std::isnan(a) && std::isnan(b);
    } else {
      double a, b;
      std::memcpy(&a, nativeBytes + at, 8);
      std::memcpy(&b, liftedBytes + at, 8);
      bothNan = std::isnan(a) && std::isnan(b);
    }
    if (bothNan)
      std::memcpy(liftedBytes + at, nativeBytes + at, width);
  }
}

} // namespace hoist::test
