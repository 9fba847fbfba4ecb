// ImageData: accesses to the binary's own data at its original addresses, which mean nothing
// in the process the brightened function is linked into.
//
// Each data section the code touches becomes a global carrying the section's bytes
// (`@"image.<section>"`, zero past the file's): a read-only one constant, a writable one
// (`.data`, `.bss`) a variable that starts with the original values, so a counter or a table
// updated in place keeps its state from call to call as the original's does. An `inttoptr`
// whose address is a constant inside such a section plus any offset becomes a gep into its
// global; ImageReferences.h turns the addresses code computes as integers (and hands out:
// stores, passes, returns) into `ptrtoint` of such geps beforehand. Other
// sections (code, the GOT, the PE import table, slots the loader fills with what the image
// cannot tell) hold what only the original process has: a function touching them gets the
// attribute "hoist-image-data" with the address, and brightening declines it. The pointers an
// ELF's dynamic relocations or a PE's base relocations write into carried data (`.data`,
// `.data.rel.ro`, `.rdata`) are the recompiled program's own: into the globals, or to a
// library's symbol by name; a code address stays the original's integer (a jump table's), as
// the lifted code compares it.
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/Constant.h>
#include <llvm/IR/ConstantRange.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/PassManager.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hoist {

class Image;
struct Section;

inline constexpr const char *ImageDataAttribute = "hoist-image-data";
/// The code addresses a function hands on as values ("0x401000,0x401080"): brightening
/// declines it if one survives simplification (listedAddressSurvives).
inline constexpr const char *CodeAddressAttribute = "hoist-code-addresses";
/// The addresses of memory the recompiled program does not carry (`.data.rel.ro`, the GOT) a
/// function hands on as values: like code addresses, they decline it only if one survives
/// simplification (a VM's handler table left in a dead register does not).
inline constexpr const char *UncarriedAddressAttribute = "hoist-uncarried-addresses";
/// Values a position-independent function both names as addresses and holds as an immediate
/// of an instruction the IR does not tag (ImageReferenceSites::ambiguous): left as numbers,
/// they decline it if one survives simplification, since a use could be either.
inline constexpr const char *AmbiguousAddressAttribute = "hoist-ambiguous-addresses";

/// Adds `address` to `function`'s list of addresses `attribute` (CodeAddressAttribute,
/// UncarriedAddressAttribute or AmbiguousAddressAttribute).
void addListedAddress(llvm::Function &function, const char *attribute, uint64_t address);

/// The first address of `function`'s list `attribute` still used in its body (as a 64-bit
/// constant or its low 32 bits), or nullopt.
std::optional<uint64_t> listedAddressSurvives(const llvm::Function &function,
                                              const char *attribute);

class ImageDataPass : public llvm::PassInfoMixin<ImageDataPass> {
public:
  explicit ImageDataPass(const Image &image) : image_(image) {}
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);

private:
  /// A pointer to `address` in its section's global, or null (not image memory, or memory
  /// the function may not take along: then the attribute is set).
  llvm::Constant *imagePointer(llvm::Function &function, uint64_t address) const;

  const Image &image_;
};

/// A pointer to `address` in its section's global (created on first use), or null when the
/// address is in no section brightened code carries. An address one past a section's end that
/// no section holds is a pointer one past the end of that section's global (addressedSection).
llvm::Constant *imageDataPointer(llvm::Module &module, const Image &image, uint64_t address);

/// The section an address points into: the one holding it, or else the one it is one past
/// the end of (Image::sectionEndingAt: `&array[n]` for the section's last object, a loop's
/// bound, which the recompiled program must find at the end of that section's global).
const Section *addressedSection(const Image &image, uint64_t address);

/// Whether brightened code carries `section` (of `image`) as a global (writable: a variable).
bool isCarriedDataSection(const Image &image, const Section &section);

