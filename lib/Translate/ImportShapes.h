// How a translated program calls a library function: what the System V convention lets the
// call read and write. Lifted code says nothing about an import's arguments, so the call must
// pass everything the function could read; knowing the function lets it pass less.
#pragma once

#include <llvm/ADT/StringRef.h>

namespace hoist {

enum class ImportShape {
  /// Integer and pointer arguments only, at most six (all in registers), not variadic, no
  /// floating-point result: rdi..r9 in, rax and rdx out.
  Integer,
  /// Also floating-point arguments and results in XMM registers, still nothing on the stack
  /// (the <math.h> double and float functions, strtod): xmm0..xmm7 in, xmm0 and xmm1 out.
  Float,
  /// Anything else: all argument registers, al (a variadic callee's vector count), 32 words
  /// of stack arguments, and a `long double` result in st(0) (runtime/trampolines.S).
  Any,
  /// As Any, for a function known to be variadic (printf, error, ...): the System V
  /// convention (AMD64 ABI 3.5.7) makes al an upper bound on the number of vector registers
  /// the call passes, so with al = 0 none is passed (zeros instead). Most such calls set al to
  /// 0 (`xor eax, eax`), and then the call reads no vector register of State at all.
  Variadic,
};

/// The shape of the library function `name`: Integer, Float or Variadic only for functions
/// known to fit (a table of glibc's), Any for every other name.
ImportShape importShape(llvm::StringRef name);

/// Whether the library function `name` may run code of the program while it runs: a callback
/// it is given (qsort's comparator), an exit handler (exit), a stream's functions
/// (fopencookie makes any FILE call one)... False only for glibc functions known never to
/// (string, memory, character class, multibyte and <math.h> functions, errno, malloc):
/// a call to one needs not tell the runtime where the guest stack is.
bool importMayCallBack(llvm::StringRef name);

} // namespace hoist
