// The order in which brightening takes a module's lifted functions. A function is brightened
// after the functions it calls (their signatures type its calls) and after the functions whose
// entry address it holds (a handler it installs, a hook it stores): such an address becomes a
// pointer to the brightened function, which must then be known, or the address stays the
// original's and declines the holder.
#pragma once

#include <llvm/IR/Function.h>
#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/Module.h>

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace hoist {

/// The lifted functions (by entry address) in groups: the strongly connected components of
/// calls and code references, each after the components it reaches. A code reference is a
/// 64-bit constant equal to another lifted function's entry, or naming a slot whose content
/// `slotTarget` gives as one (a GOT slot the loader fills with a function's address). The
/// functions at `first` (entries held in data, whose readers cannot name them: `ops[i]` over a
/// table of handlers) and all they reach come before the others.
std::vector<std::vector<llvm::Function *>>
brighteningOrder(llvm::Module &module, const std::map<uint64_t, llvm::Function *> &lifted,
                 llvm::function_ref<std::optional<uint64_t>(uint64_t)> slotTarget,
                 llvm::ArrayRef<uint64_t> first = {});

} // namespace hoist
