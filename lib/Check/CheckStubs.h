// What the differential check (BrightenCheck.h) adds to the two modules it runs: a body for
// every function they declare, and the entry points it calls.
//
// Both runs call the same imports; each import becomes a stub that records the call (its
// integer, pointer and floating-point arguments, TrialRuntime.h) and returns a value derived
// from them, so that two runs that call alike are answered alike. In the brightened module
// the import's declaration `i64 @strlen(ptr)` gets the body; in the lifted one
// `@"import.strlen"(ptr %state, ptr %mem)` does, reading the arguments from State by the
// prototype the brightened module declares. Hoist's intrinsics (`__hoist_trap`,
// `__hoist_syscall`, ...) end the trial: as a fault, or with no verdict.
#pragma once

#include <llvm/IR/Module.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace hoist::check {

/// What a stub knows of an import, from its declaration in the brightened module.
struct ImportPrototype {
  std::string name;
  /// The width of each integer (pointer: 64) argument, in order; a run's register is masked
  /// to it, as the callee reads only those bits.
  std::vector<unsigned> integerBits;
  /// The width of each float (32) and double (64) argument, in order.
  std::vector<unsigned> floatBits;
  enum class Result : uint8_t { Void, Integer, Pointer, Float, Double } result = Result::Void;
  unsigned resultBits = 64; ///< of an Integer result
  /// memcpy, memmove, memset, mempcpy (and their _chk forms): the stub does the operation, as
  /// code generation may call them for its own copies; such calls are not recorded.
  bool performs = false;
  /// Declared `noreturn` (exit, abort, __stack_chk_fail): the call ends the run, recorded.
  bool noReturn = false;
};

/// The imports of both modules, indexed by the id their stubs pass.
struct ImportTable {
  std::vector<ImportPrototype> imports;
  std::map<std::string, unsigned> idByName;
  /// The id of `name`, added with `prototype` if new.
  unsigned idOf(const std::string &name, const ImportPrototype &prototype);
};

/// The intrinsics a stub may end a trial for, by the code it passes.
enum class IntrinsicEnd : uint64_t { Fault, UnresolvedJump, NoVerdict };

/// Gives every function `brightened` declares (but LLVM's intrinsics) a stub body, and
/// defines the globals it declares as zeroes, but those named in `shared` (objects the image
/// holds a copy of, which the check places in the lifted run's memory).
void addBrightenedStubs(llvm::Module &brightened, ImportTable &imports,
                        const std::set<std::string> &shared);

/// Gives every function `lifted` declares a stub body: imports (`import.X`) read their
/// arguments from State by the prototype of X in `imports` (six integers and an integer result
/// when the brightened module does not declare X); intrinsics end the trial.
void addLiftedStubs(llvm::Module &lifted, ImportTable &imports);

/// Adds `void @<thunk>(ptr %arguments, ptr %result)` to `function`'s module: it calls
/// `function` with its parameters read from 16-byte slots of `arguments` (the low bytes of
/// each) and stores what it returns at `result` (a struct's elements in 16-byte slots).
void addCallThunk(llvm::Function &function, llvm::StringRef thunk);

/// Adds `void @<entry>(ptr %state, ptr %mem)` that calls the lifted `function`: an external
/// name for a function the module may keep internal.
void addEntryThunk(llvm::Function &function, llvm::StringRef entry);

/// Adds the external `@<table>` = [N x {ptr, i64}]: each global named `image.<section>` in
/// `module` (ImageData.h) and its size; returns the section names, in the table's order.
std::vector<std::string> addCarriedSectionTable(llvm::Module &module, llvm::StringRef table);

} // namespace hoist::check
