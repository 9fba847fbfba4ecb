#include "Brighten/InferredImports.h"

#include "Brighten/CallShim.h"
#include "Brighten/ImportPrototypes.h"
#include "Brighten/LocalFrame.h"
#include "Brighten/Signature.h"
#include "Lift/CallTargets.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/Support/FormatVariadic.h>

namespace hoist {
namespace {

constexpr unsigned ReportedVectors = 8;   // XMM0-7: the most either convention passes in

/// Whether the caller set up `value` for the call: neither its own entry value of the
/// register nor undefined.
bool setUp(const llvm::Value *value, HoistStateField field, unsigned element) {
  // An XMM register arrives as the lanes of its 128 bits.
  while (const auto *cast = llvm::dyn_cast<llvm::BitCastOperator>(value))
    value = cast->getOperand(0);
  return !llvm::isa<llvm::UndefValue>(value) && !isProbeEntryValue(value, field, element);
}

} // namespace

bool needsInferredPrototype(const llvm::Function &import) {
  llvm::Attribute name = import.getFnAttribute("hoist-import");
  if (!name.isValid())
    return false;
  // Only names no header declares: a declared one that brightening cannot call (long
  // double, a struct by value, variadic) must not get an integer prototype guessed instead.
  // An import by ordinal ("#12") has no name to call it by.
  llvm::StringRef imported = name.getValueAsString();
  return !imported.starts_with("#") && !isDeclaredImport(imported, importLibrary(import));
}

KnownCallees argumentReporters(llvm::Module &module,
                               const std::set<const llvm::Function *> &imports,
                               CallingConvention convention) {
  Signature reported;
  for (HoistStateField field : integerArgumentRegisters(convention))
    reported.arguments.push_back({field, 0, 64, false});
  for (unsigned i = 0; i < ReportedVectors; ++i)
    reported.arguments.push_back({HOIST_FIELD_YMM, i, 128, true, false, false, VectorShape::Int2});
  reported.returnBits = 64;
  llvm::FunctionType *type = functionTypeFor(reported, module.getContext());
  KnownCallees reporters;
  for (const llvm::Function *import : imports) {
    auto *reporter = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                                            "__hoist_argument_report." + import->getName(),
                                            module);
    reporter->addFnAttr(llvm::Attribute::NoUnwind);
    reporters[import] = {reporter, reported};
  }
  return reporters;
}

std::map<const llvm::Function *, std::variant<unsigned, std::string>>
readArgumentReports(llvm::Function &probe, const KnownCallees &reporters,
                    CallingConvention convention) {
  llvm::ArrayRef<HoistStateField> integers = integerArgumentRegisters(convention);
  std::map<const llvm::Function *, const llvm::Function *> importOf;
  std::map<const llvm::Function *, std::variant<unsigned, std::string>> found;
  for (const auto &[import, reporter] : reporters) {
    importOf[reporter.function] = import;
    found.emplace(import, 0u);
  }
  for (llvm::Instruction &instruction : llvm::instructions(probe)) {
    auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
    auto import = call ? importOf.find(call->getCalledFunction()) : importOf.end();
    if (import == importOf.end())
      continue;
    std::variant<unsigned, std::string> &result = found[import->second];
    if (std::holds_alternative<std::string>(result))
      continue;
    for (unsigned i = 0; i < ReportedVectors; ++i)
      if (setUp(call->getArgOperand(integers.size() + i), HOIST_FIELD_YMM, i)) {
        result = llvm::formatv("is called with XMM{0} set up: a floating-point argument, "
                               "which an inferred prototype does not take",
                               i)
                     .str();
        break;
      }
    if (std::holds_alternative<std::string>(result))
      continue;
    for (unsigned i = 0; i < integers.size(); ++i)
      if (setUp(call->getArgOperand(i), integers[i], 0))
        result = std::max(std::get<unsigned>(result), i + 1);
  }
  return found;
}

void eraseArgumentReporters(const KnownCallees &reporters) {
  for (const auto &[import, reporter] : reporters)
    reporter.function->eraseFromParent();
}

} // namespace hoist
