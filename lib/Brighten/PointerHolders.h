// PointerHolders: the data objects of an image without relocations that hold a word the
// linker may have stored as an address (`int *p = &x;` in .data), and the functions that hand
// such an object's address on.
//
// Nothing tells whether such a word is an address or a number, so the recompiled program's
// copy of the data keeps the original value (ImageData.h). A function that reads the word at a
// place it names is checked where it reads (whyReadsUncarriedSlot). A function that hands the
// object's address on (stores it, passes it, returns it) lets code read the word through a
// pointer nothing traces: `int **q = &p; ... **q` follows the original address. So a
// function that hands on a holder's address declines.
#pragma once

#include <llvm/IR/GlobalVariable.h>

#include <cstdint>
#include <optional>
#include <string>

namespace llvm {
class Function;
}

namespace hoist {

class Image;
struct Section;

/// On a section global of an image without relocations: the original address of the global's
/// first byte, then the start and end offsets of each object that holds a possible pointer
/// into data (not into code: a code address is called through the code-pointer map,
/// whatever pointer it was read through).
inline constexpr const char *PointerHoldersMetadata = "hoist.pointer.holders";

/// Records on `global` (carrying `section` from the original address `base`) the objects of
/// `section` holding a possible pointer into data: each is the object symbol around the word,
/// or where no symbol is, the stretch between the symbols before and after it.
void markPointerHolders(llvm::GlobalVariable &global, const Section &section, uint64_t base,
                        const Image &image);

/// Why the simplified `probe` hands on the address of a pointer holder (stores it into
/// memory, passes it to a call, returns it, or reads through it where the read is not traced),
/// or nullopt.
std::optional<std::string> whyHandsOnPointerHolder(const llvm::Function &probe);

} // namespace hoist
