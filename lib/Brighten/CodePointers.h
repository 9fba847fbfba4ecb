// Code addresses in brightened code. Brightened code holds a code address as the original
// program's integer, wherever it comes from (a carried data slot, `lea`, an argument), because
// lifted code compares jump targets with those integers. A call through one (emitPointerCall,
// CallShim.h) asks @__hoist_code_pointer for what the recompiled program calls:
// - the address of a brightened function is that function;
// - an address outside the image is a pointer the recompiled process made (a callback a library
//   passed, dlsym's result), called as it is;
// - any other address of the image has no function to call in the recompiled program (a
//   function brightening declined, a PLT stub): the call traps there instead of jumping into
//   memory that holds something else.
#pragma once

#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace hoist {

class Image;

/// `ptr (i64 address)`: the code pointer for a code address brightened code holds.
inline constexpr const char *CodePointerName = "__hoist_code_pointer";

/// Whether `user` is a call of the code-pointer map.
bool isCodePointerMapping(const llvm::User &user);

/// A function whose address (`ptrtoint`, ImageReferences.h) `probe` computes with rather than
/// hands on or compares: its distance to another address is the original's no more.
const llvm::Function *computesWithFunctionAddress(const llvm::Function &probe);

/// The map's declaration in `module`: it reads no memory, so that it does not keep stores alive.
llvm::FunctionCallee codePointerMap(llvm::Module &module);

/// A constant code address brightened code holds that is no brightened function's: a call
/// through it, or a library calling it back, traps.
struct UnmappedCodeAddress {
  const llvm::Function *user;
  uint64_t address;
};

/// Defines the map in `module` if brightened code calls it, for the brightened `functions`
/// of `image` by original address (the map pointSlotsAtFunctions takes too); a call with a
/// constant address of one of them becomes that function. Returns the constant addresses that
/// are none of them.
std::vector<UnmappedCodeAddress>
defineCodePointerMap(llvm::Module &module, const Image &image,
                     const std::map<uint64_t, llvm::Function *> &functions);

} // namespace hoist
