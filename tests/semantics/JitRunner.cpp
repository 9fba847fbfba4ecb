#include "JitRunner.h"

#include "CodeLayout.h"

#include "Brighten/FreezeZeroExtensions.h"
#include "FaultGuard.h"
#include "Support/Diagnostics.h"
#include "hoist/Exception.h"
#include "hoist/Lifter.h"
#include "hoist/Selectors.h"
#include "hoist/State.h"

#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>

#include <cstring>

namespace hoist::test {
namespace {

// The intrinsics record the State at the first exit only: the lifted code goes on after
// __hoist_call, and what it does then is past the point where the native run stopped.
struct ExitRecord {
  ExitKind kind = ExitKind::None;
  uint64_t address = 0;
  HoistState state;
} exitRecord;

void recordExit(ExitKind kind, const HoistState *state, uint64_t address) {
  if (exitRecord.kind != ExitKind::None)
    return;
  exitRecord.kind = kind;
  exitRecord.address = address;
  std::memcpy(&exitRecord.state, state, sizeof(HoistState));
}

extern "C" void onCall(HoistState *s, void *, uint64_t a) { recordExit(ExitKind::Call, s, a); }
extern "C" void onJmp(HoistState *s, void *, uint64_t a) { recordExit(ExitKind::Jmp, s, a); }
extern "C" void onTrap(HoistState *s, void *, uint64_t a) { recordExit(ExitKind::Trap, s, a); }
extern "C" void onUnsupported(HoistState *s, void *, uint64_t a) {
  recordExit(ExitKind::Unsupported, s, a);
}

uint64_t *gprFields(HoistState &s, unsigned i) {
  uint64_t *const fields[16] = {&s.RAX, &s.RCX, &s.RDX, &s.RBX, &s.RSP, &s.RBP, &s.RSI, &s.RDI,
                                &s.R8,  &s.R9,  &s.R10, &s.R11, &s.R12, &s.R13, &s.R14, &s.R15};
  return fields[i];
}

void toHoistState(const CpuState &in, HoistState &s) {
  std::memset(&s, 0, sizeof s);
  // Read at each run: the native run of the same state reads them then (a native
  // `mov ds, ax` of an earlier form may have changed DS or ES, which 64-bit addressing ignores).
  hoist_read_selectors(&s);
  for (unsigned i = 0; i < 16; ++i)
    *gprFields(s, i) = in.gpr[i];
  s.RIP = in.rip;
  s.CF = in.cf, s.PF = in.pf, s.AF = in.af, s.ZF = in.zf, s.SF = in.sf, s.DF = in.df;
  s.OF = in.of;
  s.GS_BASE = layout::GsBase;   // what NativeRunner set natively
  s.XCR0 = hostXcr0();
  for (unsigned i = 0; i < 16; ++i)
    std::memcpy(s.YMM[i].lanes, in.fp.ymm[i], 32);
  s.MXCSR = in.fp.mxcsr;
  s.FPU_CW = in.fp.fcw;
  s.FPU_SW = in.fp.fsw;
  s.FPU_TW = in.fp.ftw;
  for (unsigned i = 0; i < 8; ++i)
    std::memcpy(&s.ST[i], in.fp.st[i], 10);
  std::memcpy(s.ZMM_HI256, in.fp.zmmHigh, sizeof s.ZMM_HI256);
  std::memcpy(s.HI16_ZMM, in.fp.zmm16, sizeof s.HI16_ZMM);
  std::memcpy(s.K, in.fp.k, sizeof s.K);
}

void fromHoistState(HoistState &s, CpuState &out) {
  for (unsigned i = 0; i < 16; ++i)
    out.gpr[i] = *gprFields(s, i);
  out.rip = s.RIP;
  out.cf = s.CF, out.pf = s.PF, out.af = s.AF, out.zf = s.ZF, out.sf = s.SF, out.df = s.DF;
  out.of = s.OF;
  for (unsigned i = 0; i < 16; ++i)
    std::memcpy(out.fp.ymm[i], s.YMM[i].lanes, 32);
  out.fp.mxcsr = s.MXCSR;
  out.fp.fcw = s.FPU_CW;
  out.fp.fsw = s.FPU_SW;
  out.fp.ftw = static_cast<uint8_t>(s.FPU_TW);
  for (unsigned i = 0; i < 8; ++i)
    std::memcpy(out.fp.st[i], &s.ST[i], 10);
  std::memcpy(out.fp.zmmHigh, s.ZMM_HI256, sizeof out.fp.zmmHigh);
  std::memcpy(out.fp.zmm16, s.HI16_ZMM, sizeof out.fp.zmm16);
  std::memcpy(out.fp.k, s.K, sizeof out.fp.k);
}

struct LiftedCall {
  void (*function)(HoistState *, void *);
  HoistState *state;
};

void callLifted(void *argument) {
  auto *call = static_cast<LiftedCall *>(argument);
  call->function(call->state, nullptr);   // %mem null: addresses are host addresses
}

llvm::Error liftError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

} // namespace

uint64_t hostXcr0() {
  static const uint64_t xcr0 = [] {
    uint32_t low, high;
    asm volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    return uint64_t(high) << 32 | low;
  }();
  return xcr0;
}

llvm::Expected<std::unique_ptr<JitRunner>> JitRunner::create(const std::vector<uint8_t> &bytes,
                                                            uint64_t address,
                                                            const ModuleSteps &steps) {
  std::unique_ptr<Image> image = Image::fromRawBytes(bytes, address);
  return lift(*image, address, /*withCallees=*/false, steps);
}

llvm::Expected<std::unique_ptr<JitRunner>> JitRunner::createWithCallees(const Image &image,
                                                                       uint64_t entry) {
  return lift(image, entry, /*withCallees=*/true, ModuleSteps{});
}

llvm::Expected<std::unique_ptr<JitRunner>> JitRunner::lift(const Image &image, uint64_t address,
                                                          bool withCallees,
                                                          const ModuleSteps &steps) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;

