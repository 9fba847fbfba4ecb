// What a translated program's runtime needs from the original ELF file beyond what Image
// offers: the loadable segments, the dynamic relocations with their symbols, the libraries it
// needs, its init and fini functions, and the features translation cannot run (TLS, ...).
#pragma once

#include <llvm/Support/Error.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hoist {

struct LoadSegment {
  uint64_t address = 0;      ///< biased
  uint64_t memorySize = 0;
  uint64_t fileOffset = 0;
  uint64_t fileSize = 0;
  bool readable = false, writable = false, executable = false;
};

/// The program's thread-local variables (PT_TLS): their initial image in the loaded image and
/// the block each thread gets, right below its thread pointer (x86-64 ABI, TLS variant II).
struct ThreadLocalSegment {
  uint64_t address = 0;      ///< biased: the initial image (.tdata), inside a PT_LOAD
  uint64_t fileSize = 0;     ///< bytes of the image; the rest of the block is zero (.tbss)
  uint64_t memorySize = 0;
  uint64_t alignment = 1;
  /// Where the block starts below the thread pointer, as ld and ld.so agree for the
  /// executable's own block: its size rounded up to its alignment.
  uint64_t offsetBelowThreadPointer() const {
    return (memorySize + alignment - 1) / alignment * alignment;
  }
};

struct DynamicRelocation {
  /// ThreadPointerOffset: TPOFF64 against a library's thread-local variable.
  enum class Kind { Value, Symbol, Copy, Irelative, ThreadPointerOffset, Unsupported };
  Kind kind = Kind::Unsupported;
  uint32_t type = 0;         ///< R_X86_64_*
  uint64_t address = 0;      ///< biased
  /// Value: what to store; Symbol and ThreadPointerOffset: the addend; Copy: the size;
  /// Irelative: the resolver.
  uint64_t value = 0;
  std::string symbol;
  std::string version;       ///< empty: unversioned or local
  bool weak = false;
};

struct ElfProgram {
  std::vector<LoadSegment> segments;
  std::vector<DynamicRelocation> relocations;
  std::vector<std::string> neededLibraries;   ///< DT_NEEDED, in order
  bool hasInterpreter = false;
  std::optional<ThreadLocalSegment> threadLocal;
  bool hasDynamicSection = false;
  uint64_t preinitArray = 0, preinitCount = 0;
  uint64_t init = 0, initArray = 0, initCount = 0;
  uint64_t fini = 0, finiArray = 0, finiCount = 0;

  /// The relocation the loader applies at `address` first; null when none does (a loader
  /// applies at most one per slot in the files compilers and linkers produce).
  const DynamicRelocation *relocationAt(uint64_t address) const;
  /// The function a relocated pointer at `address` will hold, if a Value relocation sets it.
  std::optional<uint64_t> relocatedPointerAt(uint64_t address) const;
  /// Whether the runtime fills the pointer at `address` with a non-null value before any
  /// lifted code runs: a symbol of the image, or a library symbol that is not weak (the
  /// runtime ends the program at start when no library defines one).
  bool filledBeforeStart(uint64_t address) const;
};

/// Reads `bytes` (an x86-64 ELF executable already accepted by Image) as loaded at `bias`.
llvm::Expected<ElfProgram> readElfProgram(llvm::StringRef bytes, uint64_t bias);

/// "R_X86_64_TPOFF64" for a relocation type.
std::string relocationTypeName(uint32_t type);

} // namespace hoist
