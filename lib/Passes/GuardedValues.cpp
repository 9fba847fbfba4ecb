#include "Passes/GuardedValues.h"

#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <map>
#include <set>
#include <tuple>
#include <vector>

namespace hoist {
namespace {

/// The bits of a value that may carry the seed; all of them beyond 64 bits or for other types.
using Bits = uint64_t;

/// A slot of one of the function's own allocas: the alloca, the byte offset, the size.
using Cell = std::tuple<const llvm::AllocaInst *, int64_t, uint64_t>;

/// Keeps the entries of `mine` that `theirs` has too.
template <typename Key, typename Value>
void keepAgreed(std::map<Key, Value> &mine, const std::map<Key, Value> &theirs) {
  std::erase_if(mine, [&](const auto &entry) {
    auto other = theirs.find(entry.first);
    return other == theirs.end() || other->second != entry.second;
  });
}

/// What a path has established at a point, but for the taint it keys its world by: the latest
/// values of the flags it knows, with the conditions it took one way; for the frame cells, the
/// value the path last stored or loaded there, and the number a cell holds where the path
/// knows it (a flag reloaded from the frame, as ls's quoting function reloads a pointer
/// argument it spilled to decide again whether to store a register it set only where the
/// pointer was not null), with the allocas whose address the path has handed on; the merges
/// that are the seed itself on the path; the cells a harmless store (a register saved) may
/// have left the seed's bits in, which a load of them brings back, and those of them that hold
/// the seed itself. For a block, what all paths into it followed so far agree on.
struct Facts {
  std::map<const llvm::Value *, uint64_t> known;
  std::map<Cell, const llvm::Value *> cells;
  std::map<Cell, uint64_t> cellValues;
  std::set<const llvm::AllocaInst *> escaped;
  std::set<const llvm::Value *> unchanged;
  std::map<Cell, Bits> saved;
  std::set<Cell> savedUnchanged;

