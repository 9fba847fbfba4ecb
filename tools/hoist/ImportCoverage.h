// How many of a binary's imports, and of the calls to them, have a prototype from the system
// headers (lib/Prototypes): `hoist stats` reports it per binary and over all of them, the
// figure docs/PROTOTYPES.md gives for Debian's binaries and libraries.
#pragma once

#include "Decode/Instr.h"
#include "hoist/Image.h"

#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace hoist {

class ImportCoverage {
public:
  /// One import name (for PE, with its DLL): whether a header declares it, and the calls and
  /// jumps to it counted.
  struct Name {
    bool declared = false;
    uint64_t callSites = 0;
  };
  using Key = std::pair<std::string, std::string>; ///< (library, name); library empty on ELF

  ImportCoverage() = default;
  explicit ImportCoverage(const Image &image);

  /// Counts `instr` when it calls or jumps to an import: directly to its stub, or through
  /// its slot (`call [rip+slot]`). Count each instruction once.
  void count(const Instr &instr);
  /// Adds another binary's figures: names are merged, call sites summed.
  void add(const ImportCoverage &other);

  uint64_t names() const { return names_.size(); }
  /// Calls of the binary's own exports through its PLT (a -fPIC library's interposable
  /// calls), which are not imports and are not in the other counts.
  uint64_t ownExportCallSites() const { return ownExportCallSites_; }
  uint64_t declaredNames() const;
  uint64_t callSites() const;
  uint64_t declaredCallSites() const;
  /// The imports no header declares, most called first (ties by name).
  std::vector<std::pair<Key, Name>> undeclared() const;

  void print(llvm::raw_ostream &out, size_t undeclaredShown) const;
  llvm::json::Object toJson() const;

private:
  /// Whether `instr` is a PLT entry's or import thunk's own jump through the slot, which is
  /// no call of the program.
  bool isStubJump(const Instr &instr) const;

  /// The library of a key that stands for the binary's own exported function, called through
  /// its PLT (Import::definedAt): counted apart, since no other library is called.
  static constexpr const char *OwnExport = "<own export>";

  std::map<Key, Name> names_;
  uint64_t ownExportCallSites_ = 0;
  std::set<uint64_t> stubs_;
  std::map<uint64_t, Key> byTarget_; ///< stubs and slots
};

} // namespace hoist
