#include "Brighten/Brighten.h"

#include "Arch/StateLayout.h"
#include "Brighten/BrightenOrder.h"
#include "Brighten/CallShim.h"
#include "Brighten/ClobberedRdx.h"
#include "Brighten/ExitingErrorCalls.h"
#include "Brighten/SecondResult.h"
#include "Brighten/FoldNanPropagation.h"
#include "Brighten/InvariantStackGuard.h"
#include "Brighten/ImageData.h"
#include "Brighten/ImageReferences.h"
#include "Brighten/ImportPrototypes.h"
#include "Brighten/ImportSlots.h"
#include "Brighten/CodePointers.h"
#include "Brighten/IndirectCalls.h"
#include "Brighten/InferredImports.h"
#include "Brighten/InjectedFault.h"
#include "Brighten/LocalFrame.h"
#include "Brighten/PromoteStack.h"
#include "Brighten/Signature.h"
#include "Brighten/SplitStack.h"
#include "Brighten/StackBound.h"
#include "Brighten/StackProtector.h"
#include "Brighten/TakenAddresses.h"
#include "Brighten/VariadicCalls.h"
#include "Lift/CallTargets.h"
#include "Lift/Intrinsics.h"
#include "Passes/ForwardReloads.h"
#include "Passes/ImpossibleSwitchDefaults.h"
#include "Support/Diagnostics.h"
#include "hoist/Image.h"
#include "hoist/Optimize.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Transforms/Scalar/CorrelatedValuePropagation.h>

#include <set>

namespace hoist {
namespace {

/// Rounds of signature inference within a recursive SCC before giving up: each round can only
/// reveal what the previous round's signatures passed or returned, one call further round the
/// cycle (less's 82-function group settles in 8; long-cycle.test needs 10).
constexpr unsigned MaxSignatureRounds = 24;

/// A lifted function being brightened: its address, and once its SCC is done, the brightened
/// function that replaces it.
struct Candidate {
  llvm::Function *lifted;
  uint64_t address;
  llvm::Function *brightened = nullptr;
  Signature signature = {};
};

/// The entry of a lifted function with a body, or nullopt for other functions.
std::optional<uint64_t> liftedAddress(const llvm::Function &function) {
  if (function.isDeclaration() || function.hasFnAttribute(BrightenedAttribute))
    return std::nullopt;
  return entryAddressOf(function);
}

/// The fixpoint with PromoteStack and ImageData in every round, over the functions `select`
/// accepts (all without it): State and stack dissolve in the probes and the brightened
/// functions alike.
void simplify(llvm::Module &module, const Image &image, const FixpointExtras &extras,
              std::function<bool(const llvm::Function &)> select = nullptr) {
  OptimizeOptions options{.level = 1};
  options.roundPasses = extras.roundPasses;
  options.roundPasses.push_back([&image](llvm::FunctionPassManager &passes) {
    passes.addPass(PromoteStackPass());
    passes.addPass(SplitStackPass());
    passes.addPass(ImageDataPass(image));
    passes.addPass(FoldNanPropagationPass());
    passes.addPass(InvariantStackGuardPass());
    passes.addPass(ExitingErrorCallsPass());
    // Ranges that make a jump table's default (its __hoist_jmp) unreachable once the index
    // is out of the stack (-O1 has no CVP), also where InstCombine made the index an `and`
    // of a register whose truncation the bounds check compared.
    passes.addPass(ForwardReloadsPass());
    passes.addPass(llvm::CorrelatedValuePropagationPass());
    passes.addPass(ImpossibleSwitchDefaultsPass());
  });
  options.selectFunctions = std::move(select);
  optimizeModule(module, &image, options);
}

/// A function of `signature`'s type and `convention`, without a body yet: callers in its SCC
/// call it before it is defined.
llvm::Function *declareBrightened(const llvm::Function &lifted, const Signature &signature,
                                  CallingConvention convention, llvm::StringRef suffix) {
  llvm::Module &module = *const_cast<llvm::Module *>(lifted.getParent());
  auto *function =
      llvm::Function::Create(functionTypeFor(signature, module.getContext()),
                             llvm::GlobalValue::ExternalLinkage, lifted.getName() + suffix, module);
  function->setCallingConv(llvmCallingConvention(convention));
  function->addFnAttr(BrightenedAttribute);
  if (std::optional<uint64_t> entry = entryAddressOf(lifted))
    setEntryAddress(*function, *entry);
  if (signature.noReturn)
    function->setDoesNotReturn();
  return function;
}

/// The body of `function` (declareBrightened): `flat` inlined against a local frame whose
/// argument registers and stack slots hold the (zero-extended) arguments.
llvm::Error defineBrightened(llvm::Function &function, llvm::Function &flat,
                             const Signature &signature, CallingConvention convention) {
  llvm::LLVMContext &context = function.getContext();
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", &function));
  std::vector<RegisterInput> inputs;
  std::vector<llvm::Value *> stackArguments;
  // Registers that are not arguments stay uninitialized, but for RAX, R10, R11 and the
  // callee-saved ones, which start at zero: the probe let through only their saves and
  // restores, bits of them nothing depends on (`setne %r15b`), values no effect sees on a path
  // the code can take (GuardedValues.h), and RAX's upper bits merged into a bool result, all
  // computed from zero there too (readSignatureProbe).
  // A variadic prologue's AL (Signature::takesAl): 8, every vector register saved.
  inputs.push_back({HOIST_FIELD_RAX, 0,
                    builder.getInt64(signature.vectorCountInAl && !signature.takesAl ? 8 : 0)});
  for (HoistStateField field : {HOIST_FIELD_R10, HOIST_FIELD_R11})
    inputs.push_back({field, 0, builder.getInt64(0)});
  for (HoistStateField field : {HOIST_FIELD_RBX, HOIST_FIELD_RBP, HOIST_FIELD_R12, HOIST_FIELD_R13,
                                HOIST_FIELD_R14, HOIST_FIELD_R15, HOIST_FIELD_RDI, HOIST_FIELD_RSI})
    if (isCalleeSaved(field, convention))
      inputs.push_back({field, 0, builder.getInt64(0)});
  for (auto [argument, parameter] : llvm::zip(signature.arguments, function.args())) {
    llvm::Value *bits = &parameter;
    if (argument.isFloat)
      bits = builder.CreateBitCast(&parameter, builder.getIntNTy(argument.bits));
    else if (argument.isPointer)
      bits = builder.CreatePtrToInt(&parameter, builder.getInt64Ty());
    if (argument.onStack) {
      parameter.setName("stack" + std::to_string(argument.element));
      stackArguments.resize(argument.element + 1, builder.getInt64(0));
      stackArguments[argument.element] = builder.CreateZExt(bits, builder.getInt64Ty());
    } else if (argument.isFloat) {
      // The low lane of the XMM register; the other lanes stay uninitialized.
      parameter.setName("xmm" + std::to_string(argument.element));
      inputs.push_back({argument.field, argument.element, bits});
    } else {
      parameter.setName(llvm::StringRef(stateField(argument.field).name).lower());
      inputs.push_back({argument.field, 0, builder.CreateZExt(bits, builder.getInt64Ty())});
    }
  }
  // The signature probe let the FS base through only to load the stack protector's guard
  // (readSignatureProbe): the thread pointer, which the x86-64 TLS ABI stores at %fs:0, reaches
  // the same guard in the recompiled program. Loaded only where used: the optimizer deletes it.
  if (convention == CallingConvention::SysV)
    inputs.push_back({HOIST_FIELD_FS_BASE, 0, loadThreadPointer(builder)});
  llvm::Expected<llvm::AllocaInst *> state =
      emitLocalFrameCall(builder, flat, inputs, stackArguments, convention);
  if (!state)
    return state.takeError();
  llvm::Type *returnType = function.getReturnType();
  if (returnType->isVoidTy()) {
    builder.CreateRetVoid();
  } else if (returnType->isStructTy()) {
    llvm::Value *result = llvm::PoisonValue::get(returnType);
    for (auto [index, reg] : llvm::enumerate(resultRegisters(signature))) {
      llvm::Type *element = returnType->getStructElementType(unsigned(index));
      llvm::Value *value = builder.CreateLoad(
          builder.getIntNTy(element->getPrimitiveSizeInBits()),
          stateFieldPointer(builder, *state, reg.field, reg.element));
      result = builder.CreateInsertValue(result, builder.CreateBitCast(value, element),
                                         unsigned(index));
    }
    builder.CreateRet(result);
  } else if (signature.returnsFloat) {
    llvm::Value *lane = builder.CreateLoad(builder.getIntNTy(signature.returnBits),
                                           stateFieldPointer(builder, *state, HOIST_FIELD_YMM, 0));
    builder.CreateRet(builder.CreateBitCast(lane, returnType));
  } else {
    llvm::Value *rax = builder.CreateLoad(builder.getInt64Ty(),
                                          stateFieldPointer(builder, *state, HOIST_FIELD_RAX));
    builder.CreateRet(builder.CreateTrunc(rax, returnType));
  }
  return llvm::Error::success();
}

/// Brightens a module's lifted functions SCC by SCC, callees first.
class ModuleBrightener {
public:
  ModuleBrightener(llvm::Module &module, const Image &image, CallingConvention convention,
                   const FixpointExtras &extras, BrightenOutput output,
                   DiagnosticSink &diagnostics)
      : module_(module), image_(image), convention_(convention), extras_(extras),
        output_(output), diagnostics_(diagnostics) {}