  /// Keeps what `world` agrees on, and adds the allocas it handed on and the seed's bits it
  /// saved; whether that changed anything.
  bool join(const Facts &world) {
    auto count = [&] {
      size_t bits = 0;
      for (const auto &entry : saved)
        bits += llvm::popcount(entry.second);
      return known.size() + cells.size() + cellValues.size() + unchanged.size() +
             savedUnchanged.size() + escaped.size() + saved.size() + bits;
    };
    size_t before = count();
    keepAgreed(known, world.known);
    keepAgreed(cells, world.cells);
    keepAgreed(cellValues, world.cellValues);
    std::erase_if(unchanged, [&](const llvm::Value *value) { return !world.unchanged.count(value); });
    std::erase_if(savedUnchanged, [&](const Cell &cell) { return !world.savedUnchanged.count(cell); });
    escaped.insert(world.escaped.begin(), world.escaped.end());
    for (const auto &[cell, bits] : world.saved)
      saved[cell] |= bits;
    return count() != before;
  }
};

/// A path's facts, and the bits of the values computed so far that may carry the seed (none
/// where a value is absent).
struct World : Facts {
  std::map<const llvm::Value *, Bits> tainted;
};

Bits widthMask(const llvm::Type *type) {
  const auto *integer = llvm::dyn_cast<llvm::IntegerType>(type);
  if (!integer || integer->getBitWidth() >= 64)
    return ~Bits(0);
  return (Bits(1) << integer->getBitWidth()) - 1;
}

/// The bits of `instruction`'s result that may carry the seed, from its operands' (`in`, by
/// operand): exact for shifts, masks and extensions by constants, which is how a register's
/// garbage upper bits meet a byte written into it (`sete %r12b`, then `mov %r12d, %ecx` and
/// `mov %cl, (%rsp)`); every bit from the lowest tainted one up for arithmetic; all of them
/// otherwise.
Bits resultBits(const llvm::Instruction &instruction, llvm::ArrayRef<Bits> in) {
  Bits any = 0;
  for (Bits bits : in)
    any |= bits;
  Bits width = widthMask(instruction.getType());
  if (!any)
    return 0;
  auto constantAt = [&](unsigned i) -> std::optional<uint64_t> {
    const auto *constant = llvm::dyn_cast<llvm::ConstantInt>(instruction.getOperand(i));
    if (!constant || constant->getBitWidth() > 64)
      return std::nullopt;
    return constant->getZExtValue();
  };
  switch (instruction.getOpcode()) {
  case llvm::Instruction::Trunc:
  case llvm::Instruction::ZExt:
    return in[0] & width;
  case llvm::Instruction::SExt: {
    // A vector's lanes are not one integer: all of it.
    if (!instruction.getOperand(0)->getType()->isIntegerTy())
      return width;
    unsigned from = instruction.getOperand(0)->getType()->getIntegerBitWidth();
    bool sign = from <= 64 && (in[0] >> (from - 1)) & 1;
    return (sign ? in[0] | (width & ~widthMask(instruction.getOperand(0)->getType())) : in[0]) &
           width;
  }
  case llvm::Instruction::And:
    if (auto mask = constantAt(1))
      return in[0] & *mask;
    return any & width;
  case llvm::Instruction::Or:
    if (auto set = constantAt(1))
      return in[0] & ~*set & width;
    return any & width;
  case llvm::Instruction::Xor:
    return any & width;
  case llvm::Instruction::Shl:
    if (auto count = constantAt(1); count && *count < 64 && !in[1])
      return (in[0] << *count) & width;
    break;
  case llvm::Instruction::LShr:
    if (auto count = constantAt(1); count && *count < 64 && !in[1])
      return in[0] >> *count;
    break;
  case llvm::Instruction::Add:
  case llvm::Instruction::Sub:
  case llvm::Instruction::Mul:
    // A sum's low bits depend on the addends' low bits only.
    return ~((any & -any) - 1) & width;
  default:
    break;
  }
  return width;
}

/// The cell `pointer` addresses with an access of `size` bytes, where it is an alloca of the
/// function at a constant offset.
std::optional<Cell> cellOf(const llvm::Value *pointer, uint64_t size,
                           const llvm::DataLayout &layout) {
  llvm::APInt offset(64, 0);
  const llvm::Value *base =
      pointer->stripAndAccumulateConstantOffsets(layout, offset, /*AllowNonInbounds=*/true);
  const auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(base);
  if (!alloca)
    return std::nullopt;
  return Cell{alloca, offset.getSExtValue(), size};
}

/// Whether `load` reads an integer a path may know, from a store or an earlier load of the
/// same cell.
bool readsSmallInteger(const llvm::LoadInst &load) {
  const auto *type = llvm::dyn_cast<llvm::IntegerType>(load.getType());
  return type && type->getBitWidth() <= 64 && load.isSimple();
}

/// The cell `value` reads, where it is a load of such an integer.
std::optional<Cell> cellRead(const llvm::Value *value, const llvm::DataLayout &layout) {
  const auto *load = llvm::dyn_cast<llvm::LoadInst>(value);
  if (!load || !readsSmallInteger(*load))
    return std::nullopt;
  return cellOf(load->getPointerOperand(), layout.getTypeStoreSize(load->getType()), layout);
}

/// The instructions after which a call or a store through another pointer may reach an alloca
/// of `function`: every use of its address other than a load or store at a constant offset
/// (through constant geps) hands the address on.
std::map<const llvm::Instruction *, std::vector<const llvm::AllocaInst *>>
escapes(const llvm::Function &function) {
  std::map<const llvm::Instruction *, std::vector<const llvm::AllocaInst *>> sites;
  for (const llvm::Instruction &instruction : llvm::instructions(function)) {
    const auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction);
    if (!alloca)
      continue;
    std::vector<const llvm::Value *> pointers = {alloca};
    while (!pointers.empty()) {
      const llvm::Value *pointer = pointers.back();
      pointers.pop_back();
      for (const llvm::Use &use : pointer->uses()) {
        const auto *user = llvm::cast<llvm::Instruction>(use.getUser());
        if (const auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(user);
            gep && gep->hasAllConstantIndices()) {
          pointers.push_back(gep);
          continue;
        }
        if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(user); load && load->isSimple())
          continue;
        if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(user);
            store && store->isSimple() && use.getOperandNo() == store->getPointerOperandIndex())
          continue;
        // A phi hands it on as its block is entered.
        const llvm::Instruction *site = user;
        if (llvm::isa<llvm::PHINode>(user))
          site = user->getParent()->getFirstNonPHI();
        sites[site].push_back(alloca);
      }
    }
  }
  return sites;
}

