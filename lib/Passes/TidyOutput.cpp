#include "Passes/TidyOutput.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Metadata.h>

#include <set>
#include <vector>

namespace hoist {
namespace {

/// LLVM's intrinsics, Hoist's runtime intrinsics (include/hoist/Lifter.h) and the lifted
/// form of imports (`import.X`, which brightening replaces by the C function): declarations
/// that calls the optimizer or brightening removed needed. An import's declaration that
/// records a prototype brightening inferred stays (`--diagnostics` reports it).
bool isRemovableDeclaration(const llvm::Function &function) {
  if (!function.isDeclaration() || !function.use_empty())
    return false;
  if (function.hasFnAttribute("hoist-import"))
    return !function.hasFnAttribute("hoist-inferred-prototype");
  return function.isIntrinsic() || function.getName().starts_with("__hoist_");
}

void removeUnusedDeclarations(llvm::Module &module) {
  for (llvm::Function &function : llvm::make_early_inc_range(module))
    if (isRemovableDeclaration(function))
      function.eraseFromParent();
}

using ScopeSet = std::set<const llvm::MDNode *>;

void addScopes(const llvm::MDNode *list, ScopeSet &into) {
  if (list)
    for (const llvm::MDOperand &scope : list->operands())
      if (auto *node = llvm::dyn_cast<llvm::MDNode>(scope.get()))
        into.insert(node);
}

/// `list` with only the scopes in `kept`: itself when all are, null when none is.
llvm::MDNode *keepScopes(llvm::MDNode *list, const ScopeSet &kept) {
  std::vector<llvm::Metadata *> scopes;
  for (const llvm::MDOperand &scope : list->operands())
    if (auto *node = llvm::dyn_cast<llvm::MDNode>(scope.get()); node && kept.count(node))
      scopes.push_back(node);
  if (scopes.size() == list->getNumOperands())
    return list;
  return scopes.empty() ? nullptr : llvm::MDNode::get(list->getContext(), scopes);
}

/// A scope says that the accesses in it (`!alias.scope`) and those declared apart from it
/// (`!noalias`) do not overlap. Once the optimizer removed every access of one side (the
/// argument's loads folded to constants), the scope says nothing: it goes, and so do the
/// declarations of scopes (llvm.experimental.noalias.scope.decl) that only name such scopes.
void removeOneSidedAliasScopes(llvm::Module &module) {
  ScopeSet inScope, inNoalias;
  for (llvm::Function &function : module)
    for (llvm::Instruction &instruction : llvm::instructions(function)) {
      addScopes(instruction.getMetadata(llvm::LLVMContext::MD_alias_scope), inScope);
      addScopes(instruction.getMetadata(llvm::LLVMContext::MD_noalias), inNoalias);
    }
  ScopeSet paired;
  for (const llvm::MDNode *scope : inScope)
    if (inNoalias.count(scope))
      paired.insert(scope);
  for (llvm::Function &function : module)
    for (llvm::Instruction &instruction : llvm::make_early_inc_range(llvm::instructions(function))) {
      if (auto *declaration = llvm::dyn_cast<llvm::NoAliasScopeDeclInst>(&instruction)) {
        if (!keepScopes(declaration->getScopeList(), paired))
          declaration->eraseFromParent();
        continue;
      }
      for (unsigned kind : {llvm::LLVMContext::MD_alias_scope, llvm::LLVMContext::MD_noalias})
        if (llvm::MDNode *list = instruction.getMetadata(kind))
          instruction.setMetadata(kind, keepScopes(list, paired));
    }
}

} // namespace

void tidyOptimizedModule(llvm::Module &module) {
  removeOneSidedAliasScopes(module);
  removeUnusedDeclarations(module);
}

} // namespace hoist
