// The part of a translated module that the runtime (runtime/) reads, `hoist_program`
// (runtime/HoistProgram.h):
// the original image's segments, its relocations, its init and fini functions, and the table
// from original function addresses to lifted code.
#pragma once

#include "Translate/ElfProgram.h"
#include "hoist/Image.h"

#include <llvm/IR/Module.h>

namespace hoist {

struct ProgramTablesReport {
  uint64_t functions = 0;          ///< lifted functions in the table
  uint64_t patchableEntries = 0;   ///< with room for the 5-byte jump to lifted code
};

/// Emits `hoist_program` for the lifted functions of `module` (and the imports' PLT stubs).
ProgramTablesReport emitProgramTables(llvm::Module &module, const Image &image,
                                      const ElfProgram &program, llvm::StringRef fileBytes);

} // namespace hoist