/// The integer values of finitely many possible values: phis and selects of constants and
/// such values, and their bitwise logic, extensions, truncations and comparisons (a counter's
/// `add` is not among them, so a loop's iterations do not multiply the paths). A value read
/// from a frame cell counts among them: a path may know it.
std::set<const llvm::Value *> smallDomainValues(const llvm::Function &function) {
  const llvm::DataLayout &layout = function.getParent()->getDataLayout();
  std::set<const llvm::Value *> values;
  for (const llvm::Instruction &instruction : llvm::instructions(function)) {
    auto *type = llvm::dyn_cast<llvm::IntegerType>(instruction.getType());
    if (!type || type->getBitWidth() > 64)
      continue;
    const auto *binary = llvm::dyn_cast<llvm::BinaryOperator>(&instruction);
    bool logic = binary && (binary->getOpcode() == llvm::Instruction::Xor ||
                            binary->getOpcode() == llvm::Instruction::And ||
                            binary->getOpcode() == llvm::Instruction::Or);
    const auto *compare = llvm::dyn_cast<llvm::ICmpInst>(&instruction);
    if (llvm::isa<llvm::PHINode>(instruction) || llvm::isa<llvm::SelectInst>(instruction) ||
        llvm::isa<llvm::ZExtInst>(instruction) || llvm::isa<llvm::SExtInst>(instruction) ||
        llvm::isa<llvm::TruncInst>(instruction) || logic ||
        (compare && compare->getOperand(0)->getType()->isIntegerTy()))
      values.insert(&instruction);
  }
  auto decided = [&](const llvm::Value *operand) {
    return llvm::isa<llvm::ConstantInt>(operand) || values.count(operand) ||
           cellRead(operand, layout);
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = values.begin(); it != values.end();) {
      const auto *instruction = llvm::cast<llvm::Instruction>(*it);
      // A select's condition may be anything: the path takes it one way or the other.
      unsigned first = llvm::isa<llvm::SelectInst>(instruction) ? 1 : 0;
      bool keep = true;
      for (unsigned i = first; i < instruction->getNumOperands(); ++i)
        keep &= decided(instruction->getOperand(i));
      if (keep) {
        ++it;
        continue;
      }
      it = values.erase(it);
      changed = true;
    }
  }
  return values;
}

/// A computation whose only effect is its result.
bool isPure(const llvm::Instruction &instruction) {
  if (llvm::isa<llvm::BinaryOperator>(instruction) || llvm::isa<llvm::CastInst>(instruction) ||
      llvm::isa<llvm::CmpInst>(instruction) || llvm::isa<llvm::GetElementPtrInst>(instruction) ||
      llvm::isa<llvm::FreezeInst>(instruction) || llvm::isa<llvm::UnaryOperator>(instruction) ||
      llvm::isa<llvm::ExtractElementInst>(instruction) ||
      llvm::isa<llvm::InsertElementInst>(instruction) ||
      llvm::isa<llvm::ShuffleVectorInst>(instruction) ||
      llvm::isa<llvm::ExtractValueInst>(instruction) ||
      llvm::isa<llvm::InsertValueInst>(instruction))
    return true;
  const auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
  return call && call->doesNotAccessMemory() && call->willReturn() && !call->isConvergent();
}

