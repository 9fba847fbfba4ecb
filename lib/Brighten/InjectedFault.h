// A test hook of the differential check (`hoist lift --brighten-check-inject-fault=NAME`,
// docs/BRIGHTEN.md): a brightening made wrong on purpose, so that the tests can show that the
// check declines a brightened function computing something else than its machine code.
#pragma once

#include <llvm/IR/Function.h>

namespace hoist {

/// Makes every return of `function` return a wrong value: an integer or pointer result xor 1,
/// a floating-point one plus 1, each element of a struct so. False for a function returning
/// nothing (nothing was changed).
bool injectWrongResult(llvm::Function &function);

} // namespace hoist
