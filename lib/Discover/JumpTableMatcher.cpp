#include "Discover/JumpTableMatcher.h"

#include "Discover/CodeReferences.h"
#include "Discover/PathEvaluator.h"
#include "Discover/PathSearch.h"
#include "Discover/StoredValues.h"

#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace hoist {
namespace {

/// Paths of blocks (entry-most first) that end in `last`, each at most `depth` blocks long.
class PathEnumerator {
public:
  PathEnumerator(const ExploredFunction &function, unsigned depth, unsigned maxPaths)
      : function_(function), depth_(depth), maxPaths_(maxPaths),
        predecessors_(predecessorMap(function)) {}

  const PredecessorMap &predecessors() const { return predecessors_; }

  std::vector<std::vector<const MachineBlock *>> pathsTo(const MachineBlock &last) {
    paths_.clear();
    std::vector<const MachineBlock *> suffix{&last};
    extend(suffix);
    return paths_;
  }

private:
  void extend(std::vector<const MachineBlock *> &suffix) {
    if (paths_.size() >= maxPaths_)
      return;
    auto preds = predecessors_.find(suffix.back()->start);
    bool extended = false;
    if (suffix.size() < depth_ && preds != predecessors_.end()) {
      for (uint64_t pred : preds->second) {
        const MachineBlock &block = function_.blocks.at(pred);
        if (std::find(suffix.begin(), suffix.end(), &block) != suffix.end())
          continue;   // a loop: the path would repeat a block
        suffix.push_back(&block);
        extend(suffix);
        suffix.pop_back();
        extended = true;
      }
    }
    if (!extended)
      paths_.emplace_back(suffix.rbegin(), suffix.rend());
  }

  const ExploredFunction &function_;
  unsigned depth_, maxPaths_;
  PredecessorMap predecessors_;
  std::vector<std::vector<const MachineBlock *>> paths_;
};

bool readEntry(const Image &image, uint64_t address, unsigned size, bool signExtend,
               uint64_t &value) {
  if (size == 8)
    return image.read(address, &value, 8);
  uint32_t entry = 0;
  if (!image.read(address, &entry, 4))
    return false;
  value = signExtend ? static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(entry)))
                     : entry;
  return true;
}

/// The register whose value at `load` selects the entry, and its value for each entry: entry i
/// is read at `firstEntry + i*entrySize` (the target table's, or the index table's in front).
void findIndexRegister(const PathSymbol &load, uint64_t firstEntry, unsigned entrySize,
                       JumpTable &table) {
  ZydisRegister reg = ZYDIS_REGISTER_NONE;
  int64_t factor = 1, constant = 0;
  if (load.indexReg != ZYDIS_REGISTER_NONE && load.indexValue.known && load.indexValue.k != 0 &&
      load.baseValue.isConstant()) {
    reg = load.indexReg;
    factor = load.scale;
    constant = load.baseValue.c + load.disp;
  } else if (load.baseReg != ZYDIS_REGISTER_NONE && load.baseValue.known &&
             load.baseValue.k != 0 &&
             (load.indexReg == ZYDIS_REGISTER_NONE || load.indexValue.isConstant())) {
    reg = load.baseReg;
    constant = load.disp + (load.indexReg == ZYDIS_REGISTER_NONE
                                ? 0
                                : load.indexValue.c * static_cast<int64_t>(load.scale));
  }
  if (reg == ZYDIS_REGISTER_NONE ||
      ZydisRegisterGetWidth(ZYDIS_MACHINE_MODE_LONG_64, reg) != 64)
    return;
  std::vector<uint64_t> values;
  for (size_t i = 0; i < table.targets.size(); ++i) {
    uint64_t offset = firstEntry + i * entrySize - static_cast<uint64_t>(constant);
    if (static_cast<int64_t>(offset) % factor != 0)
      return;
    values.push_back(static_cast<uint64_t>(static_cast<int64_t>(offset) / factor));
  }
  table.loadAt = load.at;
  table.indexRegister = reg;
  table.indexValues = std::move(values);
}