class Paths {
public:
  Paths(const llvm::Argument &seed,
        llvm::function_ref<bool(const llvm::Use &, bool unchanged)> harmless,
        llvm::DemandedBits &demanded, llvm::function_ref<Bits(const llvm::Use &)> needed)
      : seed_(seed), harmless_(harmless), demanded_(demanded), needed_(needed),
        layout_(seed.getParent()->getParent()->getDataLayout()),
        flags_(smallDomainValues(*seed.getParent())), escapes_(escapes(*seed.getParent())) {}

  bool mayReachAnEffect(unsigned budget) {
    const llvm::BasicBlock &entry = seed_.getParent()->getEntryBlock();
    pending_.push_back({&entry, entry.getFirstNonPHI(), World{}});
    while (!pending_.empty()) {
      if (budget-- == 0)
        return true;
      auto [block, from, world] = std::move(pending_.back());
      pending_.pop_back();
      if (runBlock(*block, from, std::move(world)))
        return true;
    }
    return false;
  }

private:
  struct Visit {
    const llvm::BasicBlock *block;
    const llvm::Instruction *from;
    World world;
  };

  std::optional<uint64_t> valueOf(const llvm::Value *value, const World &world) const {
    if (const auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value))
      return constant->getBitWidth() <= 64 ? std::optional(constant->getZExtValue())
                                           : std::nullopt;
    auto found = world.known.find(value);
    return found == world.known.end() ? std::nullopt : std::optional(found->second);
  }

  /// Whether `value` is the seed as it came, on the path `world` follows.
  bool isSeedItself(const llvm::Value *value, const Facts &world) const {
    return value == &seed_ || world.unchanged.count(value);
  }

  /// The bits of `value` that may carry the seed.
  Bits bitsOf(const llvm::Value *value, const World &world) const {
    if (value == &seed_)
      return widthMask(value->getType());
    auto found = world.tainted.find(value);
    return found == world.tainted.end() ? 0 : found->second;
  }

  /// The bits of `use`'s operand that may carry the seed and that its user needs.
  Bits taintOf(const llvm::Use &use, const World &world) const {
    const llvm::Value *value = use.get();
    Bits bits = bitsOf(value, world);
    if (!bits || harmless_(use, isSeedItself(value, world)))
      return 0;
    const auto *user = llvm::dyn_cast<llvm::Instruction>(use.getUser());
    if (user && user->getType()->isIntOrIntVectorTy()) {
      llvm::APInt needed = demanded_.getDemandedBits(&const_cast<llvm::Use &>(use));
      if (needed.isZero())
        return 0;
      if (needed.getBitWidth() <= 64)
        bits &= needed.getZExtValue();
    }
    return bits;
  }

  static void setTaint(World &world, const llvm::Value *value, Bits bits) {
    if (bits)
      world.tainted[value] = bits;
    else
      world.tainted.erase(value);
  }

  /// The value of flag `instruction` from its operands' values, where all are known.
  std::optional<uint64_t> evaluate(const llvm::Instruction &instruction,
                                   const World &world) const {
    std::vector<llvm::Constant *> operands;
    for (const llvm::Value *operand : instruction.operands()) {
      std::optional<uint64_t> value = valueOf(operand, world);
      if (!value)
        return std::nullopt;
      operands.push_back(llvm::ConstantInt::get(operand->getType(), *value));
    }
    llvm::Constant *folded = nullptr;
    if (const auto *compare = llvm::dyn_cast<llvm::CmpInst>(&instruction))
      folded = llvm::ConstantFoldCompareInstOperands(compare->getPredicate(), operands[0],
                                                     operands[1], layout_);
    else if (const auto *cast = llvm::dyn_cast<llvm::CastInst>(&instruction))
      folded = llvm::ConstantFoldCastOperand(cast->getOpcode(), operands[0], cast->getType(),
                                             layout_);
    else if (instruction.isBinaryOp())
      folded = llvm::ConstantFoldBinaryOpOperands(instruction.getOpcode(), operands[0],
                                                  operands[1], layout_);
    const auto *result = llvm::dyn_cast_or_null<llvm::ConstantInt>(folded);
    return result ? std::optional(result->getZExtValue()) : std::nullopt;
  }

  /// Follows `world` along the edge into `to`, taking `condition` (an instruction the branch
  /// tested) as `taken` there.
  void follow(const llvm::BasicBlock &from, const llvm::BasicBlock &to, const World &world,
              const llvm::Value *condition = nullptr, uint64_t taken = 0) {
    World next = world;
    if (condition && llvm::isa<llvm::Instruction>(condition)) {
      next.known[condition] = taken;
      learnEquality(*condition, taken, next);
    }
    // The block's values are new each time it runs.
    for (const llvm::Instruction &instruction : to) {
      next.known.erase(&instruction);
      next.tainted.erase(&instruction);
      next.unchanged.erase(&instruction);
    }
    std::erase_if(next.cells, [&](const auto &entry) {
      const auto *held = llvm::dyn_cast<llvm::Instruction>(entry.second);
      return held && held->getParent() == &to;
    });
    for (const llvm::PHINode &phi : to.phis()) {
      int index = phi.getBasicBlockIndex(&from);
      const llvm::Use &incoming = phi.getOperandUse(index);
      if (flags_.count(&phi))
        if (std::optional<uint64_t> value = valueOf(incoming.get(), world))
          next.known[&phi] = *value;
      setTaint(next, &phi, taintOf(incoming, world));
      if (isSeedItself(incoming.get(), world))
        next.unchanged.insert(&phi);
    }
    // One world per set of tainted bits, knowing what every path into the block with
    // those values tainted agrees on: the flags' values that matter are those that tell a
    // tainted value from a clean one.
    auto [found, isNew] = visited_[&to].try_emplace(next.tainted, next);
    if (!isNew) {
      if (!found->second.join(next))
        return;   // a path no more precise than one followed already
      static_cast<Facts &>(next) = found->second;
    }
    tooMany_ |= visited_[&to].size() > MaxWorldsPerBlock;
    pending_.push_back({&to, to.getFirstNonPHI(), std::move(next)});
  }

  /// On the edge where `condition`, an equality with a constant, is `taken` its way, the
  /// compared value is that constant, and so is each cell that holds it.
  void learnEquality(const llvm::Value &condition, uint64_t taken, World &world) const {
    const auto *compare = llvm::dyn_cast<llvm::ICmpInst>(&condition);
    if (!compare || !compare->isEquality() ||
        (compare->getPredicate() == llvm::ICmpInst::ICMP_EQ) != (taken == 1))
      return;
    const llvm::Value *compared = compare->getOperand(0);
    const auto *constant = llvm::dyn_cast<llvm::ConstantInt>(compare->getOperand(1));
    if (!constant || constant->getBitWidth() > 64 || !compared->getType()->isIntegerTy())
      return;
    world.known[compared] = constant->getZExtValue();
    for (const auto &[cell, held] : world.cells)
      if (held == compared)
        world.cellValues[cell] = constant->getZExtValue();
  }

  /// A load of a cell a save left the seed's bits in carries them; one of a cell whose number
  /// the path knows reads that number.
  void readCell(const llvm::LoadInst &load, World &world) const {
    std::optional<Cell> cell =
        cellOf(load.getPointerOperand(), layout_.getTypeStoreSize(load.getType()), layout_);
    if (!cell)
      return;
    Bits bits = 0;
    for (const auto &[other, held] : world.saved) {
      if (other == *cell)
        bits |= held & widthMask(load.getType());
      else if (overlap(other, *cell))
        bits = widthMask(load.getType());
    }
    setTaint(world, &load, bits);
    if (bits && world.savedUnchanged.count(*cell))
      world.unchanged.insert(&load);
    if (!readsSmallInteger(load))
      return;
    world.cells[*cell] = &load;
    if (auto held = world.cellValues.find(*cell); held != world.cellValues.end())
      world.known[&load] = held->second;
  }

  static bool overlap(const Cell &one, const Cell &other) {
    auto [alloca, offset, bytes] = one;
    auto [otherAlloca, otherOffset, otherBytes] = other;
    return otherAlloca == alloca && otherOffset < offset + int64_t(bytes) &&
           offset < otherOffset + int64_t(otherBytes);
  }

  /// Forgets the cells `instruction` may write, and remembers what a store into one puts
  /// there.
  void writeCells(const llvm::Instruction &instruction, World &world) {
    auto forget = [&](llvm::function_ref<bool(const Cell &)> written) {
      std::erase_if(world.cells, [&](const auto &entry) { return written(entry.first); });
      std::erase_if(world.cellValues, [&](const auto &entry) { return written(entry.first); });
    };
    auto reachable = [&](const Cell &cell) { return world.escaped.count(std::get<0>(cell)) > 0; };
    const auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
    if (!store || !store->isSimple()) {
      forget(reachable);
      return;
    }
    const llvm::Value *stored = store->getValueOperand();
    uint64_t size = layout_.getTypeStoreSize(stored->getType());
    std::optional<Cell> cell = cellOf(store->getPointerOperand(), size, layout_);
    if (!cell) {
      const llvm::Value *base = llvm::getUnderlyingObject(store->getPointerOperand());
      forget([&](const Cell &other) { return std::get<0>(other) == base || reachable(other); });
      return;
    }
    forget([&](const Cell &other) { return overlap(other, *cell); });
    // What a save leaves there: a store that let the seed's bits through was harmless. Bits
    // saved in a cell the store covers only in part may still be there, beside others.
    world.saved.erase(*cell);
    std::erase_if(world.savedUnchanged, [&](const Cell &other) { return overlap(other, *cell); });
    if (Bits carried = bitsOf(stored, world)) {
      world.saved[*cell] = carried;
      if (isSeedItself(stored, world))
        world.savedUnchanged.insert(*cell);
    }
    const auto *type = llvm::dyn_cast<llvm::IntegerType>(stored->getType());
    if (!type || type->getBitWidth() > 64)
      return;
    world.cells[*cell] = stored;
    if (std::optional<uint64_t> value = valueOf(stored, world))
      world.cellValues[*cell] = *value;
  }

  /// Runs `block` from `from` on; true where the seed may reach an effect.
  bool runBlock(const llvm::BasicBlock &block, const llvm::Instruction *from, World world) {
    for (auto it = from->getIterator(); it != block.end(); ++it) {
      const llvm::Instruction &instruction = *it;
      if (auto handed = escapes_.find(&instruction); handed != escapes_.end())
        world.escaped.insert(handed->second.begin(), handed->second.end());
      if (const auto *select = llvm::dyn_cast<llvm::SelectInst>(&instruction)) {
        const llvm::Use &condition = select->getOperandUse(0);
        Bits armTainted[2] = {taintOf(select->getOperandUse(1), world),
                              taintOf(select->getOperandUse(2), world)};
        if (taintOf(condition, world)) {
          setTaint(world, select, widthMask(select->getType()));
          continue;
        }
        std::optional<uint64_t> choice = valueOf(condition.get(), world);
        bool matters = armTainted[0] != armTainted[1] || flags_.count(select);
        if (!choice && matters) {
          // Both ways, each path remembering which.
          for (uint64_t way : {0, 1}) {
            World split = world;
            split.known[condition.get()] = way;
            pending_.push_back({&block, select, std::move(split)});
          }
          return false;
        }
        if (!choice) {
          setTaint(world, select, armTainted[0] | armTainted[1]);
          continue;
        }
        unsigned arm = *choice ? 1 : 2;
        setTaint(world, select, armTainted[arm - 1]);
        if (isSeedItself(select->getOperand(arm), world))
          world.unchanged.insert(select);
        else
          world.unchanged.erase(select);
        if (flags_.count(select))
          if (std::optional<uint64_t> value = valueOf(select->getOperand(arm), world))
            world.known[select] = *value;
        continue;
      }
      std::vector<Bits> operandBits;
      for (const llvm::Use &use : instruction.operands())
        operandBits.push_back(taintOf(use, world));
      bool anyTainted = llvm::any_of(operandBits, [](Bits bits) { return bits != 0; });
      if (instruction.isTerminator())
        return anyTainted || branch(block, instruction, world);
      if (!isPure(instruction)) {
        for (const llvm::Use &use : instruction.operands())
          if (operandBits[use.getOperandNo()] & (needed_ ? needed_(use) : ~Bits(0)))
            return true;
        if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction))
          readCell(*load, world);
        else if (instruction.mayWriteToMemory())
          writeCells(instruction, world);
        continue;
      }
      setTaint(world, &instruction, resultBits(instruction, operandBits));
      if (flags_.count(&instruction))
        if (std::optional<uint64_t> value = evaluate(instruction, world))
          world.known[&instruction] = *value;
    }
    return false;
  }

  /// Follows the terminator's edges the world allows; true where the paths are too many.
  bool branch(const llvm::BasicBlock &block, const llvm::Instruction &terminator,
              const World &world) {
    if (const auto *br = llvm::dyn_cast<llvm::BranchInst>(&terminator);
        br && br->isConditional()) {
      const llvm::Value *condition = br->getCondition();
      std::optional<uint64_t> value = valueOf(condition, world);
      for (uint64_t way : {1, 0})
        if (!value || *value == way)
          follow(block, *br->getSuccessor(way ? 0 : 1), world, condition, way);
    } else if (const auto *choice = llvm::dyn_cast<llvm::SwitchInst>(&terminator)) {
      std::optional<uint64_t> value = valueOf(choice->getCondition(), world);
      if (value) {
        auto taken = choice->findCaseValue(
            llvm::ConstantInt::get(llvm::cast<llvm::IntegerType>(choice->getCondition()->getType()),
                                   *value));
        follow(block, *taken->getCaseSuccessor(), world);
      } else {
        std::set<const llvm::BasicBlock *> targets(llvm::succ_begin(&block),
                                                   llvm::succ_end(&block));
        for (const llvm::BasicBlock *target : targets)
          follow(block, *target, world);
      }
    } else {
      std::set<const llvm::BasicBlock *> targets(llvm::succ_begin(&block), llvm::succ_end(&block));
      for (const llvm::BasicBlock *target : targets)
        follow(block, *target, world);
    }
    return tooMany_;
  }

  static constexpr size_t MaxWorldsPerBlock = 64;

  const llvm::Argument &seed_;
  llvm::function_ref<bool(const llvm::Use &, bool unchanged)> harmless_;
  llvm::DemandedBits &demanded_;
  llvm::function_ref<Bits(const llvm::Use &)> needed_;
  const llvm::DataLayout &layout_;
  std::set<const llvm::Value *> flags_;
  std::vector<Visit> pending_;
  std::map<const llvm::BasicBlock *, std::map<std::map<const llvm::Value *, Bits>, Facts>>
      visited_;
  std::map<const llvm::Instruction *, std::vector<const llvm::AllocaInst *>> escapes_;
  bool tooMany_ = false;
};

} // namespace

bool mayReachAnEffect(const llvm::Argument &seed,
                      llvm::function_ref<bool(const llvm::Use &, bool unchanged)> harmless,
                      llvm::DemandedBits &demanded, unsigned budget,
                      llvm::function_ref<uint64_t(const llvm::Use &)> needed) {
  return Paths(seed, harmless, demanded, needed).mayReachAnEffect(budget);
}

} // namespace hoist
