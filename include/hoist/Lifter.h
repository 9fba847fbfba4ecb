// Lifting x86-64 functions of an Image to LLVM IR.
//
// A lifted function is `void @<name>(ptr noalias %state, ptr noalias %mem)`, named after the
// image's symbol (liftedFunctionName below) and carrying its entry as `!hoist.entry`: it reads the
// registers it needs from the State (include/hoist/State.h) at entry, keeps them in SSA while it
// runs, and writes them back wherever something outside can observe them. Memory accesses are
// `getelementptr i8, ptr %mem, i64 addr` (with %mem null, addresses are host addresses).
//
// Calls and returns. The stack is the machine's: a call pushes its return address into memory
// and `ret` pops it, as the CPU does, because programs read it.
//   - `ret` writes State back with RIP = the address popped and returns from the LLVM function.
//     No intrinsic is called: whoever called the lifted function finds in State.RIP where the
//     machine goes next. That is the same for a lifted caller and for a runtime that entered
//     the function from outside (it pushed a return address of its own and compares).
//   - A call writes State back (RIP = the callee's entry) and calls
//       `@<callee>(%state, %mem)`         a function Hoist lifts (direct call, constant pointer);
//       `@"import.<name>"(%state, %mem)` a named import (PLT stub, GOT or IAT slot), declared
//                                         external: its implementation performs the call on
//                                         State (arguments by the ABI, pops the return address,
//                                         RIP = that address, results in State);
//       `@__hoist_call(%state, %mem, target)` anything else; the runtime performs the call.
//     Afterwards the caller reads State again and compares State.RIP with its return address:
//     equal, it goes on; otherwise (the callee returned elsewhere) it leaves through
//     `__hoist_jmp(%state, %mem, RIP)` and returns.
//   - A tail call (a jmp to another function's start, or through an import's slot) is a call
//     of that function followed by `ret void`: the callee returns to our caller.
//   - A callee that the module does not lift (takeModule() finishes the module) gets a body
//     that calls `__hoist_call` with its entry and carries the attribute "hoist-not-lifted".
//
// Control that leaves the lifted code otherwise goes through declared intrinsics, each called
// as `void @__hoist_X(ptr %state, ptr %mem, i64 address)` with the State already written back:
//   __hoist_call         a call the lifter could not resolve (see above)
//   __hoist_jmp          a jump the lifter cannot follow (indirect, out of lifted code, or a
//                        callee that did not return to its return address)
//   __hoist_unsupported  an instruction without semantics (a diagnostic says which), or a
//                        case of one that only run-time values reveal (xsave of AVX-512
//                        state); the runtime does the instruction, the code goes on after it
//   __hoist_trap         a fault the instruction raises (ud2, divide error, ...)
// After __hoist_jmp and __hoist_trap the lifted function returns; State.RIP then says where
// the machine is, so a lifted caller's return check passes the unresolved control upwards.
//
// Instruction addresses. Each lifted function has an instruction-to-address map: the first IR
// instruction of each machine instruction, and every call (but LLVM's intrinsics) and
// terminator it added, map to the machine instruction's address; the IR up to the next mapped
// instruction of its block belongs to the same machine instruction. A library user gets it
//   - as a side table, Lifter::instructionAddresses(function): valid while the Lifter lives
//     and until anything changes the function's IR (an optimization deletes instructions, and
//     the table would then name freed ones);
//   - as `!hoist.pc !{i64 address}` metadata on those instructions, which passes carry along:
//     with LiftOptions::pcMetadata, or by calling attachPcMetadata on the side table before
//     changing the IR. liftProgram (include/hoist/Program.h) attaches it when brightening or
//     deobfuscating, which read it.
#pragma once

#include "hoist/Image.h"
#include "hoist/Options.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/IR/Instruction.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>

#include <cstdint>
#include <map>
#include <optional>
#include <memory>
#include <vector>
#include <string>