  auto runner = std::unique_ptr<JitRunner>(new JitRunner);
  auto context = std::make_unique<llvm::LLVMContext>();
  DiagnosticSink diagnostics;
  Lifter lifter(image, *context, diagnostics);
  if (withCallees)
    lifter.discover({address}, /*all=*/false);   // tail calls and noreturn callees
  llvm::Expected<llvm::Function *> function = lifter.liftFunction(address);
  if (function && withCallees)
    lifter.liftCallees();
  for (const Diagnostic &d : diagnostics.all())
    if (d.code != "leaves-code")   // every single-instruction image does; not news
      runner->diagnostics_ += std::string(severityName(d.severity)) + ": " + d.message + "\n";
  if (!function)
    return function.takeError();
  // A function the verifier rejects is left a declaration, which would run as nothing and
  // show only as wrong registers: the harness fails loudly instead.
  for (const Diagnostic &d : diagnostics.all())
    if (d.code == "lift-failed")
      return liftError("the lift failed: " + d.message);
  std::string functionName = (*function)->getName().str();
  std::unique_ptr<llvm::Module> module = lifter.takeModule();
  llvm::raw_string_ostream irStream(runner->ir_);
  if (steps.keepIr)
    module->print(irStream, nullptr);
  std::string problems;
  llvm::raw_string_ostream problemStream(problems);
  if (llvm::verifyModule(*module, &problemStream))
    return liftError("lifted IR fails the verifier: " + problems + "\n" + runner->ir_);
  if (steps.transform) {
    if (llvm::Error error = steps.transform(*module, image))
      return error;
    runner->ir_.clear();
    if (steps.keepIr)
      module->print(irStream, nullptr);   // reports show the IR that ran
    if (llvm::verifyModule(*module, &problemStream))
      return liftError("transformed IR fails the verifier: " + problems + "\n" + runner->ir_);
  }
  std::unique_ptr<llvm::MemoryBuffer> object;
  if (steps.toObject) {
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> compiled = steps.toObject(*module);
    if (!compiled)
      return compiled.takeError();
    object = std::move(*compiled);
  } else {
    // The JIT's code generator is LLVM 19's x86 selection too: without the workaround Hoist's
    // own code generation applies (lib/Brighten/FreezeZeroExtensions.h), unoptimized code of
    // `imul r11; mov al, r11b; cmp r11b, al; sbb eax, 0` kept RAX's upper half
    // (SequenceRegression.ByteLoadThenThirtyTwoBitWriteZeroExtends).
    freezeZeroExtensions(*module);
  }

