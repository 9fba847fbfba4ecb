#include "Brighten/Brighten.h"

#include "Arch/StateLayout.h"
#include "Brighten/ImageData.h"
#include "Brighten/LocalFrame.h"
#include "Brighten/PromoteStack.h"
#include "Brighten/Signature.h"
#include "Support/Diagnostics.h"
#include "hoist/Image.h"
#include "hoist/Optimize.h"

#include <llvm/IR/Instructions.h>
#include <llvm/Support/FormatVariadic.h>

namespace hoist {
namespace {

struct Candidate {
  llvm::Function *lifted;
  uint64_t address;
  llvm::Function *flat = nullptr;
  llvm::Function *probe = nullptr;
  Signature signature = {};
};

/// The address in a lifted function's name "fn_<hex>", or nullopt for other functions.
std::optional<uint64_t> liftedAddress(const llvm::Function &function) {
  uint64_t address = 0;
  llvm::StringRef name = function.getName();
  if (function.isDeclaration() || !name.consume_front("fn_") || name.getAsInteger(16, address))
    return std::nullopt;
  return address;
}

/// The fixpoint with PromoteStack in every round: State and stack dissolve in the probes and
/// the brightened functions alike.
void simplify(llvm::Module &module, const Image &image) {
  OptimizeOptions options{.level = 1};
  options.addRoundPasses = [&image](llvm::FunctionPassManager &passes) {
    passes.addPass(PromoteStackPass());
    passes.addPass(ImageDataPass(image));
  };
  optimizeModule(module, &image, options);
}

/// iN, or float/double for a floating-point value of 32/64 bits.
llvm::Type *valueType(llvm::LLVMContext &context, unsigned bits, bool isFloat) {
  if (isFloat)
    return bits == 32 ? llvm::Type::getFloatTy(context) : llvm::Type::getDoubleTy(context);
  return llvm::IntegerType::get(context, bits);
}

/// The function with `candidate.signature`, its body the flat copy inlined against a local
/// frame whose argument registers hold the (zero-extended) arguments.
llvm::Expected<llvm::Function *> buildBrightened(Candidate &candidate,
                                                 CallingConvention convention) {
  llvm::Module &module = *candidate.lifted->getParent();
  llvm::LLVMContext &context = module.getContext();
  std::vector<llvm::Type *> parameterTypes;
  for (const Signature::Argument &argument : candidate.signature.arguments)
    parameterTypes.push_back(valueType(context, argument.bits, argument.isFloat));
  llvm::Type *returnType =
      candidate.signature.returnBits
          ? valueType(context, candidate.signature.returnBits, candidate.signature.returnsFloat)
          : llvm::Type::getVoidTy(context);
  auto *function = llvm::Function::Create(
      llvm::FunctionType::get(returnType, parameterTypes, false),
      llvm::GlobalValue::ExternalLinkage, candidate.lifted->getName() + ".brightened", module);
  function->setCallingConv(llvmCallingConvention(convention));
  if (candidate.signature.returnBits && candidate.signature.returnBits < 32 &&
      !candidate.signature.returnsFloat)
    function->addRetAttr(llvm::Attribute::ZExt);

  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", function));
  std::vector<RegisterInput> inputs;
  // Registers that are not arguments stay uninitialized: callee-saved ones are only saved and
  // restored (the probe checked), the others are not read before written.
  for (auto [argument, parameter] : llvm::zip(candidate.signature.arguments, function->args())) {
    if (argument.isFloat) {
      // The low lane of the XMM register; the other lanes stay uninitialized.
      parameter.setName("xmm" + std::to_string(argument.element));
      inputs.push_back({argument.field, argument.element,
                        builder.CreateBitCast(&parameter, builder.getIntNTy(argument.bits))});
      continue;
    }
    parameter.setName(llvm::StringRef(stateField(argument.field).name).lower());
    inputs.push_back({argument.field, 0, builder.CreateZExt(&parameter, builder.getInt64Ty())});
  }
  llvm::Expected<llvm::AllocaInst *> state =
      emitLocalFrameCall(builder, *candidate.flat, inputs, convention);
  if (!state)
    return state.takeError();
  if (returnType->isVoidTy()) {
    builder.CreateRetVoid();
    return function;
  }
  if (candidate.signature.returnsFloat) {
    llvm::Value *lane = builder.CreateLoad(builder.getIntNTy(candidate.signature.returnBits),
                                           stateFieldPointer(builder, *state, HOIST_FIELD_YMM, 0));
    builder.CreateRet(builder.CreateBitCast(lane, returnType));
    return function;
  }
  llvm::Value *rax =
      builder.CreateLoad(builder.getInt64Ty(), stateFieldPointer(builder, *state, HOIST_FIELD_RAX));
  builder.CreateRet(builder.CreateTrunc(rax, returnType));
  return function;
}

} // namespace

llvm::Expected<BrightenReport> brightenModule(llvm::Module &module, const Image &image,
                                              CallingConvention convention,
                                              DiagnosticSink &diagnostics) {
  BrightenReport report;
  auto decline = [&](const Candidate &candidate, const std::string &reason) {
    std::string name = candidate.lifted->getName().str();
    if (std::optional<std::string> symbol = image.nameAt(candidate.address))
      name += " (" + *symbol + ")";
    diagnostics.warning("brighten-declined", candidate.address,
                        llvm::formatv("{0}: not brightened ({1}): {2}", name,
                                      callingConventionName(convention), reason));
    ++report.declined;
  };

  std::vector<Candidate> candidates;
  std::vector<llvm::Function *> lifted;
  for (llvm::Function &function : module)
    lifted.push_back(&function);
  for (llvm::Function *function : lifted) {
    std::optional<uint64_t> address = liftedAddress(*function);
    if (!address)
      continue;
    Candidate candidate{function, *address};
    if (std::optional<std::string> reason = whyNotBrightenable(*function)) {
      decline(candidate, *reason);
      continue;
    }
    candidate.flat = makeFlatCopy(*function);
    llvm::Expected<llvm::Function *> probe = buildSignatureProbe(*candidate.flat, convention);
    if (!probe)
      return probe.takeError();
    candidate.probe = *probe;
    candidates.push_back(candidate);
  }
  if (candidates.empty())
    return report;
  simplify(module, image);

  std::vector<Candidate> accepted;
  for (Candidate &candidate : candidates) {
    std::variant<Signature, std::string> signature =
        readSignatureProbe(*candidate.probe, convention);
    candidate.probe->eraseFromParent();
    if (auto *reason = std::get_if<std::string>(&signature)) {
      decline(candidate, *reason);
      candidate.flat->eraseFromParent();
      continue;
    }
    candidate.signature = std::get<Signature>(signature);
    accepted.push_back(candidate);
  }
  if (llvm::Function *sink = module.getFunction("__hoist_probe_result"); sink && sink->use_empty())
    sink->eraseFromParent();

  for (Candidate &candidate : accepted) {
    llvm::Expected<llvm::Function *> brightened = buildBrightened(candidate, convention);
    if (!brightened)
      return brightened.takeError();
    candidate.flat->eraseFromParent();
    // The lifted function stays while lifted code calls it; the brightened one then keeps
    // the ".brightened" name unless the image names the address.
    std::optional<std::string> symbol = image.nameAt(candidate.address);
    std::string liftedName = candidate.lifted->getName().str();
    if (candidate.lifted->use_empty()) {
      candidate.lifted->eraseFromParent();
      (*brightened)->setName(symbol.value_or(liftedName));
    } else if (symbol) {
      (*brightened)->setName(*symbol);
    }
    report.brightened.push_back((*brightened)->getName().str());
  }
  simplify(module, image);
  return report;
}

} // namespace hoist
