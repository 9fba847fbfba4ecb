#include "Brighten/BrightenOrder.h"

#include <llvm/ADT/GraphTraits.h>
#include <llvm/ADT/SCCIterator.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

#include <algorithm>
#include <set>

namespace hoist {
namespace {

struct OrderNode {
  llvm::Function *function = nullptr;   // null for the root, which reaches every function
  std::vector<OrderNode *> successors;
};

struct OrderGraph {
  OrderNode root;
  std::vector<OrderNode> nodes;
};

} // namespace
} // namespace hoist

template <> struct llvm::GraphTraits<hoist::OrderGraph *> {
  using NodeRef = hoist::OrderNode *;
  using ChildIteratorType = std::vector<hoist::OrderNode *>::iterator;
  static NodeRef getEntryNode(hoist::OrderGraph *graph) { return &graph->root; }
  static ChildIteratorType child_begin(NodeRef node) { return node->successors.begin(); }
  static ChildIteratorType child_end(NodeRef node) { return node->successors.end(); }
};

namespace hoist {

std::vector<std::vector<llvm::Function *>>
brighteningOrder(llvm::Module &module, const std::map<uint64_t, llvm::Function *> &lifted,
                 llvm::function_ref<std::optional<uint64_t>(uint64_t)> slotTarget,
                 llvm::ArrayRef<uint64_t> first) {
  // Module order, and each function's edges in the order of its instructions, as LLVM's call
  // graph has them: among functions that neither calls nor references the other, brightening
  // takes them in the order it always has.
  OrderGraph graph;
  graph.nodes.resize(lifted.size());
  std::map<const llvm::Function *, OrderNode *> nodeOf;
  std::set<const llvm::Function *> members;
  for (auto [address, function] : lifted)
    members.insert(function);
  size_t index = 0;
  for (llvm::Function &function : module) {
    if (!members.count(&function))
      continue;
    graph.nodes[index].function = &function;
    nodeOf[&function] = &graph.nodes[index];
    graph.root.successors.push_back(&graph.nodes[index]);
    ++index;
  }
  for (OrderNode &node : graph.nodes) {
    std::set<OrderNode *> seen;
    auto add = [&](OrderNode *successor) {
      if (seen.insert(successor).second)
        node.successors.push_back(successor);
    };
    for (const llvm::Instruction &instruction : llvm::instructions(*node.function)) {
      if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
        if (auto callee = nodeOf.find(call->getCalledFunction()); callee != nodeOf.end())
          add(callee->second);
      for (const llvm::Value *operand : instruction.operands())
        if (const auto *constant = llvm::dyn_cast<llvm::ConstantInt>(operand);
            constant && constant->getBitWidth() == 64) {
          uint64_t value = constant->getZExtValue();
          auto referenced = lifted.find(value);
          if (referenced == lifted.end())
            if (std::optional<uint64_t> target = slotTarget(value))
              referenced = lifted.find(*target);
          if (referenced != lifted.end())
            add(nodeOf.at(referenced->second));
        }
    }
  }
  // The depth-first walk from the root finishes everything a successor reaches before it
  // takes the next successor: the functions at `first` go first in the root's list.
  std::set<const llvm::Function *> early;
  for (uint64_t address : first)
    if (auto held = lifted.find(address); held != lifted.end())
      early.insert(held->second);
  std::stable_partition(graph.root.successors.begin(), graph.root.successors.end(),
                        [&](const OrderNode *node) { return early.count(node->function) > 0; });
  std::vector<std::vector<llvm::Function *>> order;
  for (auto scc = llvm::scc_begin(&graph); !scc.isAtEnd(); ++scc) {
    std::vector<llvm::Function *> members;
    for (OrderNode *node : *scc)
      if (node->function)
        members.push_back(node->function);
    if (!members.empty())
      order.push_back(std::move(members));
  }
  return order;
}

} // namespace hoist
