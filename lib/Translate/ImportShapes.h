// How a translated program calls a library function: what the System V convention lets the
// call read and write. Lifted code says nothing about an import's arguments, so the call must
// pass everything the function could read; the function's prototype in the headers
// (lib/Prototypes, docs/PROTOTYPES.md) lets it pass less.
#pragma once

#include <llvm/ADT/StringRef.h>

namespace hoist {

enum class ImportShape {
  /// Integer and pointer arguments only, all in registers, not variadic, no floating-point
  /// result: rdi..r9 in, rax and rdx out.
  Integer,
  /// Also floating-point or vector arguments and results in XMM registers, still nothing on
  /// the stack (the <math.h> double and float functions, strtod): xmm0..xmm7 in, xmm0 and
  /// xmm1 out.
  Float,
  /// Anything else: all argument registers, al (a variadic callee's vector count), 32 words
  /// of stack arguments, and a `long double` result in st(0) (runtime/trampolines.S).
  Any,
  /// As Any, for a function declared variadic (printf, error, open, ...): the System V
  /// convention (AMD64 ABI 3.5.7) makes al an upper bound on the number of vector registers
  /// the call passes, so with al = 0 none is passed (zeros instead). Most such calls set al to
  /// 0 (`xor eax, eax`), and then the call reads no vector register of State at all.
  Variadic,
};

struct ImportCallShape {
  ImportShape shape = ImportShape::Any;
  /// For Integer and Float: how many of rdi..r9 the function reads. Every register passed is
  /// a guest value the caller must keep until the call, so a loop calling `__ctype_b_loc` (no
  /// argument) per character would otherwise carry rsi..r9 around the loop for nothing; a
  /// callee never reads a register that is not one of its arguments.
  unsigned integerArguments = 6;
};

/// How a call of the imported library function `name` passes its arguments: Integer, Float
/// or Variadic as its prototype in the headers allows, Any for a name no header declares and
/// for prototypes that pass something on the stack or on the x87 stack.
ImportCallShape importCallShape(llvm::StringRef name);

/// Whether the imported library function `name` may run code of the program while it runs: a
/// callback it is given (qsort's comparator), an exit handler (exit), a stream's functions
/// (fopencookie makes any FILE call one)... False only for functions the headers declare
/// `__leaf__` that are given no code (string, memory, character class, <math.h> functions,
/// errno, malloc): a call to one needs not tell the runtime where the guest stack is.
bool importMayCallBack(llvm::StringRef name);

} // namespace hoist
