// The shape key lists the leaves' widths and known bits, then each node in order: opcode, width, the flags
// that change its value (`or disjoint` is read as an add), and its operands as leaf or node
// indices or constants.
#include "Deobf/Passes/ProofCache.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include <string>
#include <unordered_map>

namespace hoist::deobf {
namespace {

constexpr size_t MaxEntries = 4096;

std::string shapeOf(const Expression &expression, char question) {
  std::string key(1, question);
  llvm::DenseMap<const llvm::Value *, unsigned> index;
  for (llvm::Value *leaf : expression.leaves()) {
    unsigned i = index.size();
    index[leaf] = i;
    key += "L" + std::to_string(leaf->getType()->getIntegerBitWidth());
    if (expression.knownZero(i) | expression.knownOne(i))   // the inputs it can take
      key += "k" + std::to_string(expression.knownZero(i)) + ":" +
             std::to_string(expression.knownOne(i));
  }
  for (llvm::Instruction *node : expression.nodes()) {
    index[node] = index.size();
    key += "N" + std::to_string(node->getOpcode()) + "." +
           std::to_string(node->getType()->getIntegerBitWidth()) +
           (isArithmeticNode(node) ? "a" : "");
    for (llvm::Value *operand : node->operands()) {
      if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(operand))
        key += "c" + std::to_string(constant->getBitWidth()) + ":" +
               std::to_string(constant->getZExtValue());
      else
        key += "v" + std::to_string(index.lookup(operand));
    }
  }
  for (unsigned i = 0; i < 2; ++i)
    key += "R" + std::to_string(index.lookup(expression.root(i)));
  return key;
}

} // namespace

Verdict cachedProof(const Expression &expression, char question,
                    const std::function<Verdict(const Expression &)> &prove) {
  // Per thread: lifting workers run the passes in parallel.
  // An unknown verdict is kept too: the budget is a count of Z3's work (Prover.h), so asking
  // again would run out at the same point.
  thread_local std::unordered_map<std::string, Verdict> verdicts;
  std::string key = shapeOf(expression, question);
  if (auto found = verdicts.find(key); found != verdicts.end())
    return found->second;
  Verdict verdict = prove(expression);
  if (verdicts.size() == MaxEntries)
    verdicts.clear();
  verdicts.emplace(std::move(key), verdict);
  return verdict;
}

} // namespace hoist::deobf