/// The constants the write of `reg` at `instrs[at]` can leave in it, or nullopt when it is not
/// a constant: `lea reg,[rip+T]`, `mov reg, imm`, `xor reg, reg`, and `setcc` of its low byte
/// after an `xor` that zeroed it (0 or 1).
std::optional<std::set<int64_t>> constantsWritten(const std::vector<const Instr *> &instrs,
                                                  size_t at, ZydisRegister reg) {
  const Instr &instr = *instrs[at];
  const Operand &dst = instr.op(0), &src = instr.op(1);
  if (!dst.isReg() ||
      ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, dst.reg) != reg)
    return std::nullopt;
  if (instr.mnemonic == ZYDIS_MNEMONIC_LEA && dst.bits == 64 && src.base == ZYDIS_REGISTER_RIP &&
      src.index == ZYDIS_REGISTER_NONE)
    return std::set<int64_t>{static_cast<int64_t>(instr.next() + src.disp)};
  if (instr.mnemonic == ZYDIS_MNEMONIC_MOV && src.isImm() && dst.bits >= 32)
    return std::set<int64_t>{
        static_cast<int64_t>(dst.bits == 32 ? (src.imm & 0xffffffffu) : src.imm)};
  if (instr.mnemonic == ZYDIS_MNEMONIC_XOR && src.isReg() && src.reg == dst.reg &&
      dst.bits >= 32)
    return std::set<int64_t>{0};
  if (instr.category == ZYDIS_CATEGORY_SETCC && dst.bits == 8 &&
      dst.reg != ZYDIS_REGISTER_AH && dst.reg != ZYDIS_REGISTER_BH &&
      dst.reg != ZYDIS_REGISTER_CH && dst.reg != ZYDIS_REGISTER_DH) {
    for (size_t i = at; i-- > 0;)
      if (writesRegister(*instrs[i], reg)) {
        std::optional<std::set<int64_t>> before = constantsWritten(instrs, i, reg);
        if (before && *before == std::set<int64_t>{0})
          return std::set<int64_t>{0, 1};
        return std::nullopt;
      }
  }
  return std::nullopt;
}

/// The register that `instr` copies whole into `reg` (`mov r14, r11`), if it is such a copy.
std::optional<ZydisRegister> copiedRegister(const Instr &instr, ZydisRegister reg) {
  const Operand &dst = instr.op(0), &src = instr.op(1);
  if (instr.mnemonic != ZYDIS_MNEMONIC_MOV || !dst.isReg() || dst.reg != reg || !src.isReg() ||
      dst.bits != 64 ||
      src.bits != 64 || ZydisRegisterGetClass(src.reg) != ZYDIS_REGCLASS_GPR64)
    return std::nullopt;
  return src.reg;
}

/// Register copies followed back from one query: each search may follow several.
constexpr unsigned MaxCopySearches = 64;

/// Every constant that the definitions of `reg` reaching instruction `position` of `block`
/// write, if all of them write constants (see constantsWritten): the table base a loop keeps in
/// r15 from a lea far before the jmp, or the states of a switch-driven state machine that is
/// never bounds-checked. A copy from another register (`mov r11, r14`) holds what reaches that
/// register at the copy, so copies are followed back: clang keeps a table base in a
/// callee-saved register across a call in the loop (`mov r14, r11; call f; mov r11, r14`, sed's
/// `lex` at clang-14 -O1), and the values around such a cycle of copies are exactly the
/// constants that enter it from outside (a copy reached a second time adds no new value).
std::optional<std::set<int64_t>> reachingConstants(const ExploredFunction &function,
                                                   const PredecessorMap &preds,
                                                   const MachineBlock &block, size_t position,
                                                   ZydisRegister reg, unsigned budget) {
  struct Query {
    const MachineBlock *block;
    size_t position;
    ZydisRegister reg;
  };
  std::vector<Query> queries{{&block, position, reg}};
  std::set<std::pair<const MachineBlock *, size_t>> copiesFollowed;
  std::set<int64_t> constants;
  for (unsigned searches = 0; !queries.empty(); ++searches) {
    if (searches == MaxCopySearches)
      return std::nullopt;
    Query query = queries.back();
    queries.pop_back();
    ReachingDefinitions reaching = reachingDefinitions(function, preds, *query.block,
                                                       query.position, query.reg, budget);
    if (!reaching.complete() || reaching.definitions.empty())
      return std::nullopt;
    for (const Definition &definition : reaching.definitions) {
      if (std::optional<ZydisRegister> source = copiedRegister(definition.instr(), query.reg)) {
        if (copiesFollowed.insert({definition.block, definition.index}).second)
          queries.push_back({definition.block, definition.index, *source});
        continue;
      }
      std::optional<std::set<int64_t>> written =
          constantsWritten(definition.block->instrs, definition.index, query.reg);
      if (!written)
        return std::nullopt;
      constants.insert(written->begin(), written->end());
    }
  }
  if (constants.empty())
    return std::nullopt;   // only copies of each other: no value enters them
  return constants;
}

