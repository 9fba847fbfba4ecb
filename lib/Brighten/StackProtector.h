// The stack protector as brightening meets it: gcc and clang (-fstack-protector*, Debian's
// default) copy the guard from %fs:0x28 into the frame at entry and compare it before
// returning, calling the never-returning __stack_chk_fail when it differs. The guard lives in
// the thread control block, whose first word is the thread pointer itself (x86-64 TLS ABI),
// so a brightened function reaches the same guard through its own thread pointer.
#pragma once

#include "hoist/State.h"

#include <llvm/IR/Argument.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>

namespace hoist {

class Image;

/// Whether the probe's FS base parameter is used only to load the guard at %fs:0x28. Any other
/// offset is the binary's own thread-local storage, whose layout the recompiled program does
/// not share, and declines.
bool readsOnlyTheStackGuard(const llvm::Argument &fsBase);

/// Whether `load` reads the guard at %fs:0x28 through the thread pointer loadThreadPointer()
/// gives a brightened function.
bool loadsTheThreadsStackGuard(const llvm::LoadInst &load);

/// The thread pointer (%fs:0 through LLVM's X86 FS address space), which stands for the FS
/// base in a brightened function.
llvm::Value *loadThreadPointer(llvm::IRBuilder<> &builder);

/// Whether the lifted function checks the guard in `field`, RAX or RDX (gcc -O0's epilogue
/// `sub rax, fs:[0x28]` leaves RAX zero on the way out, clang -O0's `mov rax, fs:[0x28]` the
/// guard; gcc -O2 checks in RDX): the compiler chose the register as scratch there, so it
/// holds no result.
bool checksTheStackGuardIn(const llvm::Function &lifted, const Image &image,
                           HoistStateField field);

/// Whether `value`, what RAX or RDX holds at a return of a probe whose FS base parameter is `fsBase`,
/// is what a guard check leaves there: zero, the guard, or the saved copy minus (or xor) the
/// guard.
bool isLeftByTheGuardCheck(const llvm::Value *value, const llvm::Argument &fsBase);

/// The attributes that carry checksTheStackGuardIn from a lifted function to its probe.
inline constexpr const char *GuardCheckInRaxAttribute = "hoist-stack-guard-in-rax";
inline constexpr const char *GuardCheckInRdxAttribute = "hoist-stack-guard-in-rdx";

} // namespace hoist
