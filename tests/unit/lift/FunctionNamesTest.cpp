// The address a lifted function carries (`!hoist.entry`) and the names it takes without a
// symbol (lib/Lift/FunctionNames.cpp; the symbol rules are tested on binaries in
// tests/lit/lift/function-names.test).
#include "Lift/CallTargets.h"
#include "hoist/Lifter.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <gtest/gtest.h>

#include <vector>

using namespace hoist;

namespace {

struct Fixture {
  std::unique_ptr<Image> image = Image::fromRawBytes(std::vector<uint8_t>{0xc3, 0xc3}, 0x1000);
  llvm::LLVMContext context;
  llvm::Module module{"names", context};
};

TEST(FunctionNames, WithoutASymbolTheNameIsTheAddress) {
  Fixture f;
  EXPECT_EQ(liftedFunctionName(*f.image, 0x1001), "fn_1001");
  llvm::Function *function = declareLiftedFunction(f.module, *f.image, 0x1001);
  EXPECT_EQ(function->getName(), "fn_1001");
  EXPECT_EQ(entryAddressOf(*function), 0x1001u);
  EXPECT_EQ(declareLiftedFunction(f.module, *f.image, 0x1001), function);
  EXPECT_EQ(findLiftedFunction(f.module, *f.image, 0x1001), function);
  EXPECT_EQ(findLiftedFunction(f.module, *f.image, 0x1000), nullptr);
}

TEST(FunctionNames, TheAddressComesFromMetadataNotFromTheName) {
  Fixture f;
  llvm::Function *named = declareLiftedFunction(f.module, 0x1000, "classify");
  EXPECT_EQ(entryAddressOf(*named), 0x1000u);
  // A function called fn_<hex> that Hoist did not declare has no entry.
  auto *other = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(f.context), false),
                                       llvm::GlobalValue::ExternalLinkage, "fn_2000", f.module);
  EXPECT_EQ(entryAddressOf(*other), std::nullopt);
}

TEST(FunctionNames, DeletingTheBodyKeepsTheEntry) {
  Fixture f;
  llvm::Function *function = declareLiftedFunction(f.module, *f.image, 0x1000);
  llvm::BasicBlock::Create(f.context, "entry", function);
  llvm::ReturnInst::Create(f.context, &function->getEntryBlock());
  deleteLiftedBody(*function);
  EXPECT_TRUE(function->isDeclaration());
  EXPECT_EQ(entryAddressOf(*function), 0x1000u);
}

TEST(FunctionNames, LiftedFunctionsWithBodiesBecomeLocalButBrightenedOnesStay) {
  Fixture f;
  llvm::Function *lifted = declareLiftedFunction(f.module, *f.image, 0x1000);
  llvm::ReturnInst::Create(f.context, llvm::BasicBlock::Create(f.context, "entry", lifted));
  llvm::Function *brightened = declareLiftedFunction(f.module, 0x1001, "leaf");
  llvm::ReturnInst::Create(f.context, llvm::BasicBlock::Create(f.context, "entry", brightened));
  llvm::Function *declared = declareLiftedFunction(f.module, 0x1002, "elsewhere");
  keepLiftedFunctionsLocal(f.module, {"leaf"});
  EXPECT_TRUE(lifted->hasInternalLinkage());
  EXPECT_TRUE(brightened->hasExternalLinkage());
  EXPECT_TRUE(declared->hasExternalLinkage());
}

} // namespace
