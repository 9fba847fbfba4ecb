// Signature inference: which argument registers a lifted function reads before writing them,
// how many of their bits it uses, and whether it returns a value in RAX (and RDX) or XMM0.
//
// A probe function takes every register a caller could pass (the general-purpose registers
// but RSP, the FS/GS bases, XMM0-7) and reports RAX, XMM0, RDX and XMM1 at the return to an
// opaque sink.
// After the brightening fixpoint (State and stack dissolved), a parameter with uses is read
// before written on some path; the bits its users keep give its width; RAX is the result when
// what reaches the sink is no longer the RAX parameter, and RDX a second result beside it when
// what reaches the sink is a value the function put there (not the RDX parameter, nor what a
// call left undefined: ClobberedRdx.h).
#pragma once

#include "Brighten/CallingConvention.h"

#include <llvm/IR/Function.h>
#include <llvm/Support/Error.h>

#include <string>
#include <variant>
#include <vector>

namespace hoist {

/// The lanes of a 128-bit XMM argument or result: __m128, __m128d, __m128i. They all travel
/// in one XMM register; the shape only says what the lanes hold.
enum class VectorShape : uint8_t { None, Float4, Double2, Int2 };

struct Signature {
  struct Argument {
    HoistStateField field;
    unsigned element;      ///< the XMM register number, or the stack slot
    unsigned bits;         ///< integer: 8, 16, 32 or 64, the low bits used; float: 32, 64 or
                           ///< 128 (a vector)
    bool isFloat;          ///< float (32) or double (64) in the XMM register's low lane, or
                           ///< the whole register (128)
    bool onStack = false;  ///< in stack slot `element` above the return address
    bool isPointer = false; ///< 64 bits used as an address: a `ptr` parameter
    VectorShape vector = VectorShape::None; ///< for 128 bits
    /// A function pointer a library function takes (qsort's comparator): the code address
    /// brightened code holds goes through the code-pointer map (CodePointers.h).
    bool isCode = false;
    bool operator==(const Argument &) const = default;
  };
  /// SysV: integer arguments in the convention's order, then floating-point ones (SysV assigns
  /// each class its registers in order, so LLVM's lowering places them back the same way).
  /// Win64: one per position, RCX or XMM0, RDX or XMM1, ... Then the stack arguments, which
  /// LLVM passes in order once the registers are taken.
  std::vector<Argument> arguments;
  unsigned returnBits = 0;           ///< 0: void; else 32 or 64, RAX's low bits (above them zero)
  bool returnsFloat = false;         ///< the result is XMM0's low lane, returnBits 32 or 64, or
                                     ///< all of XMM0 (128)
  VectorShape returnVector = VectorShape::None; ///< for 128 bits
  /// RDX holds a second integer result beside RAX's (SysV returns a 9-16 byte integer struct
  /// or an __int128 in RAX:RDX): the result is `{i64, i64}`. The probe sets it where RAX and
  /// RDX both hold values of the function's own at a return; SecondResult.h decides.
  bool returnsRdx = false;
  /// XMM1 holds a second result beside XMM0's (SysV returns a struct of two SSE eightbytes,
  /// two doubles or `double complex`, in XMM0:XMM1): the result is `{<2 x i64>, <2 x i64>}`,
  /// both registers whole. Set and decided as returnsRdx is.
  bool returnsXmm1 = false;
  /// RAX and XMM0 both hold a result (SysV returns a struct of an INTEGER and an SSE
  /// eightbyte, `{long, double}` or `{double, long}`, in RAX and XMM0): the result is
  /// `{i64, <2 x i64>}`, both registers whole. The probe sets it where the register beside the
  /// first result (RAX beside a floating-point one, XMM0 beside an integer one) holds at a
  /// return a value of the function's own; SecondResult.h decides as for RDX.
  bool returnsMixed = false;
  /// XMM0 holds at every return its entry value or what a call left, and no result is in it: a
  /// typed call leaves the caller's XMM0 as it was, as the machine code does, for a caller
  /// that reads it after the call (`{n, d}` built from a long and a double argument hands d
  /// back in XMM0 untouched).
  bool keepsXmm0 = false;
  /// RDX holds its entry value at every return: a typed call leaves the caller's RDX as it
  /// was, as the machine code does, for a caller that reads it after the call (gcc's
  /// interprocedural register allocation keeps a value in RDX across a call of a function
  /// known not to write it).
  bool keepsRdx = false;
  /// XMM0 is the only register holding a value of the function's own at a return, and that
  /// value looks like SSE scratch (integer data moved through it: a 16-byte vector loaded
  /// with `movdqu`): the result is all of XMM0 (returnBits 128, Int2) where a reader of
  /// the result may exist, else none; SecondResult.h decides.
  bool returnsXmm0IfRead = false;
  /// What a call through a pointer left in RAX and XMM0 reaches a return unchanged in both
  /// (`return hook();`, the hook's prototype unknown): the result is `{i64, <2 x i64>}`, RAX
  /// and XMM0 both (`{i64, i64, <2 x i64>}` with RDX), which a caller expecting either (or
  /// nothing) reads right.
  bool returnsPassedThrough = false;
  /// No path returns to the caller (xalloc_die: error, then abort): the code after a call of
  /// it is unreachable, as the compiler knew.
  bool noReturn = false;
  /// AL is read at entry, as a variadic function's prologue reads it (SysV 3.5.7: the number
  /// of vector registers a variadic call passes): a typed call passes XMMi only where i is
  /// below the caller's AL (zero above, where the ABI says no argument is).
  bool vectorCountInAl = false;
  /// With vectorCountInAl, AL is an argument `i8` in field RAX after the register ones: the
  /// function reads AL otherwise than to decide whether to save XMM0-7 (which it then reads
  /// whole, all eight). Without it, AL is 8 in the brightened function: the prologue saves
  /// every XMM argument register, of which a caller's va_arg reads only those it passed, so
  /// the function takes the C variadic convention's registers and nothing else.
  bool takesAl = false;
  bool operator==(const Signature &) const = default;
};

/// The stack slots `signature` takes: one past the highest slot an argument is in.
unsigned stackSlotsOf(const Signature &signature);

/// The probe's sink: `void (i64 rax, i128 xmm0, i64 rdx, i128 xmm1)`, called at each return.
inline constexpr const char *ProbeSinkName = "__hoist_probe_result";
inline constexpr unsigned ProbeSinkRdxOperand = 2;
inline constexpr unsigned ProbeSinkXmm1Operand = 3;

/// A probe for `flat` (makeFlatCopy), added to the module as "<flat>.probe".
llvm::Expected<llvm::Function *> buildSignatureProbe(llvm::Function &flat,
                                                     CallingConvention convention);

/// Whether `value` is, in a probe, the value register `field` (XMM `element`) had at the
/// probed function's entry: one of the probe's parameters.
bool isProbeEntryValue(const llvm::Value *value, HoistStateField field, unsigned element = 0);

/// A register a result of a signature is returned in, in the order LLVM's x86-64 lowering
/// returns the elements of a struct: integers in RAX then RDX, vectors in XMM0 then XMM1.
struct ResultRegister {
  HoistStateField field;
  unsigned element = 0;
};

/// Where each element of the struct a function of `signature` returns lives (passed through,
/// RAX:RDX, XMM0:XMM1 or RAX and XMM0); empty for a result that is not a struct.
std::vector<ResultRegister> resultRegisters(const Signature &signature);

/// The signature an optimized probe shows, or why the slice declines the function.
/// `isBrightenedEntry` names the original entries of the functions already brightened (a code
/// address in carried data that is one becomes a pointer to it). `raxBitsRead`, asked only for
/// a function that would otherwise decline for a register read, says how many low bits of the
/// result its callers read (raxBitsReadByCallers): a register's garbage above them reaches no
/// reader.
std::variant<Signature, std::string>
readSignatureProbe(llvm::Function &probe, CallingConvention convention,
                   llvm::function_ref<bool(uint64_t)> isBrightenedEntry,
                   llvm::function_ref<unsigned()> raxBitsRead = nullptr);

} // namespace hoist
