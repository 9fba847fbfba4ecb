// Every comparison of x with a constant c, signed or not, and x's sign, change value only
// where x crosses 0 (signed order from INT_MIN), or c: so on each of the points 0, INT_MIN and
// every c, and on each gap between consecutive ones, all of them are constant, and so is the
// value built from them. One evaluation per point and per gap gives the value everywhere.
#include "Deobf/Passes/StepFunction.h"

#include "Deobf/Passes/Expression.h"
#include "Deobf/Passes/SignBitLeaves.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include <set>

namespace hoist::deobf {
namespace {

constexpr unsigned MaxNodes = 64;
constexpr size_t MaxPieces = 4;

/// x's value as a signed number of its width.
int64_t asSigned(uint64_t value, unsigned width) { return llvm::SignExtend64(value, width); }

/// Whether `node` reads x only through a comparison with a constant or x's sign; adds the
/// constants compared with to `points`.
bool readsOnlyThroughComparisons(llvm::Instruction *node, llvm::Value *x,
                                 std::set<int64_t> &points) {
  unsigned width = x->getType()->getIntegerBitWidth();
  if (auto *compare = llvm::dyn_cast<llvm::ICmpInst>(node)) {
    auto *constant = llvm::dyn_cast<llvm::ConstantInt>(
        compare->getOperand(compare->getOperand(0) == x ? 1 : 0));
    if (!constant)
      return false;
    points.insert(asSigned(constant->getZExtValue(), width));
    return true;
  }
  unsigned opcode = node->getOpcode();
  if ((opcode != llvm::Instruction::LShr && opcode != llvm::Instruction::AShr) ||
      node->getOperand(0) != x)
    return false;
  // A right shift by a constant (a node of the DAG) whose users read only x's sign.
  unsigned amount = unsigned(llvm::cast<llvm::ConstantInt>(node->getOperand(1))->getZExtValue());
  return amount == width - 1 || (opcode == llvm::Instruction::AShr &&
                                 amount < width && amount + lowestBitRead(node) >= width - 1);
}

} // namespace

llvm::Value *buildStepFunction(llvm::Instruction *root) {
  if (root->getType()->isIntegerTy(1))
    return nullptr;
  std::optional<Expression> expression =
      Expression::collect({root}, ExpressionKind::Comparisons, MaxNodes, 1);
  if (!expression || expression->leaves().size() != 1 || expression->exclusiveNodes() < 3)
    return nullptr;
  llvm::Value *x = expression->leaves()[0];
  unsigned width = x->getType()->getIntegerBitWidth();
  int64_t lowest = asSigned(uint64_t(1) << (width - 1), width), highest = -(lowest + 1);
  std::set<int64_t> points{0, lowest};
  for (llvm::Instruction *node : expression->nodes())
    if (llvm::is_contained(node->operands(), x) &&
        !readsOnlyThroughComparisons(node, x, points))
      return nullptr;
  // Ranges [first, last] in signed order: each point, and the gap after it.
  std::vector<std::pair<int64_t, uint64_t>> pieces;   // (last x of the piece, value)
  auto valueAt = [&](int64_t at) { return expression->evaluate({uint64_t(at)})[0]; };
  for (auto point = points.begin(); point != points.end(); ++point) {
    auto next = std::next(point);
    int64_t gapLast = next == points.end() ? highest : *next - 1;
    std::vector<std::pair<int64_t, uint64_t>> ranges{{*point, valueAt(*point)}};
    if (*point < gapLast)
      ranges.push_back({gapLast, valueAt(*point + 1)});
    for (auto &range : ranges) {
      if (!pieces.empty() && pieces.back().second == range.second)
        pieces.back().first = range.first;
      else
        pieces.push_back(range);
    }
    if (pieces.size() > MaxPieces)
      return nullptr;
  }
  // Two instructions (a compare and a select) per piece but the last.
  if (2 * (pieces.size() - 1) >= expression->exclusiveNodes())
    return nullptr;
  llvm::IRBuilder<> builder(root);
  llvm::Type *type = root->getType();
  llvm::Value *chain = llvm::ConstantInt::get(type, pieces.back().second);
  for (size_t i = pieces.size() - 1; i-- > 0;) {
    llvm::Value *within = builder.CreateICmpSLE(x, llvm::ConstantInt::get(x->getType(),
                                                                         pieces[i].first, true));
    chain = builder.CreateSelect(within, llvm::ConstantInt::get(type, pieces[i].second), chain);
  }
  return chain;
}

} // namespace hoist::deobf
