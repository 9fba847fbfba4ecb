#include "NativeRunner.h"

#include "FaultGuard.h"
#include "XsaveArea.h"

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <asm/prctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

extern "C" {
// NativeEntry.S reads and writes this by the offsets asserted below.
struct alignas(64) NativeFrame {
  uint64_t inGpr[16];
  uint64_t inFlags;
  uint64_t code;
  uint64_t outGpr[16];
  uint64_t outFlags;
  uint64_t outRip;
  uint64_t hostRsp;
  uint64_t padding[3];
  uint64_t outYmm[16][4];
  alignas(16) uint8_t outFx[512];
  /// What xrstor loads: a standard-format image, with room for every component the entry
  /// initializes (up to AVX-512's Hi16_ZMM, which ends at byte 2688).
  alignas(64) uint8_t inXsave[2688];
  /// AVX-512 state, loaded after xrstor and saved at the exit with vmovdqu64 and kmovq when
  /// `avx512` is set: only AVX-512 forms on a host that has it pay for it, and only there
  /// does the harness run an EVEX instruction.
  alignas(64) uint64_t inZmm[32][8];   ///< whole registers: the low halves repeat inXsave's
  uint64_t inK[8];
  uint64_t outZmm[32][8];
  uint64_t outK[8];
  uint64_t avx512;
};
void hoist_native_enter(NativeFrame *frame);
void hoist_native_exit();
void hoist_native_end();   ///< a label: the end of NativeEntry.S's code
extern uint64_t hoist_native_saved_rax;
extern uint64_t hoist_native_exit_rip;
}

static_assert(offsetof(NativeFrame, inFlags) == 128);
static_assert(offsetof(NativeFrame, code) == 136);
static_assert(offsetof(NativeFrame, outGpr) == 144);
static_assert(offsetof(NativeFrame, outFlags) == 272);
static_assert(offsetof(NativeFrame, outRip) == 280);
static_assert(offsetof(NativeFrame, hostRsp) == 288);
static_assert(offsetof(NativeFrame, outYmm) == 320);
static_assert(offsetof(NativeFrame, outFx) == 832);
static_assert(offsetof(NativeFrame, inXsave) == 1344);
static_assert(offsetof(NativeFrame, inZmm) == 4032);
static_assert(offsetof(NativeFrame, inK) == 6080);
static_assert(offsetof(NativeFrame, outZmm) == 6144);
static_assert(offsetof(NativeFrame, outK) == 8192);
static_assert(offsetof(NativeFrame, avx512) == 8256);

