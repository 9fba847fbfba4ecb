#include "Arch/StateLayout.h"

#include <llvm/IR/DataLayout.h>
#include <gtest/gtest.h>

#include <cstddef>

using namespace hoist;

namespace {

TEST(StateLayout, IrOffsetsMatchTheCStruct) {
  llvm::LLVMContext context;
  llvm::DataLayout layout(X86_64DataLayout);
  const llvm::StructLayout *ir = layout.getStructLayout(getStateType(context));
  size_t offsets[] = {
#define HOIST_STATE_REG(Name, Kind) offsetof(HoistState, Name),
#define HOIST_STATE_ARRAY(Name, Kind, Count) offsetof(HoistState, Name),
#include "hoist/State.def"
  };
  for (unsigned field = 0; field < HOIST_FIELD_COUNT; ++field)
    EXPECT_EQ(ir->getElementOffset(field), offsets[field])
        << "field " << stateField(static_cast<HoistStateField>(field)).name;
  EXPECT_EQ(ir->getSizeInBytes(), sizeof(HoistState));
}

TEST(StateLayout, TableNamesAndCounts) {
  EXPECT_STREQ(stateField(HOIST_FIELD_RAX).name, "RAX");
  EXPECT_EQ(stateField(HOIST_FIELD_YMM).count, 16u);
  EXPECT_EQ(stateField(HOIST_FIELD_ST).kind, StateKind::F80);
  EXPECT_EQ(stateField(HOIST_FIELD_K).count, 8u);
  EXPECT_EQ(stateField(HOIST_FIELD_ZMM_HI256).count, 16u);
  EXPECT_EQ(stateField(HOIST_FIELD_HI16_ZMM).kind, StateKind::V512);
}

} // namespace
