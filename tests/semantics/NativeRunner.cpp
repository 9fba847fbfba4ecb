#include "NativeRunner.h"

#include <csetjmp>
#include <csignal>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <sys/mman.h>

extern "C" {
struct NativeFrame {
  uint64_t inGpr[16];
  uint64_t inFlags;
  uint64_t code;
  uint64_t outGpr[16];
  uint64_t outFlags;
  uint64_t outRip;
  uint64_t hostRsp;
};
void hoist_native_enter(NativeFrame *frame);
void hoist_native_exit();
extern uint64_t hoist_native_saved_rax;
extern uint64_t hoist_native_exit_rip;
}

// NativeEntry.S addresses the frame by these offsets.
static_assert(offsetof(NativeFrame, inFlags) == 128);
static_assert(offsetof(NativeFrame, code) == 136);
static_assert(offsetof(NativeFrame, outGpr) == 144);
static_assert(offsetof(NativeFrame, outFlags) == 272);
static_assert(offsetof(NativeFrame, outRip) == 280);
static_assert(offsetof(NativeFrame, hostRsp) == 288);

namespace hoist::test {
namespace {

sigjmp_buf faultJump;

void onFault(int, siginfo_t *, void *) { siglongjmp(faultJump, 1); }

constexpr uint64_t RflagsReserved = 1u << 1;   // always reads as 1

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

void append64(uint8_t *&p, uint64_t value) {
  std::memcpy(p, &value, 8);
  p += 8;
}

} // namespace

NativeRunner::NativeRunner() {
  void *mapping = mmap(nullptr, CodeSize + ArenaSize, PROT_READ | PROT_WRITE | PROT_EXEC,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED)
    throw std::runtime_error("cannot map the code page");
  code_ = static_cast<uint8_t *>(mapping);
  altStack_ = std::malloc(SIGSTKSZ * 4);
  stack_t alt{};
  alt.ss_sp = altStack_;
  alt.ss_size = SIGSTKSZ * 4;
  sigaltstack(&alt, nullptr);
  struct sigaction action {};
  action.sa_sigaction = onFault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP})
    sigaction(signal, &action, nullptr);
}

NativeRunner::~NativeRunner() {
  munmap(code_, CodeSize + ArenaSize);
  for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP})
    std::signal(signal, SIG_DFL);
  stack_t disable{};
  disable.ss_flags = SS_DISABLE;
  sigaltstack(&disable, nullptr);
  std::free(altStack_);
}

void NativeRunner::writeStub(size_t offset) {
  // movabs [saved_rax], rax; movabs rax, <here>; movabs [exit_rip], rax; jmp [rip+0] -> exit
  uint8_t *p = code_ + offset;
  uint64_t here = codeAddress() + offset;
  *p++ = 0x48, *p++ = 0xa3;
  append64(p, reinterpret_cast<uint64_t>(&hoist_native_saved_rax));
  *p++ = 0x48, *p++ = 0xb8;
  append64(p, here);
  *p++ = 0x48, *p++ = 0xa3;
  append64(p, reinterpret_cast<uint64_t>(&hoist_native_exit_rip));
  *p++ = 0xff, *p++ = 0x25, *p++ = 0, *p++ = 0, *p++ = 0, *p++ = 0;
  append64(p, reinterpret_cast<uint64_t>(&hoist_native_exit));
}

void NativeRunner::load(const std::vector<uint8_t> &bytes) {
  std::memset(code_, 0xcc, CodeSize);   // int3 anywhere control should never go
  std::memcpy(code_, bytes.data(), bytes.size());
  writeStub(bytes.size());
  writeStub(bytes.size() + BranchTargetDistance);
  writeStub(IndirectStubOffset);
}

bool NativeRunner::run(const CpuState &in, CpuState &out) {
  static NativeFrame frame;
  std::memcpy(frame.inGpr, in.gpr, sizeof frame.inGpr);
  frame.inFlags = packFlags(in);
  frame.code = codeAddress();
  if (sigsetjmp(faultJump, 1))
    return false;
  hoist_native_enter(&frame);
  std::memcpy(out.gpr, frame.outGpr, sizeof out.gpr);
  out.rip = frame.outRip;
  unpackFlags(frame.outFlags, out);
  return true;
}

} // namespace hoist::test