/// On a section global of an image without relocations: the section's address, then the
/// offsets of its possible pointers (Image::possiblePointers).
inline constexpr const char *PossiblePointersMetadata = "hoist.possible.pointers";
/// On a section global: the section's address, then the offsets of the slots that keep an
/// original address the recompiled program does not have (code, the GOT).
inline constexpr const char *OriginalAddressesMetadata = "hoist.original.addresses";

/// The global `pointer` points into and the offsets it may have there (geps with constant and
/// variable indices, each variable bounded by what ValueTracking knows of it), or nullopt.
std::optional<std::pair<const llvm::GlobalVariable *, llvm::ConstantRange>>
offsetsInto(const llvm::Value *pointer, const llvm::DataLayout &layout);

/// Lists on `function` (CodeAddressAttribute, UncarriedAddressAttribute) the original
/// addresses the data `pointer` points into keeps: a load the optimizer folds to one that
/// survives simplification declines the function, as a code address it computed would.
void listOriginalAddresses(llvm::Function &function, const Image &image,
                           const llvm::Constant *pointer);

/// Why the simplified `probe` may read from carried data what the recompiled program does not
/// have, or nullopt: an original code address used as anything but a jump's target
/// (compared with the targets the lifter resolved), or in an image without relocations a
/// value that may be an address the linker stored; at a place the optimizer could not fold (a
/// variable offset, writable data).
/// (A value folded at a known place is an address only where the code uses it as one, and
/// ImageDataPass makes those pointers.) A slot holding the entry of a function
/// `isBrightenedEntry` names is no such value: it will point at the brightened function.
std::optional<std::string>
whyReadsUncarriedSlot(const llvm::Function &probe,
                      llvm::function_ref<bool(uint64_t)> isBrightenedEntry);

/// The code addresses the loader writes into carried data (the handlers in a table of function
/// pointers), sorted and unique: brightening takes the functions there first, so that a slot
/// holding one is known to point at a brightened function when its readers are brightened.
std::vector<uint64_t> codeAddressesInCarriedData(const Image &image);

/// Points the code-address slots of the carried data in `module` (pointer fields holding an
/// original code address) at the brightened function of `functions` (by original address) the
/// slot holds the entry of, so that a library given the data calls the brightened function,
/// and brightened code compares the same pointers it stored. Returns, per global, the code
/// addresses of slots that stay the original's (a function not brightened, a label).
struct UnmappedSlots {
  const llvm::GlobalVariable *global;
  std::vector<uint64_t> targets;
};
std::vector<UnmappedSlots>
pointSlotsAtFunctions(llvm::Module &module, const Image &image,
                      const std::map<uint64_t, llvm::Function *> &functions);
/// Undoes pointSlotsAtFunctions for `function`, brightened from `address` and then declined:
/// its slots hold the original address again.
void unpointSlots(llvm::Module &module, const Image &image, llvm::Function &function,
                  uint64_t address);

/// Makes `module`'s section globals of a position-dependent ELF `image` keep their original
/// addresses (BrightenOutput::dataAtOriginalAddresses): each in the section
/// `.hoist.data.<hex address>`, with no possible-pointer or holder marks. Before any is made.
void keepDataAtOriginalAddresses(llvm::Module &module, const Image &image);
/// The section that holds a carried global whose original address is `address`, in that mode.
std::string originalAddressSection(uint64_t address);

/// The original address of the first byte of `global` if it is a section global (the run of
/// carried sections named after its first, starting at globalStart), else nullopt. A
/// recompiled program, which maps the original image, refers to that memory instead
/// (lib/Translate/BrightenedHalf.h).
std::optional<uint64_t> carriedGlobalAddress(const llvm::GlobalVariable &global,
                                             const Image &image);

/// Names the image's data objects (`counter`, `table`) inside the section globals of `module`:
/// an external alias per symbol, so that a program linked with the brightened functions can
/// read the state they keep (their copy of the original's globals).
void defineImageDataSymbols(llvm::Module &module, const Image &image);

} // namespace hoist
