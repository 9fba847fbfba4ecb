// The IRBuilder the lifter emits with: LLVM's, except that an instruction is not named when
// the context discards value names (the default; `hoist lift --names` keeps them).
// Value::setName costs about 40 machine instructions even when it then drops the name, called
// for every IR instruction: 3.7% of the raw lift (docs/PERFORMANCE.md, fifth pass).
#pragma once

#include <llvm/IR/IRBuilder.h>

namespace hoist {

class NamelessWhenDiscardingInserter final : public llvm::IRBuilderDefaultInserter {
public:
  void InsertHelper(llvm::Instruction *instruction, const llvm::Twine &name,
                    llvm::BasicBlock::iterator insertPoint) const override {
    if (insertPoint.isValid())
      instruction->insertInto(insertPoint.getNodeParent(), insertPoint);
    // Most instructions are made without a name: those skip the context's look-up too.
    if (!name.isTriviallyEmpty() && !instruction->getContext().shouldDiscardValueNames())
      instruction->setName(name);
  }
};

using LiftBuilder = llvm::IRBuilder<llvm::ConstantFolder, NamelessWhenDiscardingInserter>;

} // namespace hoist
