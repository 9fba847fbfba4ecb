// Lifts one explored function into an LLVM function, one LLVM block per machine block.
#pragma once

#include "Arch/WrittenVars.h"
#include "Discover/FunctionExplorer.h"
#include "hoist/Lifter.h"

#include <llvm/IR/Function.h>

#include <vector>

namespace hoist {

class DiagnosticSink;

struct FunctionLiftInput {
  const Image &image;
  const ExploredFunction &explored;
  DiagnosticSink &diagnostics;
  LiftStats &stats;
  /// Tests: the variables the function is assumed to write, instead of the decoder's word
  /// (varsWrittenBy), to exercise the lift again when the assumption fails.
  const VarSet *assumedWrites = nullptr;
  /// Tag the values written into RSP from a register operand (StackPointerWriteMetadata), as
  /// brightening needs: with the instruction addresses' metadata (LiftOptions::pcMetadata).
  bool tagStackPointerWrites = false;
};

/// Fills `function` (declared `void (ptr noalias, ptr noalias)`, empty) with the lifted code,
/// and returns its instruction-to-address map (Lifter::instructionAddresses).
std::vector<InstructionAddress> liftExploredFunction(const FunctionLiftInput &input,
                                                     llvm::Function &function);

} // namespace hoist
