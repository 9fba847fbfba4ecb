// ImageReferences: addresses of the image's data that lifted code computes as integers.
//
// In the lifted IR an address the code computes (`lea rax, [rip+buffer]`) is an integer
// constant like any other, and brightened code must hand out its global's address instead
// (ImageData.h). The constants are replaced in the flat copy, before the optimizer folds an
// address into arithmetic with the original value (gcc -O2 computes `c + i` as the low byte of
// `buffer + i` minus that of `buffer`). In a position-independent image at base 0, data
// addresses are small numbers (0x4060) that an integer constant could equal, so a constant is
// taken for an address only if the function's machine instructions address its section (a
// RIP-relative operand; absolute displacements and immediates too in other images) and it
// is used as an address is: stored, passed, returned, merged by a phi or select, compared,
// added to or subtracted from, cast to a pointer. Multiplied, shifted or masked, it is a number.
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/Function.h>

#include <cstdint>
#include <map>
#include <set>

namespace hoist {

class Image;

/// What `lifted`'s machine instructions address: the start addresses of the sections, and the
/// code addresses themselves (a `lea` of a function).
struct ImageReferenceSites {
  std::set<uint64_t> sections;
  std::set<uint64_t> codeAddresses;
  /// In a position-independent image: the displacements of memory operands with a base or
  /// index register and the immediates that name no RIP-relative address of the function.
  /// Such a constant is a number (a field's offset: bzip2's `s + 0xfa24` lies inside the
  /// library's .rodata at base 0), even where the section holding that value is addressed.
  std::set<uint64_t> numbers;
  /// In a position-independent image: the same numbers of each tagged instruction alone, by
  /// its address (`hoist.pc`). The value an instruction's own immediate gives is a number even
  /// where another instruction names it as an address.
  std::map<uint64_t, std::set<uint64_t>> numbersAt;
  /// The exact addresses RIP-relative operands (or, outside position-independent code,
  /// absolute ones) name: the only values a vector constant's lane is taken for as an address.
  std::set<uint64_t> named;
  /// In a position-independent image: named addresses that are also the immediate of an
  /// instruction that leaves no IR of its own (`mov $0x533c, %esi` beside `movzwl
  /// 0x533c(%rip)`), so numbersAt cannot tell which constant is which.
  std::set<uint64_t> ambiguous;
};
ImageReferenceSites imageReferenceSites(const llvm::Function &lifted, const Image &image);

/// Replaces in `flat` (the flat copy of a lifted function, not yet optimized) the integer
/// constants that are addresses inside `sites.sections` by `ptrtoint` of the pointer into their
/// section's global (truncated for a 32-bit constant, the low half of an address). A 64-bit
/// constant that an instruction names (`sites.codeAddresses`) and that is the entry of a
/// function `functionAt` knows becomes `ptrtoint` of that
/// function where code hands the address on as it is (stores, passes, returns, merges or
/// compares it). Any other address in a section brightened code cannot carry (code, the GOT)
/// is listed on `flat` (CodeAddressAttribute, UncarriedAddressAttribute), for the probe to
/// decline the function if it survives. A load of a GOT slot that the loader fills with an
/// address of the image (R_X86_64_RELATIVE) is first that address, as exactly named as the
/// slot. A vector constant (the lifter folds `lea table(%rip), %rdx; movq %rdx, %xmm1` into
/// one) has each 64-bit lane that is exactly an address of `sites.named` replaced the same
/// way. A constant of `sites.ambiguous` is left as it is and listed (AmbiguousAddressAttribute),
/// for the probe to decline the function if it survives. Returns whether anything changed.
bool rewriteImageAddresses(llvm::Function &flat, const ImageReferenceSites &sites,
                           const Image &image,
                           llvm::function_ref<llvm::Function *(uint64_t)> functionAt);

} // namespace hoist