  llvm::Expected<BrightenReport> run();

private:
  void decline(const Candidate &candidate, const std::string &reason);
  /// Whether code outside the image may call the function at `address`: an export.
  bool isExported(uint64_t address) const;
  /// Points the carried data's slots at the brightened functions held there so far
  /// (heldBrightened_): always, or only where a carried global was made since the last time.
  void pointHeldSlots(bool always);
  /// takenCodeAddresses over the lifted functions, computed at its first use.
  const std::set<uint64_t> &takenAddresses();
  /// Warns of carried data a brightened function reads whose slots hold the entries of
  /// functions that are not brightened.
  void warnOfUnmappedSlots(const UnmappedSlots &slots,
                           const std::set<const llvm::Function *> &brightened);
  /// Warns of the jump tables of a brightened function whose end was inferred from their
  /// entries: its brightened form traps on an index past them (LocalFrame.cpp).
  void warnOfTableEnds(const Candidate &candidate);
  /// Warns where the brightened function checks a stack it grows by a computed amount.
  void warnOfStackBounds(const Candidate &candidate);
  std::optional<std::string> whyNotCallable(const llvm::Function &callee);
  /// Keeps RDX as the second result of `signature` only where its callers may read it
  /// (SecondResult.h), or says why the function is declined.
  std::optional<std::string> settleSecondResult(const Candidate &member, Signature &signature);
  /// How many low bits of RAX the callers of `member` read after a call (SecondResult.h); 64
  /// outside SysV.
  unsigned raxBitsReadByCallers(const Candidate &member);
  /// whyNotCallable of the callee, and for a variadic import's call, whether its format told
  /// what it passes (resolveVariadicCalls).
  std::optional<std::string> whyNotCallable(const llvm::CallBase &call);
  /// Gives each call of `member` to a variadic import with a format the signature its format
  /// says it passes (VariadicCalls.h), or records why not.
  void resolveVariadicCalls(const Candidate &member);
  /// A signature probe of `member` in which the calls of `imports` are reporters
  /// (InferredImports.h), simplified and given to `read` before it is erased.
  void probeWithReporters(const Candidate &member,
                          const std::set<const llvm::Function *> &imports,
                          llvm::function_ref<void(llvm::Function &, const KnownCallees &)> read);
  /// Turns the unresolved calls of `member` into calls of imports if a resolution probe
  /// shows each calls an import (IndirectCalls.h); else leaves them for screen to decline.
  void resolveImportCalls(const Candidate &member);
  /// Makes the imports without a known prototype that `member` calls callable with one
  /// inferred from its calls (InferredImports.h), or records why not.
  void inferImportPrototypes(const Candidate &member);
  /// Makes the known callees of `member` callable, so that a flat copy of it calls them
  /// typed (what stays unknown may change anything).
  void prepareCallees(const Candidate &member);
  /// Declines the members that call what cannot be called, and their callers in the SCC.
  void screen(std::vector<Candidate> &members);
  /// Infers the members' signatures; declines those that cannot be brightened. Returns the
  /// signatures of the rest, which stay in `members`.
  llvm::Expected<std::map<llvm::Function *, Signature>>
  inferSignatures(std::vector<Candidate> &members);
  llvm::Error brightenScc(std::vector<Candidate> members);
  /// Whether the code address `address`, held in carried data a member reads as a value, is
  /// (or may still become) a brightened function's entry; one not decided yet is recorded in
  /// `assumed`, to be checked once every function is (retractUnkeptAssumptions).
  bool isBrightenedEntry(uint64_t address, std::set<uint64_t> &assumed) const;
  /// The name a brightened function takes: the image's symbol at its address, `main` too (a
  /// brightened function has the C signature and links in the symbol's place), unless several
  /// addresses share the symbol; else its lifted function's name (liftedFunctionName).
  std::string brightenedName(const Candidate &candidate) const;
  /// Declines the brightened functions that assumed an entry brightened which was not, and
  /// the brightened functions that call or refer to a declined one, until none is left.
  void retractUnkeptAssumptions();
  /// makeFlatCopy, with the addresses of image data the code computes made pointers into the
  /// globals that carry it (ImageReferences.h). With `everyImportSlot`, the slots of imports
  /// without a known prototype read as their addresses too (for a resolution probe, which
  /// only looks at call targets).
  /// `resolving`: for a resolution probe, which models the unresolved calls and reads every
  /// import slot (resolveImportCalls).
  llvm::Function *flatCopy(llvm::Function &lifted, const KnownCallees &callees,
                           bool resolving = false);

