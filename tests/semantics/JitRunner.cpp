#include "JitRunner.h"

#include "Support/Diagnostics.h"
#include "hoist/Lifter.h"

#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>

#include <cstring>

namespace hoist::test {
namespace {

// The intrinsics record the State at the first exit; later ones (the lifted code goes on after
// __hoist_call) must not overwrite it.
struct ExitRecord {
  bool taken = false;
  const char *kind = nullptr;
  HoistState state;
};
ExitRecord exitRecord;

void recordExit(const char *kind, HoistState *state) {
  if (exitRecord.taken)
    return;
  exitRecord.taken = true;
  exitRecord.kind = kind;
  std::memcpy(&exitRecord.state, state, sizeof(HoistState));
}

extern "C" void onCall(HoistState *s, void *, uint64_t) { recordExit("call", s); }
extern "C" void onRet(HoistState *s, void *, uint64_t) { recordExit("ret", s); }
extern "C" void onJmp(HoistState *s, void *, uint64_t) { recordExit("jmp", s); }
extern "C" void onTrap(HoistState *s, void *, uint64_t) { recordExit("trap", s); }
extern "C" void onUnsupported(HoistState *s, void *, uint64_t) { recordExit("unsupported", s); }

void toHoistState(const CpuState &in, HoistState &s) {
  std::memset(&s, 0, sizeof s);
  uint64_t *gprs[16] = {&s.RAX, &s.RCX, &s.RDX, &s.RBX, &s.RSP, &s.RBP, &s.RSI, &s.RDI,
                        &s.R8,  &s.R9,  &s.R10, &s.R11, &s.R12, &s.R13, &s.R14, &s.R15};
  for (unsigned i = 0; i < 16; ++i)
    *gprs[i] = in.gpr[i];
  s.RIP = in.rip;
  s.CF = in.cf, s.PF = in.pf, s.AF = in.af, s.ZF = in.zf, s.SF = in.sf, s.DF = in.df,
  s.OF = in.of;
}

void fromHoistState(const HoistState &s, CpuState &out) {
  const uint64_t gprs[16] = {s.RAX, s.RCX, s.RDX, s.RBX, s.RSP, s.RBP, s.RSI, s.RDI,
                             s.R8,  s.R9,  s.R10, s.R11, s.R12, s.R13, s.R14, s.R15};
  std::memcpy(out.gpr, gprs, sizeof gprs);
  out.rip = s.RIP;
  out.cf = s.CF, out.pf = s.PF, out.af = s.AF, out.zf = s.ZF, out.sf = s.SF, out.df = s.DF,
  out.of = s.OF;
}

} // namespace

llvm::Expected<std::unique_ptr<JitRunner>> JitRunner::create(const std::vector<uint8_t> &bytes,
                                                            uint64_t address) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;

  auto context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<Image> image = Image::fromRawBytes(bytes, address);
  DiagnosticSink diagnostics;
  Lifter lifter(*image, *context, diagnostics);
  llvm::Expected<llvm::Function *> function = lifter.liftFunction(address);
  if (!function)
    return function.takeError();
  std::string functionName = (*function)->getName().str();
  std::unique_ptr<llvm::Module> module = lifter.takeModule();
  std::string problems;
  llvm::raw_string_ostream problemStream(problems);
  if (llvm::verifyModule(*module, &problemStream))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "lifted IR fails the verifier: " + problems);

  auto runner = std::unique_ptr<JitRunner>(new JitRunner);
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
          {mangle("__hoist_ret"), symbol(onRet)},
          {mangle("__hoist_jmp"), symbol(onJmp)},
          {mangle("__hoist_trap"), symbol(onTrap)},
          {mangle("__hoist_unsupported"), symbol(onUnsupported)},
      })))
    return error;
  if (llvm::Error error = runner->jit_->addIRModule(
          llvm::orc::ThreadSafeModule(std::move(module), std::move(context))))
    return error;
  llvm::Expected<llvm::orc::ExecutorAddr> entry = runner->jit_->lookup(functionName);
  if (!entry)
    return entry.takeError();
  runner->function_ = entry->toPtr<void (*)(HoistState *, void *)>();
  return runner;
}

bool JitRunner::run(const CpuState &in, CpuState &out, std::string &why) {
  HoistState state;
  toHoistState(in, state);
  exitRecord.taken = false;
  function_(&state, nullptr);
  if (!exitRecord.taken) {
    why = "lifted code returned without leaving through an intrinsic";
    return false;
  }
  fromHoistState(exitRecord.state, out);
  if (std::strcmp(exitRecord.kind, "unsupported") == 0 || std::strcmp(exitRecord.kind, "trap") == 0) {
    why = std::string("lifted code reached __hoist_") + exitRecord.kind;
    return false;
  }
  return true;
}

} // namespace hoist::test
