// The calling conventions brightening targets: which State registers carry arguments and
// results, and how much of the caller's frame a callee may touch above its return address.
#pragma once

#include "Prototypes/LibraryPrototype.h"
#include "hoist/Image.h"
#include "hoist/State.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/IR/CallingConv.h>

#include <optional>

namespace hoist {

// CallingConvention (SysV, Win64) is the prototype table's (Prototypes/LibraryPrototype.h).

/// "sysv" or "win64"; nullopt for anything else.
std::optional<CallingConvention> parseCallingConvention(llvm::StringRef name);
/// SysV for ELF and raw code, Win64 for PE.
CallingConvention defaultCallingConvention(ImageFormat format);
const char *callingConventionName(CallingConvention convention);

/// Integer and pointer argument registers in argument order (SysV: RDI, RSI, RDX, RCX, R8, R9;
/// Win64: RCX, RDX, R8, R9).
llvm::ArrayRef<HoistStateField> integerArgumentRegisters(CallingConvention convention);
/// How many XMM registers carry floating-point arguments (XMM0-7 SysV, XMM0-3 Win64).
unsigned floatArgumentRegisterCount(CallingConvention convention);
/// Bytes above the return address the callee owns: Win64's 32-byte register home area
/// (Microsoft x64 ABI, "Stack allocation"); none for SysV.
unsigned homeAreaBytes(CallingConvention convention);
/// Where stack argument `index` lies relative to the return address: above it and the home
/// area, 8 bytes a slot.
uint64_t stackArgumentOffset(unsigned index, CallingConvention convention);
/// Whether a general-purpose register is callee-saved (SysV: RBX, RBP, R12-R15; Win64 adds
/// RDI and RSI).
bool isCalleeSaved(HoistStateField field, CallingConvention convention);
/// LLVM's calling convention for the brightened function.
llvm::CallingConv::ID llvmCallingConvention(CallingConvention convention);

} // namespace hoist
