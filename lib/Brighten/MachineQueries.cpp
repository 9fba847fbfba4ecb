#include "Brighten/MachineQueries.h"

#include "Brighten/LocalFrame.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>

#include <array>
#include <vector>

namespace hoist {
namespace {

/// An instruction, the 32-bit registers it reads and those it writes (zero-extending them), as
/// runtime/machine.c executes it.
struct MachineQuery {
  const char *intrinsic;
  const char *instruction;
  std::vector<HoistStateField> reads;
  std::vector<HoistStateField> writes;
};

const std::array<MachineQuery, 4> &machineQueries() {
  static const std::array<MachineQuery, 4> queries = {{
      {"__hoist_cpuid", "cpuid", {HOIST_FIELD_RAX, HOIST_FIELD_RCX},
       {HOIST_FIELD_RAX, HOIST_FIELD_RBX, HOIST_FIELD_RCX, HOIST_FIELD_RDX}},
      {"__hoist_xgetbv", "xgetbv", {HOIST_FIELD_RCX}, {HOIST_FIELD_RAX, HOIST_FIELD_RDX}},
      {"__hoist_rdtsc", "rdtsc", {}, {HOIST_FIELD_RAX, HOIST_FIELD_RDX}},
      {"__hoist_rdtscp", "rdtscp", {}, {HOIST_FIELD_RAX, HOIST_FIELD_RDX, HOIST_FIELD_RCX}},
  }};
  return queries;
}

const MachineQuery *queryOf(const llvm::CallBase &call) {
  const llvm::Function *callee = call.getCalledFunction();
  if (!callee || call.arg_size() != 3)
    return nullptr;
  for (const MachineQuery &query : machineQueries())
    if (callee->getName() == query.intrinsic)
      return &query;
  return nullptr;
}

/// The inline-assembly constraint of a 32-bit register.
std::string registerConstraint(HoistStateField field) {
  switch (field) {
  case HOIST_FIELD_RAX: return "{ax}";
  case HOIST_FIELD_RBX: return "{bx}";
  case HOIST_FIELD_RCX: return "{cx}";
  default: return "{dx}";
  }
}

} // namespace

bool isMachineQuery(const llvm::CallBase &call) { return queryOf(call) != nullptr; }

void expandMachineQuery(llvm::CallBase &call) {
  const MachineQuery &query = *queryOf(call);
  llvm::IRBuilder<> builder(&call);
  llvm::Type *i32 = builder.getInt32Ty();
  llvm::Value *state = call.getArgOperand(0);
  std::string constraints;
  for (HoistStateField field : query.writes)
    constraints += "=" + registerConstraint(field) + ",";
  std::vector<llvm::Value *> inputs;
  for (HoistStateField field : query.reads) {
    constraints += registerConstraint(field) + ",";
    inputs.push_back(builder.CreateLoad(i32, stateFieldPointer(builder, state, field)));
  }
  constraints += "~{dirflag},~{fpsr},~{flags}";
  auto *results = llvm::StructType::get(builder.getContext(),
                                        std::vector<llvm::Type *>(query.writes.size(), i32));
  auto *type = llvm::FunctionType::get(results, std::vector<llvm::Type *>(inputs.size(), i32),
                                       false);
  // Side effects: each rdtsc reads a new time, and cpuid serializes.
  llvm::Value *answer = builder.CreateCall(
      llvm::InlineAsm::get(type, query.instruction, constraints, /*hasSideEffects=*/true),
      inputs);
  for (auto [index, field] : llvm::enumerate(query.writes))
    builder.CreateStore(
        builder.CreateZExt(builder.CreateExtractValue(answer, unsigned(index)),
                           builder.getInt64Ty()),
        stateFieldPointer(builder, state, field));
}

} // namespace hoist
