// What other tools say about a binary: the truth the image tests compare against.
// llvm-nm and llvm-readobj for symbols, headers, relocations, imports and exports; GNU objdump
// for PLT stubs (LLVM 19's objdump does not name .plt.sec entries).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hoist::test {

/// Runs a shell command and returns its standard output; a failing command fails the test.
std::string runCommand(const std::string &command);

struct NmSymbol {
  uint64_t address;
  char type;   ///< nm's letter: T, t, D, d, B, b, R, r, ...
  std::string name;
};
/// `llvm-nm --defined-only` (with `dynamic`, of the dynamic symbol table).
std::vector<NmSymbol> nmSymbols(const std::string &path, bool dynamic = false);

/// A "Name: value" line of `llvm-readobj <flags>`, value parsed as a number (0x or decimal).
std::optional<uint64_t> readobjField(const std::string &path, const std::string &flags,
                                     const std::string &field);

struct MappedSection {
  std::string name;
  uint64_t size;
  uint64_t address;
};
/// `llvm-objdump -h`: the sections with their sizes and addresses.
std::vector<MappedSection> objdumpSections(const std::string &path);

struct ElfRelocation {
  uint64_t offset;
  std::string type;     ///< "R_X86_64_JUMP_SLOT", ...
  std::string symbol;   ///< without the @version
};
/// `llvm-readelf -r`: every relocation of the dynamic relocation sections.
std::vector<ElfRelocation> elfRelocations(const std::string &path);

/// GNU objdump's `<name@plt>` labels of .plt, .plt.sec and .plt.got: name -> entry address.
std::map<std::string, uint64_t> pltStubs(const std::string &path);

struct CoffImportTable {
  std::string library;
  uint64_t addressTableRva;
  std::vector<std::string> names;   ///< in IAT order
};
/// `llvm-readobj --coff-imports`.
std::vector<CoffImportTable> coffImports(const std::string &path);

struct CoffExport {
  std::string name;
  std::optional<uint64_t> rva;
  std::string forwardedTo;
};
/// `llvm-readobj --coff-exports`.
std::vector<CoffExport> coffExports(const std::string &path);

} // namespace hoist::test
