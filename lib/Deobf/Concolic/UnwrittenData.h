// Which bytes of an image's writable data no part of the program can write before a function
// reads them: the proof that lets concolic lifting read such bytes as the file holds them
// (ConcreteMemory.h). Writable data the proof does not cover is symbolic: the program may
// have set it at run time (a `.bss` flag that main sets before calling a VM).
//
// The proof is over objects: an object symbol's bytes, or, where no symbol covers an address,
// the gap between the object symbols around it in its section (the whole section of a
// stripped image). An object may be written when
// - an instruction of the program stores to it at a constant address (`mov [rip+g], 1`), or
//   through a constant base with a register (`mov [table + rax*8], rdx`);
// - its address escapes: an instruction takes it (`lea`, an immediate in a non-PIE) and the
//   pointer does not stay local to the function, only the base of reads (LocalPointer.h), or
//   a pointer in the image's data (relocated) points into it; code given the address may
//   store through it (C's pointer arithmetic stays within an object or one past its end);
// - the loader writes it (a copied library object, a symbolic or opaque relocation).
// The program's instructions are those a linear sweep of its executable sections decodes,
// restarted at every function symbol; code the sweep misses (hidden between junk bytes) is
// seen when the concolic lift stores there (ConcreteMemory reports it and the lift restarts).
#pragma once

#include "Deobf/Concolic/LocalPointer.h"
#include "hoist/Image.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace hoist {

class UnwrittenData {
public:
  explicit UnwrittenData(const Image &image) : image_(image) {}

  /// Why the program may write some of [address, address + size) before a read (the first
  /// reason found, naming the instruction or the pointer), or nullopt when nothing can: no
  /// store of the program reaches those bytes. Only meaningful for writable sections.
  std::optional<std::string> mayBeWritten(uint64_t address, uint64_t size);
  /// A store the lift met at `address` (code the sweep did not decode): the object it writes
  /// is no longer proved unwritten. True when it was.
  bool storeSeen(uint64_t address, uint64_t instructionAddress);

private:
  struct Region {
    uint64_t begin = 0, end = 0;
  };
  /// An instruction that takes the address of writable data, in the function [begin, end).
  struct TakenAddress {
    uint64_t address = 0, taker = 0, begin = 0, end = 0;
  };
  /// Why the pointer `taken` makes may be used to write (nullopt: only read, locally).
  std::optional<std::string> escapes(const TakenAddress &taken);
  void build();
  void collectObjects();
  void sweepCode(const Section &section);
  void scanData(const Section &section);
  /// The object holding `address` (a writable section's), or nullopt outside writable data.
  std::optional<Region> regionAt(uint64_t address) const;
  /// Marks the object at `address` as written, for `reason`; true if it was not yet.
  bool taint(uint64_t address, const std::string &reason);
  /// As taint(); a pointer to an object's end may also be used for the object before it.
  void taintPointer(uint64_t address, const std::string &reason);

  const Image &image_;
  bool built_ = false;
  /// Object symbols in writable data, overlapping ones merged: [begin, end), by begin.
  std::map<uint64_t, uint64_t> objects_;
  /// Region begin -> why it may be written.
  std::map<uint64_t, std::string> written_;
  /// Bytes the loader writes: [begin, end) -> why, by begin.
  std::map<uint64_t, std::pair<uint64_t, std::string>> loaderWritten_;
  /// Addresses taken, decided after the sweep; the functions decoded for them, by begin.
  std::vector<TakenAddress> taken_;
  /// Addresses of the toolchain's end markers (__TMC_END__), no pointers past an object.
  std::set<uint64_t> toolchainEnds_;
  std::map<uint64_t, FunctionCode> functions_;
};

} // namespace hoist