namespace hoist {

class DiagnosticSink;
struct DiscoveredFunction;

struct LiftStats {
  uint64_t instructionsLifted = 0;
  uint64_t blocks = 0;
  uint64_t functions = 0;
  std::map<std::string, uint64_t> unsupported;   ///< mnemonic -> occurrences
  /// Functions lifted twice because their semantics wrote a register the decoder did not
  /// list (lib/Arch/WrittenVars.h); a speed figure, not an error.
  uint64_t writesMispredicted = 0;
};

/// Adds `from`'s counts to `into` (statistics of lifts done apart: attempts, parallel chunks).
void addLiftStats(LiftStats &into, const LiftStats &from);

/// "fn_401000": the name of the function lifted from `address` when the image has no usable
/// symbol there.
std::string liftedFunctionName(uint64_t address);
/// The name of the function lifted from `address` (docs/CLI.md, "Function names"): the image's
/// symbol there (`classify`); `<symbol>.<hex>` when the symbol is also another address's, an
/// import's, `main` or another name the runtime or Hoist uses; `fn_<hex>` without a symbol or
/// when the symbol is no plain identifier.
std::string liftedFunctionName(const Image &image, uint64_t address);
/// Marks `function` as lifted from `address` (`!hoist.entry`): lifted functions, their
/// declarations and the brightened functions that replace them carry it.
void setEntryAddress(llvm::Function &function, uint64_t address);
/// The address `function` was lifted from (`!hoist.entry`), if it was lifted.
std::optional<uint64_t> entryAddressOf(const llvm::Function &function);
/// Gives the lifted functions of `module` that have a body (those with `!hoist.entry`, but the
/// ones named in `brightened`) internal linkage. They are named after the program's symbols
/// (a static program's `malloc`, an `error` of its own) but take State, not the symbol's
/// arguments: linked as they are, one would stand in for the C library's function of that
/// name. For modules whose own code alone calls them (`hoist translate`, a brightened module),
/// once optimized: local linkage changes what the inliner does, and deletes what nothing calls.
void keepLiftedFunctionsLocal(llvm::Module &module,
                              const std::vector<std::string> &brightened = {});
/// Function::deleteBody, keeping `!hoist.entry`: LLVM drops a function's metadata with its
/// body, and the declaration left is still the lifted function of its entry.
void deleteLiftedBody(llvm::Function &function);

/// One entry of a lifted function's instruction-to-address map (see "Instruction addresses").
struct InstructionAddress {
  llvm::Instruction *instruction;
  uint64_t address;   ///< of the machine instruction the IR instruction was lifted from
};

/// Attaches `!hoist.pc !{i64 address}` to each instruction of `addresses` that has none yet
/// (where the map names an instruction twice, its first entry counts).
void attachPcMetadata(llvm::ArrayRef<InstructionAddress> addresses);

/// The address a `!hoist.pc` tag gives `instruction`, if it has one.
std::optional<uint64_t> pcMetadataOf(const llvm::Instruction &instruction);

class Lifter {
public:
  Lifter(const Image &image, llvm::LLVMContext &context, DiagnosticSink &diagnostics,
         LiftOptions options = {});
  ~Lifter();

  /// Lifts the function starting at `entry` (once; a second request returns the same function).
  /// The functions it calls are declared (liftedFunctionName), not lifted. The LLVM verifier runs when
  /// the module is taken, once for all functions (LiftOptions::verify; with
  /// LiftOptions::verifyEachFunction, here).
  llvm::Expected<llvm::Function *> liftFunction(uint64_t entry);

  /// Runs program discovery (lib/Discover) from `roots`, or from every function start with
  /// `all`, and uses what it finds for the functions lifted from now on: a direct jmp to a
  /// function start is a tail call, a call to a noreturn function ends its block. Returns the
  /// entries of the functions discovery explored (`roots` first).
  std::vector<uint64_t> discover(const std::vector<uint64_t> &roots, bool all);
  /// What discover() found, by entry (empty before it ran): for the stages that look at the
  /// program between discovery and lifting (recognizing library functions, docs/SIGNATURES.md).
  const std::map<uint64_t, DiscoveredFunction> &discoveredFunctions() const;

  /// Lifts every function lifted code calls but that is not lifted yet, and what those call,
  /// until none is left, LiftOptions::maxFunctions is reached or the deadline has passed. A function that fails to lift
  /// is reported as a `lift-failed` error diagnostic and stays a runtime call. Returns how many
  /// functions it lifted.
  uint64_t liftCallees();

  /// Defines every function that is called but not lifted as a call to __hoist_call (see
  /// above). takeModule() does it; module() shows the module before.
  void finishModule();

  /// Uses what `other`'s discover() found (function starts, noreturn callees) for the
  /// functions lifted from now on, without running discovery again: parallel workers, each
  /// with its own LLVMContext, share one discovery this way.
  void adoptDiscovery(const Lifter &other);

  /// The module as it is being lifted, not verified yet.
  llvm::Module &module();
  /// Verifies the module unless LiftOptions::verify is off (a function the verifier rejects,
  /// a Hoist bug, is reported as a `lift-failed` error diagnostic and becomes a runtime call),
  /// finishes it and hands it over.
  std::unique_ptr<llvm::Module> takeModule();
  /// The module verified as takeModule() does, but not finished: functions called but not
  /// lifted stay declarations (liftedFunctionName), so that modules lifted apart link into one
  /// program.
  std::unique_ptr<llvm::Module> takeUnfinishedModule();
  const LiftStats &stats() const;
  const LiftOptions &options() const;

  /// `function`'s instruction-to-address map as it was lifted (see "Instruction addresses"),
  /// in lifting order; empty for a function this Lifter did not lift or whose body it
  /// discarded. Valid until something changes the function's IR.
  llvm::ArrayRef<InstructionAddress> instructionAddresses(const llvm::Function &function) const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace hoist
