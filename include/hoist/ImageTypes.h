// What an Image lists: its format, sections, symbols, imports and exports (hoist/Image.h).
// Standard C++ only, so that code compiled apart from LLVM (the Python module's bindings) can
// use them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace hoist {

enum class ImageFormat { Elf, Pe, Raw };
const char *imageFormatName(ImageFormat format);

struct Section {
  std::string name;
  uint64_t address = 0;
  uint64_t size = 0;        ///< size in memory
  uint64_t fileOffset = 0;
  uint64_t fileSize = 0;    ///< bytes backed by the file; the rest of `size` reads as zero
  bool readable = false;
  bool writable = false;
  bool executable = false;
  bool mapped = true;       ///< false for ELF sections without SHF_ALLOC: listed, at no address
};

struct Symbol {
  enum class Kind { Function, Object, Other };
  enum class Source { Static, Dynamic, Coff };
  std::string name;
  uint64_t address = 0;
  uint64_t size = 0;
  Kind kind = Kind::Other;
  Source source = Source::Static;
  /// An ELF IFUNC (STT_GNU_IFUNC): `address` is its resolver's, a function the dynamic linker
  /// calls at load time to choose the implementation (strlen's for the CPU it runs on).
  bool indirect = false;
};

/// An imported function or object. For ELF, `slotAddress` is the GOT slot its relocation fills
/// and `stubAddress` the PLT entry that jumps through it; for PE, `slotAddress` is the IAT slot
/// and `stubAddress` the `jmp *[slot]` thunk a COFF symbol names (mingw), if any.
struct Import {
  std::string name;             ///< symbol name, or "#<ordinal>" for a PE import by ordinal
  std::string library;          ///< DLL name (PE) or empty (ELF does not bind symbols to libraries)
  uint64_t slotAddress = 0;
  std::optional<uint64_t> stubAddress;
  /// ELF: the file's own definition of the symbol, when it defines it. A shared library
  /// built with -fPIC calls its own exported functions through its PLT, so that another
  /// library can interpose them; without interposition the call reaches this address.
  std::optional<uint64_t> definedAt;
  /// ELF: the symbol is an object (STT_OBJECT: `stdout`, a library's exported table), whose
  /// slot holds the object's address rather than a function's.
  bool object = false;
  /// A library function of the image's own code that a signature recognized
  /// (Image::callByName): the library it comes from ("glibc 2.36-9 libc.a"); empty for an
  /// import. `stubAddress` is then its entry and `slotAddress` 0.
  std::string recognizedFrom;
};

/// An ELF executable's copy of a shared library's object (an R_X86_64_COPY relocation):
/// `stdout`, `optind`, `environ` live at `address` in the executable's `.bss`, where the
/// dynamic linker copies them from the library at load time and where the library then uses
/// them too. The file's bytes there are zero: the value is the library's.
struct CopiedObject {
  std::string name;
  uint64_t address = 0;
  uint64_t size = 0;
};

/// A pointer the dynamic linker writes at `slot` with the address of another module's symbol
/// plus `addend` (an R_X86_64_64 relocation against an undefined symbol): a table of library
/// functions, `&stderr` in initialized data. The file's bytes there are not the pointer.
struct SymbolPointer {
  uint64_t slot = 0;
  std::string name;
  int64_t addend = 0;
};

struct Export {
  std::string name;
  uint64_t address = 0;         ///< 0 for a forwarder
  std::string forwarder;        ///< "OTHER.dll.Name" for a PE forwarder, else empty
};

} // namespace hoist
