#include "Translate/Refusals.h"

#include "Support/Error.h"

#include <llvm/ADT/StringRef.h>

#include <map>
#include <set>

namespace hoist {
namespace {

// An import is the evidence: a program that never calls these cannot use the feature (a
// raw syscall could; docs/TRANSLATE.md says so).
constexpr RefusedImport unsupportedImports[] = {
    // pthread_create and thrd_create are the runtime's (runtime/threads.c); clone takes the
    // child's stack and entry from the program, with no thread of the runtime's making.
    {"clone", "threads",
     "clone is not supported (threads made by pthread_create or thrd_create are)"},
    {"vfork", "vfork", "vfork shares the stack of lifted code with the child"},
    {"__cxa_throw", "exceptions", "C++ exceptions are not supported"},
    {"__cxa_rethrow", "exceptions", "C++ exceptions are not supported"},
    {"_Unwind_RaiseException", "exceptions", "C++ exceptions are not supported"},
    {"_Unwind_Resume", "exceptions", "C++ exceptions are not supported"},
    {"getcontext", "contexts", "ucontext switching is not supported"},
    {"setcontext", "contexts", "ucontext switching is not supported"},
    {"makecontext", "contexts", "ucontext switching is not supported"},
    {"swapcontext", "contexts", "ucontext switching is not supported"},
    {"mprotect", "code-generation",
     "self-modifying or run-time generated code is not supported (mprotect can make memory "
     "executable)"},
    {"pkey_mprotect", "code-generation",
     "self-modifying or run-time generated code is not supported"},
};

} // namespace

llvm::ArrayRef<RefusedImport> refusedImports() { return unsupportedImports; }

std::vector<Refusal> unusableInput(const Image &image, const ElfProgram &program) {
  std::vector<Refusal> refusals;
  if (image.format() != ImageFormat::Elf)
    refusals.push_back({"not-elf", "only ELF executables can be translated, not a " +
                                       image.kindDescription()});
  else if (image.isLibrary())
    refusals.push_back({"library", "a shared object is not a program; only executables can be "
                                   "translated"});
  else if (!program.hasInterpreter || !program.hasDynamicSection)
    refusals.push_back({"static", "statically linked executables are not supported; translate "
                                  "needs one linked against shared libraries (glibc)"});
  return refusals;
}

std::vector<Refusal> unsupportedFeatures(const Image &image, const ElfProgram &program) {
  std::vector<Refusal> refusals;
  std::set<std::string> seen;
  for (const Import &import : image.imports())
    for (const RefusedImport &entry : unsupportedImports)
      if (import.name == entry.name && seen.insert(import.name).second)
        refusals.push_back({entry.code, std::string(entry.why) + " (the program imports " +
                                            import.name + ")"});
  // The runtime puts each thread's block where ld put it: right below the thread pointer,
  // which needs its start aligned as the block is (a misaligned start moves the block).
  if (program.threadLocal && program.threadLocal->address % program.threadLocal->alignment)
    refusals.push_back({"tls", "thread-local variables (PT_TLS) whose start is not aligned to "
                               "their alignment are not supported"});
  std::map<uint32_t, uint64_t> unsupportedRelocations;
  for (const DynamicRelocation &relocation : program.relocations)
    if (relocation.kind == DynamicRelocation::Kind::Unsupported)
      unsupportedRelocations.emplace(relocation.type, relocation.address);
  for (auto [type, address] : unsupportedRelocations)
    refusals.push_back({"relocation", "relocation " + relocationTypeName(type) + " (at " +
                                          formatAddress(address) + ") is not supported"});
  return refusals;
}

} // namespace hoist