namespace hoist::test {
namespace {

constexpr uint64_t RflagsReserved = 1u << 1;   // reads as 1; popfq wants it set

uint64_t packFlags(const CpuState &s) {
  return RflagsReserved | uint64_t(s.cf) << 0 | uint64_t(s.pf) << 2 | uint64_t(s.af) << 4 |
         uint64_t(s.zf) << 6 | uint64_t(s.sf) << 7 | uint64_t(s.df) << 10 | uint64_t(s.of) << 11;
}

void unpackFlags(uint64_t flags, CpuState &s) {
  s.cf = flags >> 0 & 1;
  s.pf = flags >> 2 & 1;
  s.af = flags >> 4 & 1;
  s.zf = flags >> 6 & 1;
  s.sf = flags >> 7 & 1;
  s.df = flags >> 10 & 1;
  s.of = flags >> 11 & 1;
}

uint8_t *codePage() { return reinterpret_cast<uint8_t *>(layout::CodeAddress); }

/// movabs (10) + movabs (10) + movabs (10) + jmp [rip+0] (6) and its target (8).
constexpr uint64_t ExitStubSize = 44;

void emit64(uint8_t *&p, uint64_t value) {
  std::memcpy(p, &value, 8);
  p += 8;
}

void enterNative(void *frame) { hoist_native_enter(static_cast<NativeFrame *>(frame)); }

} // namespace

NativeRunner &NativeRunner::instance() {
  static NativeRunner runner;
  return runner;
}

NativeRunner::NativeRunner() {
  // Reserve everything inaccessible, then open the code page and the arena: the guard pages
  // turn a stray access just outside the arena into a fault instead of a silent corruption.
  void *mapping = mmap(reinterpret_cast<void *>(layout::MappingAddress), layout::MappingSize,
                       PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (mapping != reinterpret_cast<void *>(layout::MappingAddress))
    throw std::runtime_error("cannot map the test pages at 0x60000000: " +
                             std::string(mapping == MAP_FAILED ? std::strerror(errno)
                                                               : "the kernel chose another address"));
  if (mprotect(reinterpret_cast<void *>(layout::ArenaAddress), layout::ArenaSize,
               PROT_READ | PROT_WRITE) != 0)
    throw std::runtime_error("cannot open the arena");
  // GS-relative forms address the arena through this base; the lifted run gets it in State.
  if (syscall(SYS_arch_prctl, ARCH_SET_GS, layout::GsBase) != 0)
    throw std::runtime_error("cannot set the GS base");
  FaultGuard::instance();
}

void NativeRunner::writeExitStub(uint64_t offset) {
  // movabs [saved_rax], rax; movabs rax, <here>; movabs [exit_rip], rax; jmp [rip+0] -> exit.
  // Nothing here changes a flag or another register; hoist_native_exit does the rest.
  uint8_t *p = codePage() + offset;
  *p++ = 0x48, *p++ = 0xa3;
  emit64(p, reinterpret_cast<uint64_t>(&hoist_native_saved_rax));
  *p++ = 0x48, *p++ = 0xb8;
  emit64(p, layout::CodeAddress + offset);
  *p++ = 0x48, *p++ = 0xa3;
  emit64(p, reinterpret_cast<uint64_t>(&hoist_native_exit_rip));
  *p++ = 0xff, *p++ = 0x25, *p++ = 0, *p++ = 0, *p++ = 0, *p++ = 0;
  emit64(p, reinterpret_cast<uint64_t>(&hoist_native_exit));
  if (p != codePage() + offset + ExitStubSize)
    throw std::logic_error("an exit stub is not ExitStubSize bytes");
  static_assert(ExitStubSize <= layout::ExitStubSpacing);
  exitStubs_.push_back(layout::CodeAddress + offset);
}

bool NativeRunner::isHarnessCode(uint64_t rip) const {
  auto enter = reinterpret_cast<uint64_t>(&hoist_native_enter);
  auto end = reinterpret_cast<uint64_t>(&hoist_native_end);
  if (rip >= enter && rip < end)
    return true;
  // Past a stub's first byte: a trap raised by the tested instruction (int3, a debug trap)
  // reports the address after it, which may be the start of a stub; nothing the form does
  // can stop a stub after its start, since its stores go to the harness's own data.
  for (uint64_t stub : exitStubs_)
    if (rip > stub && rip < stub + ExitStubSize)
      return true;
  return false;
}

void NativeRunner::load(const std::vector<uint8_t> &bytes) {
  if (bytes.empty() || bytes.size() > layout::MaxCodeSize)
    throw std::invalid_argument("the code is 1 to layout::MaxCodeSize bytes");
  // Writable while the stubs are written, then execute-only: a store the generator failed to
  // keep in the arena faults instead of rewriting the code.
  mprotect(codePage(), layout::CodeSize, PROT_READ | PROT_WRITE);
  std::memset(codePage(), 0xcc, layout::CodeSize);   // int3 wherever control should never go
  exitStubs_.clear();
  std::memcpy(codePage() + layout::InstructionOffset, bytes.data(), bytes.size());
  uint64_t end = layout::InstructionOffset + bytes.size();
  writeExitStub(layout::FarBackOffset);
  writeExitStub(layout::BackOffset);
  writeExitStub(end);
  writeExitStub(end + layout::TargetDistance);
  writeExitStub(end + layout::FarTargetDistance);
  writeExitStub(layout::IndirectTargetOffset);
  mprotect(codePage(), layout::CodeSize, PROT_READ | PROT_EXEC);
}

RunResult NativeRunner::run(const CpuState &in) {
  static NativeFrame frame;
  std::memcpy(frame.inGpr, in.gpr, sizeof frame.inGpr);
  frame.inFlags = packFlags(in);
  frame.code = in.rip;
  std::memset(frame.inXsave, 0, sizeof frame.inXsave);
  toXsave(in.fp, componentsInUse(in.fp), frame.inXsave);
  frame.avx512 = in.fp.avx512;
  if (in.fp.avx512) {
    for (unsigned i = 0; i < 16; ++i) {
      std::memcpy(&frame.inZmm[i][0], in.fp.ymm[i], 32);
      std::memcpy(&frame.inZmm[i][4], in.fp.zmmHigh[i], 32);
    }
    std::memcpy(frame.inZmm[16], in.fp.zmm16, sizeof in.fp.zmm16);
    std::memcpy(frame.inK, in.fp.k, sizeof frame.inK);
  }
  RunResult result;
  Fault fault;
  if (!FaultGuard::instance().run(enterNative, &frame, fault)) {
    result.outcome = isHarnessCode(fault.rip) ? Outcome::HarnessError : Outcome::Fault;
    result.signal = fault.signal;
    result.faultAddress = fault.address;
    std::memcpy(result.state.gpr, fault.gpr, sizeof fault.gpr);
    result.state.rip = fault.rip;
    unpackFlags(fault.rflags, result.state);
    fromFxsave(fault.fxsave, result.state.fp);
    for (unsigned i = 0; i < 16; ++i)
      std::memcpy(&result.state.fp.ymm[i][2], fault.ymmHigh[i], 16);
    if (in.fp.avx512) {
      std::memcpy(result.state.fp.zmmHigh, fault.zmmHigh, sizeof fault.zmmHigh);
      std::memcpy(result.state.fp.zmm16, fault.zmm16, sizeof fault.zmm16);
      std::memcpy(result.state.fp.k, fault.k, sizeof fault.k);
    }
    return result;
  }
  std::memcpy(result.state.gpr, frame.outGpr, sizeof result.state.gpr);
  result.state.rip = frame.outRip;
  unpackFlags(frame.outFlags, result.state);
  fromFxsave(frame.outFx, result.state.fp);
  std::memcpy(result.state.fp.ymm, frame.outYmm, sizeof frame.outYmm);
  if (in.fp.avx512) {
    for (unsigned i = 0; i < 16; ++i)
      std::memcpy(result.state.fp.zmmHigh[i], &frame.outZmm[i][4], 32);
    std::memcpy(result.state.fp.zmm16, frame.outZmm[16], sizeof result.state.fp.zmm16);
    std::memcpy(result.state.fp.k, frame.outK, sizeof frame.outK);
  }
  return result;
}

} // namespace hoist::test