/// Where a suffix of a path may begin to show a bound: a compare with a constant, or a read of
/// memory (the index loaded, then compared or spilled and reloaded).
bool mayStartABound(const Instr &instr) {
  if ((instr.mnemonic == ZYDIS_MNEMONIC_CMP || instr.mnemonic == ZYDIS_MNEMONIC_SUB) &&
      instr.op(1).isImm())
    return true;
  for (unsigned i = 0; i < instr.explicitCount; ++i)
    if (instr.op(i).isMem() && !instr.op(i).isAgen && !instr.op(i).written)
      return true;
  return false;
}

using BaseAssumptions = std::vector<std::pair<ZydisRegister, int64_t>>;

/// The 64-bit general-purpose registers that the instructions of `path`, from instruction
/// `first` of its first block, read (as an operand or in an address): only a register the path
/// reads can matter as a base known where it begins.
std::set<ZydisRegister> registersRead(const std::vector<const MachineBlock *> &path,
                                      size_t first) {
  std::set<ZydisRegister> read;
  auto add = [&](ZydisRegister reg) {
    if (reg != ZYDIS_REGISTER_NONE)
      read.insert(ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, reg));
  };
  for (size_t b = 0; b < path.size(); ++b)
    for (size_t i = b == 0 ? first : 0; i < path[b]->instrs.size(); ++i) {
      const Instr &instr = *path[b]->instrs[i];
      for (unsigned o = 0; o < instr.operandCount; ++o) {
        const Operand &operand = instr.op(o);
        if (operand.isReg() && operand.read)
          add(operand.reg);
        if (operand.isMem()) {
          add(operand.base);
          add(operand.index);
        }
      }
    }
  return read;
}

/// Where a path begins (a block's start, an instruction in it) and a register -> the one
/// image address the register holds there on every way in, if any (baseAssumptions).
using BaseMemo = std::map<std::tuple<uint64_t, size_t, ZydisRegister>, std::optional<int64_t>>;

/// The registers that `path` reads and that hold one address of the image on every way to
/// instruction `first` of its first block: a table base set far away (`lea r15, [rip+T]`
/// before a loop). Each register's search over the predecessors is remembered in `memo`, as
/// paths share their beginnings.
BaseAssumptions baseAssumptions(const Image &image, const ExploredFunction &function,
                                const PredecessorMap &preds,
                                const std::vector<const MachineBlock *> &path, size_t first,
                                const LiftOptions &options, BaseMemo &memo) {
  static const ZydisRegister Gprs[] = {
      ZYDIS_REGISTER_RAX, ZYDIS_REGISTER_RCX, ZYDIS_REGISTER_RDX, ZYDIS_REGISTER_RBX,
      ZYDIS_REGISTER_RBP, ZYDIS_REGISTER_RSI, ZYDIS_REGISTER_RDI, ZYDIS_REGISTER_R8,
      ZYDIS_REGISTER_R9,  ZYDIS_REGISTER_R10, ZYDIS_REGISTER_R11, ZYDIS_REGISTER_R12,
      ZYDIS_REGISTER_R13, ZYDIS_REGISTER_R14, ZYDIS_REGISTER_R15};
  std::set<ZydisRegister> read = registersRead(path, first);
  BaseAssumptions bases;
  for (ZydisRegister reg : Gprs) {
    if (!read.count(reg))
      continue;
    auto [known, inserted] = memo.try_emplace({path.front()->start, first, reg});
    if (inserted)
      if (std::optional<std::set<int64_t>> values = reachingConstants(
              function, preds, *path.front(), first, reg, options.jumpTableSearchBlocks);
          values && values->size() == 1 &&
          image.sectionAt(static_cast<uint64_t>(*values->begin())))   // a base address
        known->second = *values->begin();
    if (known->second)
      bases.emplace_back(reg, *known->second);
  }
  return bases;
}

