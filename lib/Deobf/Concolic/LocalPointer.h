// Whether an address an instruction takes (`lea rdx, [rip+code]`, `mov edx, code` in a
// non-PIE) stays a local pointer: within its function, only the base of reads. A threaded
// VM walks its bytecode that way; if the bytecode is writable data that nothing else writes,
// the address being taken is then no reason to think it written (UnwrittenData.h).
//
// The analysis is flow-insensitive over the function's instructions (a linear sweep from its
// symbol to the next): every general-purpose register that ever receives the pointer, or a
// value computed from it, holds it everywhere. The pointer escapes when
// - an instruction stores through it, stores it, pushes it (other than the save of a
//   callee-saved register that the function pops again), or moves it into a register that
//   is not a general-purpose one;
// - a call, `syscall` or jump out of the function may receive it: it is in an argument
//   register (System V's or Win64's) of a function that calls, or in rax/rdx of one that
//   returns;
// - an indirect jump may leave the function with it in an argument register: one whose
//   target is not only read from the object (through the pointer or at its constant address:
//   the object's code addresses, all inside the function) or a label of the function;
// - an instruction of the function does not decode.
#pragma once

#include "Decode/Instr.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hoist {

struct FunctionCode {
  uint64_t begin = 0, end = 0;
  std::vector<Instr> instructions;
  bool complete = true;   ///< false if some bytes did not decode
};

/// Why the pointer that `function.instructions[taker]` writes (to `object`: [first, second))
/// may escape, or nullopt when it stays local. `targetsStayIn` tells whether every code
/// address the object holds is within [begin, end) (the targets of jumps read from it).
std::optional<std::string>
localPointerEscapes(const FunctionCode &function, size_t taker,
                    std::pair<uint64_t, uint64_t> object,
                    const std::function<bool(uint64_t begin, uint64_t end)> &targetsStayIn);

} // namespace hoist
