// Where a call (or a jmp that leaves its function) goes, when that is known without running it,
// and the LLVM functions lifted code calls for it:
//   - a function Hoist lifts: `void @<name>(ptr %state, ptr %mem)` (a direct call, or a
//     constant pointer: `call [rip+X]` with X read-only, `mov/lea rax, f; call rax`);
//   - a named import: `void @"import.<name>"(ptr %state, ptr %mem)` (through a PLT stub, an
//     IAT or GOT slot, a PE thunk), declared external;
//   - anything else stays with the runtime (__hoist_call, __hoist_jmp).
#pragma once

#include "Decode/Instr.h"
#include "hoist/Image.h"
#include "hoist/Lifter.h"

#include <llvm/IR/Module.h>
#include <llvm/IR/Value.h>

#include <cstdint>
#include <optional>
#include <string>

namespace hoist {

struct CallTarget {
  enum class Kind { Unknown, Lifted, Import };
  Kind kind = Kind::Unknown;
  uint64_t address = 0;             ///< Lifted: the callee's entry; Import: its stub or slot
  bool throughSlot = false;         ///< Import: called through its slot (RIP is the slot's value)
  const Import *import = nullptr;   ///< Import only
};

/// The binary's own definition of `import` (Import::definedAt) when it is code: a call through
/// the import's stub or slot is a call of that function, as it is without interposition.
std::optional<uint64_t> ownDefinition(const Image &image, const Import &import);

/// Resolves the call or jmp `instr`, whose semantic computed the destination `destination`.
/// A call of an import the binary defines itself (a -fPIC library's call of its own export
/// through its PLT) is a call of the definition (Lifted).
CallTarget resolveCallTarget(const Image &image, const Instr &instr, llvm::Value *destination);

/// "import.printf" (ELF), "import.KERNEL32.dll!ExitProcess" (PE: the DLL, then the name or
/// "#ordinal").
std::string importFunctionName(const Import &import);

/// `declare void @"import.X"(ptr, ptr)` with attributes "hoist-import" (the name) and, for PE,
/// "hoist-library" (the DLL); returns the existing declaration on later calls.
llvm::Function *declareImport(llvm::Module &module, const Import &import);

/// The library of an import declared by declareImport, or of a brightened library callee:
/// its "hoist-library" attribute, the DLL of a PE import; empty for an ELF import.
llvm::StringRef importLibrary(const llvm::Function &function);

/// `void @<name>(ptr noalias noundef %state, ptr noalias noundef %mem) !hoist.entry`, named by
/// liftedFunctionName(image, entry), declared if the module does not have it yet.
llvm::Function *declareLiftedFunction(llvm::Module &module, const Image &image, uint64_t entry);
/// The same under the name given (tests that lift without an image).
llvm::Function *declareLiftedFunction(llvm::Module &module, uint64_t entry, const std::string &name);
/// The function of `entry` in `module` that declareLiftedFunction declared, or null.
llvm::Function *findLiftedFunction(const llvm::Module &module, const Image &image, uint64_t entry);

} // namespace hoist