  llvm::Module &module_;
  const Image &image_;
  CallingConvention convention_;
  FixpointExtras extras_;
  BrightenOutput output_;
  DiagnosticSink &diagnostics_;
  BrightenReport report_;
  /// Brightened functions and imports with prototypes, by the function lifted code calls.
  KnownCallees callees_;
  std::map<const llvm::Function *, std::string> uncallable_;
  /// Why a call of a variadic import (by its address) passes what is not known.
  std::map<uint64_t, std::string> untypedVariadicCalls_;
  /// The SCC in progress: calls between its members are allowed.
  std::set<const llvm::Function *> scc_;
  /// The image's direct calls and jumps, found once where a signature's RDX needs them.
  std::optional<CallSites> callSites_;
  /// The module's lifted functions by their entry address.
  std::map<uint64_t, llvm::Function *> liftedAt_;
  std::vector<Candidate> done_;
  /// The original entries of the functions in done_.
  std::set<uint64_t> brightenedEntries_;
  /// Per brightened function (lifted), the entries held in data it reads that were not decided
  /// when it was: a handler table's reader called from a handler (tar's).
  std::map<const llvm::Function *, std::set<uint64_t>> assumedEntries_;
  std::optional<std::set<uint64_t>> takenAddresses_;
  /// The local stacks larger than LocalStackBytes, by lifted function: its probe addressed
  /// the stack below a smaller one (inferSignatures).
  std::map<const llvm::Function *, uint64_t> localStackBytes_;
  /// The brightened functions whose entries carried data holds, by original address.
  std::map<uint64_t, llvm::Function *> heldBrightened_;
  size_t globalsPointed_ = 0;
};

llvm::Function *ModuleBrightener::flatCopy(llvm::Function &lifted, const KnownCallees &callees,
                                           bool resolving) {
  llvm::Function *flat =
      makeFlatCopy(lifted, callees, convention_,
                   resolving ? UnresolvedCallForm::Modeled : UnresolvedCallForm::ThroughPointer);
  if (checksTheStackGuardIn(lifted, image_, HOIST_FIELD_RAX))
    flat->addFnAttr(GuardCheckInRaxAttribute);
  if (checksTheStackGuardIn(lifted, image_, HOIST_FIELD_RDX))
    flat->addFnAttr(GuardCheckInRdxAttribute);
  if (auto stack = localStackBytes_.find(&lifted); stack != localStackBytes_.end())
    flat->addFnAttr(LocalStackBytesAttribute, std::to_string(stack->second));
  replaceImportSlotLoads(*flat, image_, resolving);
  // The entry of a function brightened already (or a member of the SCC in progress) is that
  // function: brighteningOrder took the functions whose addresses this one holds first.
  auto functionAt = [&](uint64_t address) -> llvm::Function * {
    auto lifted = liftedAt_.find(address);
    if (lifted == liftedAt_.end())
      return nullptr;
    auto known = callees.find(lifted->second);
    return known == callees.end() ? nullptr : known->second.function;
  };
  rewriteImageAddresses(*flat, imageReferenceSites(lifted, image_), image_, functionAt);
  // A carried global the rewrite just made starts with the original addresses.
  pointHeldSlots(false);
  return flat;
}

void ModuleBrightener::warnOfStackBounds(const Candidate &candidate) {
  for (uint64_t growth : undecidedStackBounds(*candidate.brightened))
    diagnostics_.warning(
        "brighten-stack-bound", growth,
        llvm::formatv("{0}: the stack grows at {1:x} by an amount the code computes (a "
                      "variable-length array, alloca); past the brightened function's local "
                      "stack ({2} KiB unless its frame needs more) it traps",
                      brightenedName(candidate), growth, LocalStackBytes / 1024));
}

void ModuleBrightener::warnOfTableEnds(const Candidate &candidate) {
  for (const llvm::Instruction &instruction : llvm::instructions(*candidate.lifted)) {
    const llvm::MDNode *tableEnd = instruction.getMetadata(TableEndMetadata);
    if (!tableEnd)
      continue;
    uint64_t entries =
        llvm::mdconst::extract<llvm::ConstantInt>(tableEnd->getOperand(0))->getZExtValue();
    uint64_t jump = pcOf(instruction);
    diagnostics_.warning(
        "brighten-table-end", jump,
        llvm::formatv("{0}: nothing bounds the index of the jump table at {1:x}; its {2} "
                      "entries up to the first that is not code of the function are its cases, "
                      "and a larger index traps (the machine code would jump to what it loads "
                      "past them)",
                      brightenedName(candidate), jump, entries));
  }
}

void ModuleBrightener::warnOfUnmappedSlots(const UnmappedSlots &slots,
                                           const std::set<const llvm::Function *> &brightened) {
  // Data no brightened function reads (a probe's, or a declined function's) is dropped.
  // Through constant expressions, not through other globals' initializers (a section's
  // slots point into sections, itself included).
  llvm::SmallVector<const llvm::User *, 8> pending(slots.global->users());
  std::set<const llvm::User *> seen;
  bool read = false;
  while (!pending.empty() && !read) {
    const llvm::User *next = pending.pop_back_val();
    if (!seen.insert(next).second)
      continue;
    if (const auto *instruction = llvm::dyn_cast<llvm::Instruction>(next))
      read = brightened.count(instruction->getFunction()) > 0;
    else if (llvm::isa<llvm::ConstantExpr>(next))
      pending.append(next->user_begin(), next->user_end());
  }
  std::vector<std::string> names;
  for (uint64_t target : slots.targets)
    if (auto lifted = liftedAt_.find(target); lifted != liftedAt_.end())
      names.push_back(image_.nameAt(target).value_or(lifted->second->getName().str()));
  if (!read || names.empty())
    return;
  std::string shown = llvm::join(llvm::ArrayRef(names).take_front(4), ", ");
  if (names.size() > 4)
    shown += ", ...";
  diagnostics_.warning(
      "brighten-code-pointer", slots.targets.front(),
      llvm::formatv("{0} holds the addresses of {1} functions that are not brightened ({2}): "
                    "brightened code calling one traps, and a library calling one back jumps "
                    "to the original's address",
                    slots.global->getName(), names.size(), shown));
}

void ModuleBrightener::pointHeldSlots(bool always) {
  if (heldBrightened_.empty() || (!always && module_.global_size() == globalsPointed_))
    return;
  pointSlotsAtFunctions(module_, image_, heldBrightened_);
  globalsPointed_ = module_.global_size();
}

const std::set<uint64_t> &ModuleBrightener::takenAddresses() {
  if (!takenAddresses_)
    takenAddresses_ = takenCodeAddresses(liftedAt_, image_);
  return *takenAddresses_;
}

bool ModuleBrightener::isExported(uint64_t address) const {
  return llvm::any_of(image_.exports(),
                      [&](const Export &exported) { return exported.address == address; });
}

void ModuleBrightener::decline(const Candidate &candidate, const std::string &reason) {
  // `0x401120 (current_greeting)`, or `fn_401120` without a symbol: the address either way,
  // as warnings are read beside the disassembly.
  std::string name = candidate.lifted->getName().str();
  if (name != liftedFunctionName(candidate.address))
    name = llvm::formatv("0x{0:x-} ({1})", candidate.address, name).str();
  diagnostics_.warning("brighten-declined", candidate.address,
                       llvm::formatv("{0}: not brightened ({1}): {2}", name,
                                     callingConventionName(convention_), reason));
  ++report_.declined;
  uncallable_[candidate.lifted] = "is not brightened";
}

std::optional<std::string> ModuleBrightener::whyNotCallable(const llvm::Function &callee) {
  if (callees_.count(&callee) || scc_.count(&callee))
    return std::nullopt;
  if (auto known = uncallable_.find(&callee); known != uncallable_.end())
    return known->second;
  // Only an import is called by its library name: a function the binary defines is its own,
  // whatever its name (a program's `error`, mingw's `sqrt` linked into every PE).
  llvm::Attribute import = callee.getFnAttribute("hoist-import");
  if (!import.isValid())
    return std::string("is not brightened");
  std::variant<KnownCallee, std::string> known =
      libraryCallee(module_, import.getValueAsString(), importLibrary(callee), convention_);
  if (auto *reason = std::get_if<std::string>(&known)) {
    if (needsInferredPrototype(callee))
      return *reason;   // not final: inferImportPrototypes may give it a prototype
    return uncallable_[&callee] = *reason;
  }
  callees_[&callee] = std::get<KnownCallee>(known);
  return std::nullopt;
}

std::optional<std::string> ModuleBrightener::whyNotCallable(const llvm::CallBase &call) {
  if (isUnresolvedCall(call)) {
    if (convention_ != CallingConvention::SysV)
      return std::string("brightening passes only in the SysV convention");
    return std::nullopt;
  }
  const llvm::Function &callee = *call.getCalledFunction();
  if (std::optional<std::string> reason = whyNotCallable(callee))
    return reason;
  auto known = callees_.find(&callee);
  if (known == callees_.end() || known->second.signatureAt(call))
    return std::nullopt;
  // A call the probe did not report passes everything in SysV; in Win64 it is on a path the
  // probe found dead, which the flat copy marks like an unresolved jump, declining the
  // function if the path stays live.
  auto reason = untypedVariadicCalls_.find(pcOf(call));
  if (reason == untypedVariadicCalls_.end())
    return std::nullopt;
  return "is variadic, and this call " + reason->second;
}

/// The addresses of `lifted`'s own instructions (a jump from one of them is not a caller's).
std::set<uint64_t> ownInstructions(const llvm::Function &lifted) {
  std::set<uint64_t> own;
  for (const llvm::Instruction &instruction : llvm::instructions(lifted))
    if (uint64_t pc = pcOf(instruction))
      own.insert(pc);
  return own;
}

unsigned ModuleBrightener::raxBitsReadByCallers(const Candidate &member) {
  if (convention_ != CallingConvention::SysV)
    return 64;
  if (!callSites_)
    callSites_.emplace(image_);
  return hoist::raxBitsReadByCallers(image_, *callSites_, member.address,
                                     ownInstructions(*member.lifted));
}

std::optional<std::string> ModuleBrightener::settleSecondResult(const Candidate &member,
                                                                Signature &signature) {
  if (convention_ != CallingConvention::SysV)
    return std::nullopt;
  if (!callSites_)
    callSites_.emplace(image_);
  // The function's own instructions matter only to a scan of its callers (secondResult).
  std::set<uint64_t> own;
  if (signature.returnsRdx || signature.returnsXmm1 || signature.returnsMixed ||
      signature.returnsXmm0IfRead)
    own = ownInstructions(*member.lifted);
  // The register beside the first result that a struct of an integer and an SSE eightbyte
  // adds: RAX beside a floating-point result, XMM0 beside an integer one.
  SecondRegister beside = signature.returnsFloat ? SecondRegister::Rax : SecondRegister::Xmm0;
  bool xmm0Alone = signature.returnsXmm0IfRead;
  for (auto [which, returns, name] :
       {std::tuple{SecondRegister::Rdx, &signature.returnsRdx, "RAX:RDX"},
        std::tuple{SecondRegister::Xmm1, &signature.returnsXmm1, "XMM0:XMM1"},
        std::tuple{beside, &signature.returnsMixed, "RAX and XMM0"},
        std::tuple{SecondRegister::Xmm0, &signature.returnsXmm0IfRead, "XMM0"}}) {
    if (returns == &signature.returnsXmm0IfRead && !xmm0Alone)
      continue;   // XMM0 is a result already, or RAX is
    std::variant<SecondResult, std::string> decided =
        secondResult(image_, *callSites_, member.address, own, which, *returns);
    if (auto *reason = std::get_if<std::string>(&decided))
      return *reason;
    switch (std::get<SecondResult>(decided)) {
    case SecondResult::No:
      // RAX and XMM0 both written, by a function callers may reach through a pointer, which
      // the scan of direct calls does not see: either may be what they read. mawk's builtins
      // (`CELL *bi_sqrt(CELL *)`, called from a table) leave the double they stored in XMM0
      // beside the pointer they return in RAX. (RDX and XMM1 beside a result of their own
      // class are scratch as often, and a brightened caller reading one is declined.)
      if (returns != &signature.returnsMixed || !*returns ||
          !takenAddresses().count(member.address))
        *returns = false;
      break;
    case SecondResult::IfWritten:
      break;
    case SecondResult::Required:
      if (!*returns)
        return llvm::formatv("its prototype returns a result in {0}, and at a return the "
                             "register holds no value the function computed",
                             name)
            .str();
      break;
    }
  }
  // Nobody reads XMM0 after a call: it was scratch, and the function returns nothing.
  if (xmm0Alone && !signature.returnsXmm0IfRead) {
    signature.returnsFloat = false;
    signature.returnBits = 0;
    signature.returnVector = VectorShape::None;
  }
  return std::nullopt;
}

void ModuleBrightener::probeWithReporters(
    const Candidate &member, const std::set<const llvm::Function *> &imports,
    llvm::function_ref<void(llvm::Function &, const KnownCallees &)> read) {
  KnownCallees reporters = argumentReporters(module_, imports, convention_);
  KnownCallees callees = callees_;
  for (const auto &[import, reporter] : reporters)
    callees[import] = reporter;
  llvm::Function *flat = flatCopy(*member.lifted, callees);
  llvm::Expected<llvm::Function *> probe = buildSignatureProbe(*flat, convention_);
  flat->eraseFromParent();
  if (!probe) {
    llvm::consumeError(probe.takeError());
    eraseArgumentReporters(reporters);
    return;
  }
  simplify(module_, image_, extras_,
           [&](const llvm::Function &function) { return &function == *probe; });
  read(**probe, reporters);
  (*probe)->eraseFromParent();
  eraseArgumentReporters(reporters);
}

void ModuleBrightener::resolveVariadicCalls(const Candidate &member) {
  std::set<const llvm::Function *> imports;
  for (const llvm::Instruction &instruction : llvm::instructions(*member.lifted))
    if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
      if (const llvm::Function *callee = call->getCalledFunction();
          callee && !callee->isIntrinsic() && !callee->getName().starts_with("__hoist_") &&
          !whyNotCallable(*callee))
        if (auto known = callees_.find(callee); known != callees_.end() && known->second.variadic)
          imports.insert(callee);
  if (imports.empty())
    return;
  prepareCallees(member);
  std::map<uint64_t, std::pair<const llvm::Function *, std::variant<Signature, std::string>>>
      reports;
  probeWithReporters(member, imports,
                     [&](llvm::Function &probe, const KnownCallees &reporters) {
                       reports = readFormatReports(probe, reporters, callees_, image_,
                                                   convention_);
                     });
  for (auto &[pc, report] : reports) {
    auto &[import, passed] = report;
    if (auto *signature = std::get_if<Signature>(&passed))
      callees_.at(import).callSites[pc] = *signature;
    else
      untypedVariadicCalls_[pc] = std::get<std::string>(passed);
  }
}

void ModuleBrightener::resolveImportCalls(const Candidate &member) {
  unsigned count = static_cast<unsigned>(unresolvedCalls(*member.lifted).size());
  if (count == 0 || !readsImportSlot(*member.lifted, image_))
    return;   // no import's address in the function: the probe could not resolve a call
  // The model stands for the calls the probe does not know; the known ones are typed calls,
  // which keep the convention too. Calls of functions that are not (yet) callable stay
  // unknown: they may change anything, and no target after them resolves.
  prepareCallees(member);
  llvm::Function *flat = flatCopy(*member.lifted, callees_, true);
  llvm::Expected<llvm::Function *> probe = buildSignatureProbe(*flat, convention_);
  flat->eraseFromParent();
  if (!probe) {
    llvm::consumeError(probe.takeError());
    return;
  }
  simplify(module_, image_, extras_,
           [&](const llvm::Function &function) { return &function == *probe; });
  std::optional<std::vector<llvm::Function *>> targets = modeledCallTargets(**probe, count);
  (*probe)->eraseFromParent();
  if (targets)
    callTargetsDirectly(*member.lifted, *targets);
}

void ModuleBrightener::prepareCallees(const Candidate &member) {
  for (const llvm::Instruction &instruction : llvm::instructions(*member.lifted))
    if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
      if (const llvm::Function *callee = call->getCalledFunction();
          callee && !callee->isIntrinsic() && !callee->getName().starts_with("__hoist_"))
        whyNotCallable(*callee);
}

void ModuleBrightener::inferImportPrototypes(const Candidate &member) {
  std::set<const llvm::Function *> imports;
  bool othersCallable = true;
  prepareCallees(member);
  for (const llvm::Instruction &instruction : llvm::instructions(*member.lifted))
    if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
      if (const llvm::Function *callee = call->getCalledFunction();
          callee && !callee->isIntrinsic() && !callee->getName().starts_with("__hoist_")) {
        // An import inferred at another caller's calls is reported again: this caller
        // may set up more arguments than that prototype takes.
        if (needsInferredPrototype(*callee) && !uncallable_.count(callee))
          imports.insert(callee);
        else if (whyNotCallable(*callee))
          othersCallable = false;
      }
  // A call of something that stays unknown keeps the State in memory: the registers at the
  // calls would not show what the caller set up. The member is declined for it anyway.
  if (imports.empty() || !othersCallable)
    return;
  std::map<const llvm::Function *, std::variant<unsigned, std::string>> arguments;
  probeWithReporters(member, imports, [&](llvm::Function &probe, const KnownCallees &reporters) {
    arguments = readArgumentReports(probe, reporters, convention_);
  });
  for (auto &[import, count] : arguments) {
    std::string name = import->getFnAttribute("hoist-import").getValueAsString().str();
    if (auto *reason = std::get_if<std::string>(&count)) {
      callees_.erase(import);
      uncallable_[import] = *reason;
      continue;
    }
    if (auto inferred = callees_.find(import); inferred != callees_.end()) {
      // Extra registers a caller passes are ignored by the callee; missing ones are not.
      size_t takes = inferred->second.signature.arguments.size();
      if (std::get<unsigned>(count) > takes) {
        callees_.erase(inferred);
        uncallable_[import] = llvm::formatv("is called with {0} argument registers set up, "
                                            "more than the {1} its prototype was inferred "
                                            "with at another caller",
                                            std::get<unsigned>(count), takes)
                                  .str();
      }
      continue;
    }
    std::variant<KnownCallee, std::string> known =
        inferredLibraryCallee(module_, name, importLibrary(*import), std::get<unsigned>(count),
                              convention_);
    if (auto *reason = std::get_if<std::string>(&known)) {
      uncallable_[import] = *reason;
      continue;
    }
    callees_[import] = std::get<KnownCallee>(known);
    module_.getFunction(import->getName())->addFnAttr(InferredPrototypeAttribute);
  }
}

void ModuleBrightener::screen(std::vector<Candidate> &members) {
  for (bool changed = true; changed;) {
    changed = false;
    scc_.clear();
    for (const Candidate &member : members)
      scc_.insert(member.lifted);
    for (auto member = members.begin(); member != members.end(); ++member) {
      std::optional<std::string> reason;
      if (auto forced = output_.declineAt.find(member->address);
          forced != output_.declineAt.end())
        reason = forced->second;
      else
        reason = whyNotBrightenable(*member->lifted, [this](const llvm::CallBase &call) {
          return whyNotCallable(call);
        });
      if (!reason)
        continue;
      decline(*member, *reason);
      members.erase(member);
      changed = true;
      break;
    }
  }
}

llvm::Expected<std::map<llvm::Function *, Signature>>
ModuleBrightener::inferSignatures(std::vector<Candidate> &members) {
  // Members of a recursive SCC start as `void ()` and take the signature their probes show
  // until nothing changes: each round passes what the last one found the callee reads.
  std::map<llvm::Function *, Signature> guesses;
  // RDX kept across the recursive calls until a round shows a member writes it: a function
  // that keeps RDX but for its calls of itself keeps it (the greatest fixpoint; the least,
  // from "clobbered", would never show it).
  for (const Candidate &member : members)
    guesses[member.lifted] = Signature{.keepsRdx = true};
  for (unsigned round = 0; round < MaxSignatureRounds; ++round) {
    KnownCallees callees = callees_;
    std::vector<llvm::Function *> placeholders;
    bool recursive = members.size() > 1;
    for (const Candidate &member : members) {
      recursive |= llvm::any_of(member.lifted->users(), [&](const llvm::User *user) {
        const auto *call = llvm::dyn_cast<llvm::CallBase>(user);
        return call && call->getFunction() == member.lifted;
      });
      llvm::Function *placeholder =
          declareBrightened(*member.lifted, guesses[member.lifted], convention_, ".guess");
      placeholders.push_back(placeholder);
      callees[member.lifted] = {placeholder, guesses[member.lifted]};
    }
    std::set<const llvm::Function *> probes;
    std::map<llvm::Function *, llvm::Function *> probeOf;
    for (const Candidate &member : members) {
      llvm::Function *flat = flatCopy(*member.lifted, callees);
      llvm::Expected<llvm::Function *> probe = buildSignatureProbe(*flat, convention_);
      for (const char *attribute :
           {ImageDataAttribute, CodeAddressAttribute, UncarriedAddressAttribute,
            AmbiguousAddressAttribute})
        if (probe && flat->hasFnAttribute(attribute))
          (*probe)->addFnAttr(flat->getFnAttribute(attribute));
      flat->eraseFromParent();
      if (!probe)
        return probe.takeError();
      probes.insert(*probe);
      probeOf[member.lifted] = *probe;
    }
    simplify(module_, image_, extras_,
             [&probes](const llvm::Function &function) { return probes.count(&function) > 0; });

    bool settled = true;
    bool grown = false;
    std::vector<std::pair<Candidate, std::string>> declined;
    // Only once the callees' signatures are final: a recursive SCC's first guesses return
    // RAX alone.
    std::vector<std::pair<Candidate, std::string>> readsClobbered;
    for (const Candidate &member : members) {
      llvm::Function *probe = probeOf[member.lifted];
      // A frame larger than the local stack: probed again with one that holds it.
      auto stack = localStackBytes_.find(member.lifted);
      if (std::optional<uint64_t> larger = largerLocalStack(
              *probe, stack == localStackBytes_.end() ? LocalStackBytes : stack->second)) {
        localStackBytes_[member.lifted] = *larger;
        probe->eraseFromParent();
        grown = true;
        continue;
      }
      std::set<uint64_t> assumed;
      std::variant<Signature, std::string> signature = readSignatureProbe(
          *probe, convention_,
          [&](uint64_t address) { return isBrightenedEntry(address, assumed); },
          [&]() { return raxBitsReadByCallers(member); });
      assumedEntries_[member.lifted] = std::move(assumed);
      if (std::optional<std::string> reason = whyReadsClobberedRdx(*probe))
        readsClobbered.emplace_back(member, *reason);
      probe->eraseFromParent();
      if (auto *found = std::get_if<Signature>(&signature)) {
        if (std::optional<std::string> reason = settleSecondResult(member, *found))
          signature = *reason;
        else if (found->takesAl && isExported(member.address))
          signature = std::string("is exported and reads AL otherwise than a variadic "
                                  "function's prologue does: brightened, it takes AL as an "
                                  "argument of its own, which a C caller does not pass");
        else if (unsigned slots = stackSlotsOf(*found);
                 slots > HandedOnStackSlots && takenAddresses().count(member.address))
          signature = llvm::formatv("takes {0} stack argument slots and its address is "
                                    "taken: a call through a pointer passes {1}",
                                    slots, HandedOnStackSlots)
                          .str();
      }
      if (auto *reason = std::get_if<std::string>(&signature)) {
        declined.emplace_back(member, *reason);
        continue;
      }
      settled &= std::get<Signature>(signature) == guesses[member.lifted];
      guesses[member.lifted] = std::get<Signature>(signature);
    }
    for (llvm::Function *placeholder : placeholders)
      placeholder->eraseFromParent();
    if (declined.empty() && !grown && (settled || !recursive))
      declined = std::move(readsClobbered);
    if (!declined.empty() || grown) {
      // The others may have called a declined member: screen them again, start over.
      for (auto &[member, reason] : declined) {
        decline(member, reason);
        std::erase_if(members, [&](const Candidate &other) { return other.lifted == member.lifted; });
      }
      screen(members);
      return inferSignatures(members);
    }
    // Without recursion, the first round's callees were final already.
    if (settled || !recursive)
      return guesses;
  }
  for (const Candidate &member : members)
    decline(member, llvm::formatv("the signatures of its recursive calls did not settle in {0} "
                                  "rounds",
                                  MaxSignatureRounds));
  members.clear();
  return guesses;
}

bool ModuleBrightener::isBrightenedEntry(uint64_t address, std::set<uint64_t> &assumed) const {
  if (brightenedEntries_.count(address))
    return true;
  auto lifted = liftedAt_.find(address);
  if (lifted == liftedAt_.end() || uncallable_.count(lifted->second))
    return false;
  assumed.insert(address);
  return true;
}

std::string ModuleBrightener::brightenedName(const Candidate &candidate) const {
  std::optional<std::string> symbol = image_.nameAt(candidate.address);
  if (symbol && !image_.namesSeveralAddresses(*symbol))
    return *symbol;
  return liftedFunctionName(image_, candidate.address);
}

void ModuleBrightener::retractUnkeptAssumptions() {
  std::map<const llvm::Function *, const Candidate *> byBrightened;
  for (const Candidate &candidate : done_)
    byBrightened[candidate.brightened] = &candidate;
  std::set<const Candidate *> retracted;
  std::vector<std::pair<const Candidate *, std::string>> pending;
  auto nameOf = [&](const Candidate &candidate) { return brightenedName(candidate); };
  for (bool changed = true; changed;) {
    changed = false;
    for (const Candidate &candidate : done_) {
      if (retracted.count(&candidate))
        continue;
      for (uint64_t entry : assumedEntries_[candidate.lifted])
        if (!brightenedEntries_.count(entry)) {
          pending.emplace_back(
              &candidate, llvm::formatv("may read the code address {0:x} stored in the "
                                        "binary's data and use it as a value, and the function "
                                        "there is not brightened",
                                        entry));
          break;
        }
    }
    while (!pending.empty()) {
      auto [candidate, reason] = pending.back();
      pending.pop_back();
      if (!retracted.insert(candidate).second)
        continue;
      changed = true;
      decline(*candidate, reason);
      unpointSlots(module_, image_, *candidate->brightened, candidate->address);
      heldBrightened_.erase(candidate->address);
      brightenedEntries_.erase(candidate->address);
      callees_.erase(candidate->lifted);
      // Its brightened callers, and those that hand on its address, go with it.
      llvm::SmallVector<const llvm::User *, 8> users(candidate->brightened->users());
      std::set<const llvm::User *> seen;
      while (!users.empty()) {
        const llvm::User *user = users.pop_back_val();
        if (!seen.insert(user).second)
          continue;
        if (const auto *instruction = llvm::dyn_cast<llvm::Instruction>(user)) {
          if (auto holder = byBrightened.find(instruction->getFunction());
              holder != byBrightened.end() && !retracted.count(holder->second))
            pending.emplace_back(holder->second,
                                 llvm::formatv("calls or refers to {0}, which is not brightened",
                                               nameOf(*candidate)));
        } else if (llvm::isa<llvm::Constant>(user)) {
          users.append(user->user_begin(), user->user_end());
        }
      }
    }
  }
  if (retracted.empty())
    return;
  for (const Candidate *candidate : retracted)
    candidate->brightened->dropAllReferences();
  for (const Candidate *candidate : retracted)
    if (candidate->brightened->use_empty())
      candidate->brightened->eraseFromParent();
  std::erase_if(done_, [&](const Candidate &candidate) { return retracted.count(&candidate); });
}

llvm::Error ModuleBrightener::brightenScc(std::vector<Candidate> members) {
  for (const Candidate &member : members) {
    resolveImportCalls(member);
    inferImportPrototypes(member);
    resolveVariadicCalls(member);
  }
  screen(members);
  if (members.empty())
    return llvm::Error::success();
  llvm::Expected<std::map<llvm::Function *, Signature>> signatures = inferSignatures(members);
  if (!signatures)
    return signatures.takeError();
  // Declared first: members call each other.
  for (Candidate &member : members) {
    const Signature &signature = signatures->at(member.lifted);
    member.signature = signature;
    member.brightened = declareBrightened(*member.lifted, signature, convention_, ".brightened");
    callees_[member.lifted] = {member.brightened, signature};
  }
  for (Candidate &member : members) {
    llvm::Function *flat = flatCopy(*member.lifted, callees_);
    llvm::Error error = defineBrightened(*member.brightened, *flat,
                                         signatures->at(member.lifted), convention_);
    flat->eraseFromParent();
    if (error)
      return error;
    done_.push_back(member);
    brightenedEntries_.insert(member.address);
  }
  return llvm::Error::success();
}

llvm::Expected<BrightenReport> ModuleBrightener::run() {
  for (llvm::Function &function : module_)
    if (std::optional<uint64_t> address = liftedAddress(function))
      liftedAt_[*address] = &function;
  // A GOT slot holding a function's address refers to that function (ImageReferences.h).
  auto slotTarget = [&](uint64_t slot) -> std::optional<uint64_t> {
    const Section *section = image_.sectionAt(slot);
    if (!section || isCarriedDataSection(image_, *section))
      return std::nullopt;
    return image_.relocatedPointer(slot);
  };
  std::vector<uint64_t> heldInData = codeAddressesInCarriedData(image_);
  for (const std::vector<llvm::Function *> &scc :
       brighteningOrder(module_, liftedAt_, slotTarget, heldInData)) {
    std::vector<Candidate> members;
    for (llvm::Function *function : scc)
      members.push_back({function, *liftedAddress(*function)});
    size_t before = done_.size();
    llvm::Error error = brightenScc(std::move(members));
    // The component is done: its declined members are no longer callable as members.
    scc_.clear();
    if (error)
      return error;
    // Its functions held in carried data are those functions from now on, so that a later
    // function whose load of such a slot the optimizer folds holds the same pointer as one
    // that loads it at run time (brighteningOrder took them first).
    bool held = false;
    for (size_t i = before; i < done_.size(); ++i)
      if (std::binary_search(heldInData.begin(), heldInData.end(), done_[i].address)) {
        heldBrightened_[done_[i].address] = done_[i].brightened;
        held = true;
      }
    if (held)
      pointHeldSlots(true);
  }
  retractUnkeptAssumptions();
  for (const char *name : {ProbeSinkName, ModeledCallName, CodePointerName})
    if (llvm::Function *declared = module_.getFunction(name); declared && declared->use_empty())
      declared->eraseFromParent();
  if (done_.empty()) {
    replaceClobberedRdx(module_);
    releaseCallerAreas(module_);
    replaceUnresolvedJumpMarkers(module_);
    replaceStackBoundMarkers(module_);
    return report_;
  }
  // The brightened functions find their stack arguments with the caller's areas kept, then
  // the areas dissolve in the module's fixpoint below.
  std::set<const llvm::Function *> brightened;
  for (const Candidate &candidate : done_)
    brightened.insert(candidate.brightened);
  replaceClobberedRdx(module_);
  simplify(module_, image_, extras_, [&brightened](const llvm::Function &function) {
    return brightened.count(&function) > 0;
  });
  releaseCallerAreas(module_);
  for (const Candidate &candidate : done_) {
    warnOfTableEnds(candidate);
    warnOfStackBounds(candidate);
  }

  // The brightened function takes the readable name (brightenedName). The lifted function
  // stays only while lifted code (a declined caller) calls it, as `<name>.lifted`: that
  // caller passes the whole machine, which only the lifted copy takes. The lifted functions
  // that only brightened ones' lifted versions call (themselves included) go.
  std::set<llvm::Function *> unused;
  if (!output_.keepLifted)
    for (const Candidate &candidate : done_)
      unused.insert(candidate.lifted);
  for (bool changed = true; changed;) {
    changed = false;
    for (llvm::Function *lifted : unused)
      if (llvm::any_of(lifted->users(), [&](const llvm::User *user) {
            const auto *call = llvm::dyn_cast<llvm::CallBase>(user);
            return !call || !unused.count(const_cast<llvm::Function *>(call->getFunction()));
          })) {
        unused.erase(lifted);
        changed = true;
        break;
      }
  }
  for (llvm::Function *lifted : unused)
    lifted->dropAllReferences();
  for (const Candidate &candidate : done_) {
    std::string name = brightenedName(candidate);
    if (unused.count(candidate.lifted))
      candidate.lifted->eraseFromParent();
    else
      candidate.lifted->setName(name + ".lifted");
    candidate.brightened->setName(name);
    report_.brightened.push_back(candidate.brightened->getName().str());
    report_.functions.push_back(
        {candidate.address, candidate.brightened->getName().str(), candidate.signature});
  }
  std::map<uint64_t, llvm::Function *> brightenedAt;
  for (const Candidate &candidate : done_)
    brightenedAt[candidate.address] = candidate.brightened;
  for (const UnmappedCodeAddress &unmapped : defineCodePointerMap(module_, image_, brightenedAt))
    diagnostics_.warning(
        "brighten-code-pointer", unmapped.address,
        llvm::formatv("{0} holds the code address {1:x}, which is no brightened function's: it traps "
                      "where it is called or handed to a library",
                      unmapped.user->getName(), unmapped.address));
  for (const UnmappedSlots &slots : pointSlotsAtFunctions(module_, image_, brightenedAt))
    warnOfUnmappedSlots(slots, brightened);
  simplify(module_, image_, extras_);
  nameImportAddresses(module_, convention_);
  replaceUnresolvedJumpMarkers(module_);
  replaceStackBoundMarkers(module_);
  defineImageDataSymbols(module_, image_);
  for (const Candidate &candidate : done_)
    candidate.brightened->removeFnAttr(BrightenedAttribute);
  // Only a brightened function: a declined one of that name stays the faithful lift.
  if (llvm::is_contained(report_.brightened, output_.injectFaultInto))
    if (llvm::Function *victim = module_.getFunction(output_.injectFaultInto);
        !injectWrongResult(*victim))
      diagnostics_.warning("brighten-check-inject-fault", entryAddressOf(*victim),
                           llvm::formatv("{0} returns nothing a fault can be injected into",
                                         output_.injectFaultInto));
  return report_;
}

} // namespace

llvm::Expected<BrightenReport> brightenModule(llvm::Module &module, const Image &image,
                                              CallingConvention convention,
                                              DiagnosticSink &diagnostics,
                                              const FixpointExtras &extras, BrightenOutput output) {
  if (output.dataAtOriginalAddresses)
    keepDataAtOriginalAddresses(module, image);
  return ModuleBrightener(module, image, convention, extras, output, diagnostics).run();
}

} // namespace hoist