  llvm::Expected<std::unique_ptr<llvm::orc::LLJIT>> jit = llvm::orc::LLJITBuilder().create();
  if (!jit)
    return jit.takeError();
  runner->jit_ = std::move(*jit);
  llvm::orc::JITDylib &dylib = runner->jit_->getMainJITDylib();
  llvm::orc::MangleAndInterner mangle(runner->jit_->getExecutionSession(),
                                      runner->jit_->getDataLayout());
  auto symbol = [](auto *fn) {
    return llvm::orc::ExecutorSymbolDef(llvm::orc::ExecutorAddr::fromPtr(fn),
                                        llvm::JITSymbolFlags::Exported);
  };
  if (llvm::Error error = dylib.define(llvm::orc::absoluteSymbols({
          {mangle("__hoist_call"), symbol(onCall)},
          {mangle("__hoist_jmp"), symbol(onJmp)},
          {mangle("__hoist_trap"), symbol(onTrap)},
          {mangle("__hoist_unsupported"), symbol(onUnsupported)},
      })))
    return error;
  if (llvm::Error error =
          object ? runner->jit_->addObjectFile(std::move(object))
                 : runner->jit_->addIRModule(
                       llvm::orc::ThreadSafeModule(std::move(module), std::move(context))))
    return error;
  llvm::Expected<llvm::orc::ExecutorAddr> entry = runner->jit_->lookup(functionName);
  if (!entry)
    return entry.takeError();
  runner->function_ = entry->toPtr<void (*)(HoistState *, void *)>();
  return runner;
}

StateRun JitRunner::runOnState(HoistState &state) {
  StateRun result;
  exitRecord.kind = ExitKind::None;
  LiftedCall call{function_, &state};
  result.hostCrash = !FaultGuard::instance().run(callLifted, &call, result.fault);
  result.firstExit = exitRecord.kind;
  result.exitAddress = exitRecord.address;
  return result;
}

bool JitRunner::run(const CpuState &in, RunResult &out, std::string &error) {
  HoistState state;
  toHoistState(in, state);
  StateRun run = runOnState(state);
  if (run.hostCrash) {
    out.outcome = Outcome::HostCrash;
    out.signal = run.fault.signal;
    out.faultAddress = run.fault.address;
    fromHoistState(state, out.state);
    return true;
  }
  switch (exitRecord.kind) {
  case ExitKind::None:
    // No intrinsic: the lifted function returned, as a `ret` does, and State is final.
    out.outcome = Outcome::Exit;
    fromHoistState(state, out.state);
    return true;
  case ExitKind::Unsupported:
    out.outcome = Outcome::Unsupported;
    break;
  case ExitKind::Trap:
    // The signal the kernel sends for the exception the lift recorded, compared with the
    // native run's.
    out.outcome = Outcome::Fault;
    out.signal = hoist_exception_signal(exitRecord.state.EXCEPTION);
    break;
  default:
    out.outcome = Outcome::Exit;
    break;
  }
  fromHoistState(exitRecord.state, out.state);
  return true;
}

} // namespace hoist::test
