// Tail calls that only the layout of the code shows, for functions without unwind tables: a
// direct jmp after the caller's epilogue to a function that nothing else reaches, laid out right
// after the caller. The compiler's own jumps inside a function look the same but for where the
// frame is and where the target lies. And which functions a start found late makes explore
// again: those that jump across it or ran on into it, which it shows to leave for it.
#pragma once

#include "Discover/FunctionDiscovery.h"
#include "hoist/Image.h"

#include <cstdint>
#include <set>

namespace hoist {

/// Whether `jmp` goes to the address right after it with the function's frame gone (rsp where
/// it was at the entry, on every way there): a tail call to the function laid out next, as
/// clang-13 to 15 -O2 end findutils' `gnu_mbswidth` (`pop rbp; jmp mbsnwidth`, no padding
/// between; nothing else calls `mbsnwidth`), and at clang-13 -Os find's `find_parser` (`jmp
/// found_parser`). A compiler jumps to its own next block only at -O0, inside the frame it set
/// up (`push rbp`).
bool tailCallsNext(const Image &image, const DiscoveredFunction &function, const Instr &jmp,
                   uint64_t target);

/// Whether every jump of `function` to `target` is made from code laid out before it, with the
/// function's frame gone (rsp where it was at the entry). With a jmp over nothing but filler
/// to it, several such jumps are tail calls to the function laid out next, as clang-19 -O3 ends
/// sed's `read_pattern_space` (three `pop rbx; jmp last_file_with_data_p`, the last over
/// padding; nothing else calls it). A loop head that a jmp over padding enters is reached from
/// its body too, which lies after it.
bool jumpedToOnlyFromAboveWithFrameGone(const Image &image, const DiscoveredFunction &function,
                                        uint64_t target);

/// Whether `jmp`, the only way to `target`, jumps forward over the function's last blocks to the
/// address right after all the code the function reaches without it, right after tearing down
/// a frame (a pop or `add rsp` in its block; rsp where it was at the entry on every way there):
/// a tail call to the function laid out next, over its caller's last blocks, as clang-19 -Os
/// ends find's `find_parser` (`pop rbx; ...; jmp found_parser` over its `return NULL` block;
/// nothing else calls `found_parser`, nothing is aligned). A function's own code after such a
/// jmp would have been laid out in its place: the jmp would not be needed.
bool tailCallsPastOwnCode(const Image &image, const DiscoveredFunction &function, uint64_t jmpBlock,
                          const Instr &jmp, uint64_t target);

/// Whether a direct branch of `function` crosses one of `newStarts` (jumps from one side of it
/// to the other) and no other start of `starts` but the function's entry: once such an address
/// starts a function, the branch leaves for another function (a function's body is contiguous
/// but for its parts). A branch that crossed a start already (to a part, gcc's `.cold`) was
/// weighed as leaving when the function was explored. `starts` holds `newStarts`.
bool branchFirstCrosses(const ExploredFunction &function, const std::set<uint64_t> &newStarts,
                        const std::set<uint64_t> &starts);

/// Whether one of `addresses` lies inside a block of `function` (past the block's start): the
/// function ran on into what is now another function's start.
bool holdsInsideABlock(const ExploredFunction &function, const std::set<uint64_t> &addresses);

} // namespace hoist
