// A resolved jump table: an indirect jmp whose targets are read from a table in the image.
#pragma once

#include <Zydis/Zydis.h>

#include <cstdint>
#include <map>
#include <vector>

namespace hoist {

struct JumpTable {
  enum class Shape : uint8_t {
    Absolute,        ///< 64-bit entries holding target addresses (`jmp [T+rZ*8]`)
    TableRelative,   ///< signed 32-bit entries added to the table address (gcc/clang PIC)
    BaseRelative,    ///< 32-bit entries added to another constant, e.g. __ImageBase (MSVC, mingw)
    /// No table: the value analysis found the target to be one of a few constants on every
    /// path (`lea rax, [rip+L]; jmp rax`, a constant pointer loaded from a read-only slot).
    /// `table` and `entrySize` are 0; `targets` is sorted.
    Computed,
  };
  uint64_t jump = 0;          ///< address of the indirect jmp
  uint64_t table = 0;         ///< address of entry 0
  unsigned entrySize = 0;     ///< 4 or 8 bytes
  Shape shape = Shape::Absolute;
  std::vector<uint64_t> targets;   ///< by index: index i jumps to targets[i]
  /// A byte or word index table in front of the target table (MSVC): index i reads entry
  /// number `indexTable[i]` (1 or 2 bytes, zero-extended) of the target table. 0: none.
  uint64_t indexTable = 0;
  unsigned indexEntrySize = 0;
  /// Sized by the constants that reach the index, not by a compare: it grows as discovery
  /// finds more of the code that sets the index, so it is matched again every round.
  bool bySetOfValues = false;

  /// The instruction that reads the entry and the register that selects it there; with
  /// `indexValues[i]` in `indexRegister` it reads entry i. NONE when no single register does.
  uint64_t loadAt = 0;
  ZydisRegister indexRegister = ZYDIS_REGISTER_NONE;
  std::vector<uint64_t> indexValues;

  /// The distinct targets in table order.
  std::vector<uint64_t> distinctTargets() const;
};

/// Resolved tables by the address of their jmp.
using JumpTableMap = std::map<uint64_t, JumpTable>;

const char *jumpTableShapeName(JumpTable::Shape shape);

} // namespace hoist