/// `assumed`: base registers known where the path begins (baseAssumptions), for a path matched
/// without `function` (which would look them up itself).
std::optional<JumpTable> matchPath(const Image &image, InstructionCache &cache,
                                   const std::vector<const MachineBlock *> &path,
                                   const ExploredFunction *function,
                                   const PredecessorMap *preds,
                                   const LiftOptions &options, size_t firstInstr = 0,
                                   std::optional<std::pair<uint64_t, uint64_t>> extent = {},
                                   const BaseAssumptions *assumed = nullptr) {
  PathEvaluator eval;
  BaseAssumptions found;
  if (function && preds) {
    BaseMemo memo;
    found = baseAssumptions(image, *function, *preds, path, firstInstr, options, memo);
    assumed = &found;
  }
  if (assumed)
    for (const auto &[reg, value] : *assumed)
      eval.assume(reg, value);
  const Instr *jmp = nullptr;
  for (size_t b = 0; b < path.size(); ++b) {
    const MachineBlock &block = *path[b];
    for (size_t i = b == 0 ? firstInstr : 0; i < block.instrs.size(); ++i) {
      const Instr &instr = *block.instrs[i];
      if (b + 1 == path.size() && i + 1 == block.instrs.size()) {
        jmp = &instr;
        break;
      }
      eval.step(instr);
    }
    if (b + 1 < path.size() && !block.instrs.empty() &&
        block.instrs.back()->category == ZYDIS_CATEGORY_COND_BR)
      eval.takeEdge(*block.instrs.back(), block.instrs.back()->next() != path[b + 1]->start);
  }
  if (!jmp || jmp->mnemonic != ZYDIS_MNEMONIC_JMP || jmp->op(0).isImm())
    return std::nullopt;

  // The target must be `c + ext(load)` with the load at `a + m*X` and X bounded on the path.
  SymValue target = eval.operandValue(*jmp, 0);
  if (!target.known || target.k != 1)
    return std::nullopt;
  const PathSymbol &load = eval.symbol(target.sym);
  if (load.kind != PathSymbol::Kind::Load || (load.width != 32 && load.width != 64))
    return std::nullopt;
  unsigned entrySize = load.width / 8;
  if (entrySize == 8 && target.c != 0)
    return std::nullopt;
  const SymValue &where = load.address;
  if (!where.known || where.k != static_cast<int64_t>(entrySize))
    return std::nullopt;
  PathSymbol index = eval.symbol(where.sym);
  // A byte or word index table in front of the target table (MSVC: `movzx eax, byte
  // [rdx+rax+IDX]; mov ecx, [rdx+rax*4+T]`): the entry number is itself loaded, from
  // `IDX + w*Y` with Y bounded on the path, so the table has one target per value of Y.
  std::optional<PathSymbol> indexLoad;
  uint64_t indexTable = 0;
  if (!index.bounded && index.kind == PathSymbol::Kind::Load &&
      (index.width == 8 || index.width == 16) &&
      !where.signExtended && index.address.known &&
      index.address.k == static_cast<int64_t>(index.width / 8)) {
    PathSymbol outer = eval.symbol(index.address.sym);
    if (outer.bounded) {
      indexLoad = index;
      indexTable = static_cast<uint64_t>(index.address.c) -
                   (index.width / 8) * static_cast<uint64_t>(outer.biasedBy);
      index = outer;
      if (const Section *section = image.sectionAt(indexTable); !section || section->writable)
        return std::nullopt;
    }
  }
  JumpTable::Bound bound = JumpTable::Bound::Compare;
  if (!index.bounded && !indexLoad && function && preds)
    if (std::optional<ZydisRegister> reg = eval.inputRegister(where.sym))
      // No compare bounds the index: the values that reach it may still all be constants.
      if (std::optional<std::set<int64_t>> values =
              reachingConstants(*function, *preds, *path.front(), firstInstr, *reg,
                                options.jumpTableSearchBlocks);
          values && *values->begin() >= 0) {
        index.bounded = true;
        index.biasedBy = 0;
        index.max = static_cast<uint64_t>(*values->rbegin());
        bound = JumpTable::Bound::SetOfValues;
      }
  // A global that the program only ever sets to constants (the compiler, knowing them, left
  // the range check out): its values bound it.
  if (!index.bounded && !indexLoad && extent && index.kind == PathSymbol::Kind::Load &&
      index.address.isConstant())
    if (std::optional<std::set<uint64_t>> values =
            storedValues(image, static_cast<uint64_t>(index.address.c), index.width / 8)) {
      index.bounded = true;
      index.biasedBy = 0;
      index.max = *values->rbegin();
      bound = JumpTable::Bound::StoredValues;
    }
  // Nothing bounds it but its width: a zero-extended byte or word loaded from memory.
  if (!index.bounded && !indexLoad && extent && index.kind == PathSymbol::Kind::Load &&
      (index.width == 8 || index.width == 16) && !where.signExtended) {
    index.bounded = true;
    index.biasedBy = 0;
    index.max = (uint64_t(1) << index.width) - 1;
    bound = JumpTable::Bound::IndexWidth;
  }
  // Nothing bounds it at all: a wider index loaded from memory. The table is read up to the
  // cap, ending where an entry is not an instruction of the function.
  if (!index.bounded && !indexLoad && extent && index.kind == PathSymbol::Kind::Load &&
      (index.width == 32 || index.width == 64)) {
    index.bounded = true;
    index.biasedBy = 0;
    index.max = options.maxJumpTableEntries - 1;
    bound = JumpTable::Bound::TableEnd;
  }
  if (!index.bounded ||
      (bound != JumpTable::Bound::IndexWidth && index.max >= options.maxJumpTableEntries))
    return std::nullopt;

  JumpTable table;
  table.bound = bound;
  table.jump = jmp->address;
  table.entrySize = entrySize;
  // Entry i is read when biasedBy + X == i (through the index table: entry idx[i]).
  table.table = indexLoad ? static_cast<uint64_t>(where.c)
                          : static_cast<uint64_t>(where.c) -
                                entrySize * static_cast<uint64_t>(index.biasedBy);
  if (indexLoad) {
    table.indexTable = indexTable;
    table.indexEntrySize = indexLoad->width / 8;
  }
  table.shape = entrySize == 8                                        ? JumpTable::Shape::Absolute
                : static_cast<uint64_t>(target.c) == table.table ? JumpTable::Shape::TableRelative
                                                                     : JumpTable::Shape::BaseRelative;
  const Section *section = image.sectionAt(table.table);
  if (!section || section->writable)
    return std::nullopt;   // a table the program may rewrite is not a constant
  // The target entry i holds, if it is an instruction (inside the function, when `inside`).
  auto targetAt = [&](uint64_t slot, bool inside) -> std::optional<uint64_t> {
    uint64_t entry = 0;
    if (!readEntry(image, table.table + slot * entrySize, entrySize, target.signExtended, entry))
      return std::nullopt;
    uint64_t destination = static_cast<uint64_t>(target.c) + entry;
    if (inside && (!extent || destination < extent->first || destination >= extent->second))
      return std::nullopt;
    const DecodedAt *decoded = cache.at(destination);
    if (!decoded || decoded->status != DecodeStatus::Ok)
      return std::nullopt;
    return destination;
  };
  // An inferred end stops before the next object the code addresses (the next switch's table,
  // whose entries, read against this table's base, may still land inside the function).
  uint64_t entries = index.max + 1;
  if (table.endInferred() && !indexLoad)
    if (std::optional<uint64_t> next = firstCodeReference(
            image, table.table + entrySize, table.table + entries * entrySize))
      entries = (*next - table.table) / entrySize;
  for (uint64_t i = 0; i < entries; ++i) {
    uint64_t slot = i;
    if (indexLoad) {
      uint16_t value = 0;
      if (!image.read(indexTable + i * table.indexEntrySize, &value, table.indexEntrySize))
        return std::nullopt;
      slot = value;
    }
    std::optional<uint64_t> destination =
        targetAt(slot, table.endInferred() || bound == JumpTable::Bound::StoredValues);
    if (!destination && table.endInferred() && i > 0)
      break;
    if (!destination)
      return std::nullopt;
    table.targets.push_back(*destination);
  }
  // The compiler's table may be larger than the constants that reach the index (states only
  // ever entered by direct jumps): take the entries that stay inside the function.
  for (uint64_t i = index.max + 1; bound == JumpTable::Bound::SetOfValues && extent &&
                                   i < options.maxJumpTableEntries;
       ++i) {
    std::optional<uint64_t> destination = targetAt(i, true);
    if (!destination)
      break;
    table.targets.push_back(*destination);
  }
  if (indexLoad)
    findIndexRegister(*indexLoad, table.indexTable, table.indexEntrySize, table);
  else
    findIndexRegister(load, table.table, table.entrySize, table);
  return table;
}

} // namespace

