#include "Discover/NoReturn.h"

#include <llvm/ADT/StringSwitch.h>

namespace hoist {

bool isKnownNoReturnName(llvm::StringRef name) {
  name = name.split('@').first;   // exit@GLIBC_2.2.5
  return llvm::StringSwitch<bool>(name)
      .Cases("exit", "_exit", "_Exit", "abort", "quick_exit", "__stack_chk_fail", true)
      .Cases("__assert_fail", "__assert_rtn", "_assert", "__cxa_throw", "__cxa_rethrow", true)
      .Cases("_Unwind_Resume", "longjmp", "_longjmp", "siglongjmp", "__longjmp_chk", true)
      .Cases("__fortify_fail", "__chk_fail", "err", "errx", "verr", "verrx", true)
      .Cases("pthread_exit", "__cxa_bad_cast", "__cxa_bad_typeid", "_ZSt9terminatev", true)
      .Cases("__libc_start_main", "__cxa_call_unexpected", "thrd_exit", true)
      .Cases("ExitProcess", "ExitThread", "RaiseException", "TerminateProcess", true)
      .Cases("FatalExit", "FatalAppExitA", "FatalAppExitW", "RtlRaiseException", true)
      .Cases("_invalid_parameter_noinfo_noreturn", "__report_gsfailure", "_CxxThrowException",
             true)
      .Default(false);
}

bool isNoReturnWhenStatusNonzeroName(llvm::StringRef name) {
  name = name.split('@').first;
  return name == "error" || name == "error_at_line";
}

namespace {

/// Where calls to the imports and function symbols whose names `matches` go.
std::set<uint64_t> calleesNamed(const Image &image, bool (*matches)(llvm::StringRef)) {
  std::set<uint64_t> callees;
  for (const Import &import : image.imports()) {
    if (!matches(import.name))
      continue;
    callees.insert(import.slotAddress);
    if (import.stubAddress)
      callees.insert(*import.stubAddress);
  }
  for (const Symbol &symbol : image.symbols())
    if (symbol.kind == Symbol::Kind::Function && symbol.address && matches(symbol.name))
      callees.insert(symbol.address);
  return callees;
}

} // namespace

std::set<uint64_t> knownNoReturnCallees(const Image &image) {
  return calleesNamed(image, isKnownNoReturnName);
}

std::set<uint64_t> noReturnWhenStatusNonzeroCallees(const Image &image) {
  return calleesNamed(image, isNoReturnWhenStatusNonzeroName);
}

} // namespace hoist
