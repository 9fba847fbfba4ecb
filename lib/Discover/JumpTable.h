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
  /// What sizes the table.
  enum class Bound : uint8_t {
    /// An unsigned compare of the index that dominates the jmp, or an `and` mask.
    Compare,
    /// The constants that reach the index: it grows as discovery finds more of the code that
    /// sets the index, so it is matched again every round.
    SetOfValues,
    /// Nothing but the index's width: a zero-extended byte or word. The compiler's table may
    /// be shorter (a `default` it knew unreachable), so it ends before the first entry that is
    /// not an instruction of the function; the index values past it stay the lifted switch's
    /// default, which jumps to what the machine would load.
    IndexWidth,
    /// The values the program stores to the global the index is loaded from, when it only
    /// ever stores constants there (StoredValues.h): a switch whose range check the compiler
    /// left out, knowing them. Every entry must be an instruction of the function.
    StoredValues,
    /// Nothing at all: a 32- or 64-bit index loaded from memory that no compare on the path
    /// checks (a token type a callee wrote through a pointer, whose range check the compiler
    /// left out because the `default` cannot happen). The table ends, as with IndexWidth,
    /// before the first entry that is not an instruction of the function.
    TableEnd,
  };
  Bound bound = Bound::Compare;
  bool bySetOfValues() const { return bound == Bound::SetOfValues; }
  /// Where the table ends was inferred from its entries, not known from the index: an index
  /// past the entries found takes the switch's default, which the machine code would send to
  /// whatever it loads past them.
  bool endInferred() const { return bound == Bound::IndexWidth || bound == Bound::TableEnd; }

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
/// `compare`, `set-of-values`, `index-width`: what `hoist cfg` prints as the table's bound.
const char *jumpTableBoundName(JumpTable::Bound bound);

} // namespace hoist