std::optional<JumpTable> matchJumpTable(const Image &image, InstructionCache &cache,
                                        const ExploredFunction &function,
                                        const MachineBlock &block, const LiftOptions &options,
                                        uint64_t extentEnd) {
  if (block.instrs.empty() || block.end != MachineBlock::End::Terminator)
    return std::nullopt;
  const Instr &jmp = *block.instrs.back();
  if (jmp.mnemonic != ZYDIS_MNEMONIC_JMP || jmp.op(0).isImm())
    return std::nullopt;
  PathEnumerator paths(function, options.jumpTablePathBlocks, options.jumpTablePaths);
  std::optional<std::pair<uint64_t, uint64_t>> extent;
  if (extentEnd > function.entry)
    extent = std::make_pair(function.entry, extentEnd);
  std::optional<JumpTable> found;
  BaseMemo suffixBases;
  auto allPaths = paths.pathsTo(block);
  for (const auto &fullPath : allPaths) {
    // The whole path first, then its suffixes, each from its first block's start or from a
    // compare or a load in it (mayStartABound): where every way into a loop head sets the
    // index to a constant (a state machine, an -O0 loop over a variable in the frame), the
    // index is a constant on every whole path, and only a suffix that starts at the range
    // check, or at the load it checks, shows what bounds it. A bound on a suffix holds on the
    // whole path.
    // A suffix may need the table base from further back too (clang's `lea r10, [rip+T]`
    // before a loop whose head checks the index: diffutils' `get_funky_string`), but only its
    // compare bounds the table: a suffix sized by constants is no bound.
    // Each register's base is looked up once per place a suffix starts (paths share their
    // suffixes), and only for the registers the suffix reads.
    auto matchSuffix = [&](const std::vector<const MachineBlock *> &path, size_t first) {
      std::optional<JumpTable> table =
          matchPath(image, cache, path, nullptr, nullptr, options, first, extent);
      if (!table) {
        BaseAssumptions bases = baseAssumptions(image, function, paths.predecessors(), path,
                                                first, options, suffixBases);
        if (!bases.empty())
          table = matchPath(image, cache, path, nullptr, nullptr, options, first, extent,
                            &bases);
      }
      if (table && table->bySetOfValues())
        table.reset();
      return table;
    };
    std::optional<JumpTable> table;
    for (size_t skip = 0; skip < fullPath.size() && !table; ++skip) {
      std::vector<const MachineBlock *> path(fullPath.begin() + skip, fullPath.end());
      if (skip == 0) {
        table = matchPath(image, cache, path, nullptr, nullptr, options, 0, extent);
        if (!table)   // again, with the constants that reach the path from further back
          table = matchPath(image, cache, path, &function, &paths.predecessors(), options, 0,
                            extent);
      } else {
        table = matchSuffix(path, 0);
      }
      for (size_t first = 1; first < path.front()->instrs.size() && !table; ++first)
        if (mayStartABound(*path.front()->instrs[first]))
          table = matchSuffix(path, first);
    }
    if (!table)
      continue;
    if (found && (found->table != table->table || found->targets != table->targets))
      return std::nullopt;   // the paths disagree: no single table
    if (!found)
      found = std::move(table);
  }
  if (!found) {
    // No path shows a bound: the index may still be one of the constants reaching the jmp's
    // block (a state machine whose states are all constants).
    // Suffixes of the block, shortest first: the constant may be written inside it.
    std::vector<const MachineBlock *> alone{&block};
    size_t count = block.instrs.size();
    for (size_t first = count; first-- > 0 && count - first <= 8 && !found;) {
      found = matchPath(image, cache, alone, &function, &paths.predecessors(), options, first,
                        extent);
      if (found && !found->bySetOfValues())
        found.reset();   // bounded by the block alone: the paths above disagreed or failed
    }
  }
  return found;
}

} // namespace hoist
