// Import slots (the ELF GOT, the PE import address table) in brightened code.
//
// In the original process a slot holds its import's address, written by the loader; lifted
// code reads it to call through it (`call [rip+__imp_X]` sets RIP to it; `mov rbx, [__imp_X]`
// ... `call rbx`; `call *puts@GOTPCREL(%rip)`). Brightened code does not have the slot's
// memory: there the load becomes the address of the lifted code's declaration of the import
// (`ptrtoint @"import.X"`), so that the slot is not read, an entry RIP set from it dies, and a
// call through a register holding it is recognized as a call of the import
// (IndirectCalls.h). Once brightening is done the address that is left (an import passed as a
// function pointer) is that of the import's own prototyped declaration (`@X`).
#pragma once

#include "Brighten/CallingConvention.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace hoist {

class Image;

/// Replaces each load of a function import's slot in `function` (`load i64, ptr inttoptr
/// (i64 slot)`, or its low 32 bits) by the address of the import's lifted declaration. Only
/// imports with a known or inferred prototype (ImportPrototypes.h, InferredImports.h) are
/// functions for certain: the slots of the others stay and brightening declines, unless
/// `unknownPrototypesToo` (a resolution probe, which only asks what calls call). The load of
/// an imported object's slot (`stdout`, a library's own exported table) becomes the address of
/// the object by name, which the recompiled program's loader binds. Returns whether anything
/// changed.
bool replaceImportSlotLoads(llvm::Function &function, const Image &image,
                            bool unknownPrototypesToo = false);

/// The slot `load` reads: the constant address its pointer is cast from (`inttoptr`, as an
/// instruction or a constant expression); nullopt for any other pointer.
std::optional<uint64_t> loadedSlot(const llvm::LoadInst &load);

/// Replaces each load by what its slot holds, and drops the slot's address cast left without
/// uses: it would read as an access of the slot (ImageReferences.h).
void replaceSlotLoads(llvm::ArrayRef<std::pair<llvm::LoadInst *, llvm::Constant *>> loads);

/// Whether the lifted function `lifted` reads an import's slot (`gep i8, %mem, slot`).
bool readsImportSlot(const llvm::Function &lifted, const Image &image);

/// The lifted declaration of the import whose address `value` is (`ptrtoint @"import.X"`,
/// possibly truncated), or null.
llvm::Function *importAddressed(llvm::Value *value);

/// Replaces every use of an import's lifted declaration other than a call of it (an address
/// replaceImportSlotLoads left in brightened code) by its declaration with the C prototype,
/// called in `convention` (CallShim.h's libraryCallee).
void nameImportAddresses(llvm::Module &module, CallingConvention convention);

} // namespace hoist
