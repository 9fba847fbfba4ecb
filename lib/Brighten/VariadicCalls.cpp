#include "Brighten/VariadicCalls.h"

#include "Brighten/LocalFrame.h"
#include "hoist/Image.h"

#include <llvm/ADT/StringSwitch.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/Support/FormatVariadic.h>

#include <optional>

namespace hoist {
namespace {

const llvm::Value *stripCasts(const llvm::Value *value) {
  while (const auto *cast = llvm::dyn_cast<llvm::Operator>(value)) {
    unsigned opcode = cast->getOpcode();
    if (opcode != llvm::Instruction::PtrToInt && opcode != llvm::Instruction::IntToPtr &&
        opcode != llvm::Instruction::BitCast)
      break;
    value = cast->getOperand(0);
  }
  return value;
}

/// The NUL-terminated string `value` points at: an address in the image, or a pointer into a
/// constant global that carries an image section's bytes (ImageData.h).
std::optional<std::string> constantString(const llvm::Value *value, const Image &image,
                                          const llvm::DataLayout &layout) {
  value = stripCasts(value);
  if (const auto *address = llvm::dyn_cast<llvm::ConstantInt>(value)) {
    llvm::ArrayRef<uint8_t> bytes = image.bytesAt(address->getZExtValue());
    const uint8_t *end = llvm::find(bytes, 0);
    if (end == bytes.end())
      return std::nullopt;
    return std::string(bytes.begin(), end);
  }
  if (!value->getType()->isPointerTy())
    return std::nullopt;
  llvm::APInt offset(64, 0);
  const auto *global = llvm::dyn_cast<llvm::GlobalVariable>(
      value->stripAndAccumulateConstantOffsets(layout, offset, true));
  if (!global || !global->isConstant() || !global->hasDefinitiveInitializer())
    return std::nullopt;
  const auto *data = llvm::dyn_cast<llvm::ConstantDataSequential>(global->getInitializer());
  if (!data || offset.isNegative() || offset.getZExtValue() >= data->getRawDataValues().size())
    return std::nullopt;
  llvm::StringRef text = data->getRawDataValues().drop_front(offset.getZExtValue());
  size_t end = text.find('\0');
  if (end == llvm::StringRef::npos)
    return std::nullopt;
  return text.take_front(end).str();
}

/// The messages a gettext-family call translates, when `value` is its result and they are
/// constant: the format is the translation, which keeps the message's conversions. Both
/// messages of the plural forms (ngettext).
std::vector<std::string> translatedMessages(const llvm::Value *value, const Image &image,
                                            const llvm::DataLayout &layout) {
  const auto *call = llvm::dyn_cast<llvm::CallInst>(stripCasts(value));
  const llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
  if (!callee)
    return {};
  std::vector<unsigned> messages = llvm::StringSwitch<std::vector<unsigned>>(callee->getName())
                                       .Case("gettext", {0})
                                       .Cases("dgettext", "dcgettext", {1})
                                       .Case("ngettext", {0, 1})
                                       .Cases("dngettext", "dcngettext", {1, 2})
                                       .Default({});
  std::vector<std::string> texts;
  for (unsigned argument : messages) {
    if (argument >= call->arg_size())
      return {};
    std::optional<std::string> text = constantString(call->getArgOperand(argument), image, layout);
    if (!text)
      return {};
    texts.push_back(*text);
  }
  return texts;
}

/// Every format `value` may be: a constant string, the messages a gettext call translates, or
/// for a choice between such (`x ? "%d" : "%u"`, a message chosen on one path and another on
/// the other: a phi or select), each of the choices'; empty when one of them is none of these.
std::vector<std::string> possibleFormats(const llvm::Value *value, const Image &image,
                                         const llvm::DataLayout &layout, unsigned depth = 0) {
  value = stripCasts(value);
  if (std::optional<std::string> text = constantString(value, image, layout))
    return {*text};
  std::vector<const llvm::Value *> choices;
  if (const auto *phi = llvm::dyn_cast<llvm::PHINode>(value))
    choices.assign(phi->incoming_values().begin(), phi->incoming_values().end());
  else if (const auto *select = llvm::dyn_cast<llvm::SelectInst>(value))
    choices = {select->getTrueValue(), select->getFalseValue()};
  else
    return translatedMessages(value, image, layout);
  // A loop's phi that feeds itself is no choice among constants.
  if (depth == 4)
    return {};
  std::vector<std::string> formats;
  for (const llvm::Value *choice : choices) {
    std::vector<std::string> texts = possibleFormats(choice, image, layout, depth + 1);
    if (texts.empty())
      return {};
    formats.insert(formats.end(), texts.begin(), texts.end());
  }
  return formats;
}

/// The variadic arguments the format `value` converts, or why they are not known.
std::variant<std::vector<FormatArgument>, std::string>
argumentsOfFormat(const llvm::Value *value, FormatKind kind, const Image &image,
                  const llvm::DataLayout &layout) {
  std::vector<std::string> formats = possibleFormats(value, image, layout);
  if (formats.empty())
    return std::string("is not a constant string nor gettext's translation of one, nor a "
                       "choice among such");
  std::optional<std::vector<FormatArgument>> agreed;
  for (const std::string &format : formats) {
    std::variant<std::vector<FormatArgument>, std::string> arguments =
        formatArguments(format, kind);
    if (auto *reason = std::get_if<std::string>(&arguments))
      return *reason;
    if (agreed && *agreed != std::get<std::vector<FormatArgument>>(arguments))
      return std::string("may be formats (plural forms, or chosen by a branch) that convert "
                         "different arguments");
    agreed = std::get<std::vector<FormatArgument>>(arguments);
  }
  return *agreed;
}

// open(2)'s flags that make it read the mode: O_CREAT, and __O_TMPFILE, the bit of O_TMPFILE
// that O_DIRECTORY lacks (glibc's __OPEN_NEEDS_MODE).
constexpr uint64_t OpenCreates = 0100, OpenTmpfile = 020000000;

/// fcntl(2)'s commands that take no argument: F_GETFD, F_GETFL, F_GETOWN, F_GETSIG,
/// F_GETLEASE, F_GETPIPE_SZ, F_GET_SEALS. Every other one reads an int or a pointer, and one
/// it does not know reads its argument or ignores it: passing it is right either way.
bool commandTakesNoArgument(uint64_t command) {
  return llvm::is_contained({1, 3, 9, 11, 1025, 1032, 1034}, command);
}

/// A format the call builds at run time, or one whose conversions cannot be told (`%Lf`,
/// positional arguments): the call passes what a call through a pointer does (CallShim.h), the
/// integer argument registers after the fixed parameters, XMM0 to XMM7's low lanes (AL = 8)
/// and HandedOnStackSlots stack slots, each as the caller left it. The callee reads its
/// arguments from exactly those registers and the stack words above its return address, in
/// the same layout, whatever the format converts (a long double among the stack words).
std::vector<FormatArgument> everyArgumentRegister(const Signature &fixed,
                                                  CallingConvention convention) {
  size_t integers = integerArgumentRegisters(convention).size();
  size_t fixedIntegers = llvm::count_if(fixed.arguments, [](const Signature::Argument &argument) {
    return !argument.onStack && !argument.isFloat;
  });
  std::vector<FormatArgument> every(integers - std::min(integers, fixedIntegers),
                                    FormatArgument::Int64);
  every.insert(every.end(), floatArgumentRegisterCount(convention), FormatArgument::Double);
  every.insert(every.end(), HandedOnStackSlots, FormatArgument::Int64);
  return every;
}

/// What `report` (a reporter's call standing for a call of the variadic `callee`) passes after
/// the fixed parameters, from its last fixed argument: what its format converts, or what the
/// function's rule says for the flags or command it passes; or why that is not known.
std::variant<std::vector<FormatArgument>, std::string>
argumentsOfCall(const llvm::CallBase &report, const KnownCallee &callee, const Image &image,
                const llvm::DataLayout &layout, CallingConvention convention) {
  llvm::ArrayRef<HoistStateField> integers = integerArgumentRegisters(convention);
  const Signature::Argument &last = callee.signature.arguments.back();
  const HoistStateField *reg = llvm::find(integers, last.field);
  if (last.onStack || reg == integers.end())
    return std::string("passes its last fixed argument on the stack");
  const llvm::Value *value = report.getArgOperand(reg - integers.begin());
  // The fixed parameter is an int: the register's upper half is not the caller's.
  const auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value);
  std::optional<uint64_t> low32 =
      constant ? std::optional(constant->getZExtValue() & 0xffffffffu) : std::nullopt;
  switch (*callee.variadic) {
  case VariadicRule::PrintfFormat:
  case VariadicRule::ScanfFormat: {
    std::variant<std::vector<FormatArgument>, std::string> arguments =
        argumentsOfFormat(value, *formatKindOf(*callee.variadic), image, layout);
    if (auto *reason = std::get_if<std::string>(&arguments)) {
      if (convention != CallingConvention::SysV)
        return "with a format that " + *reason;
      return everyArgumentRegister(callee.signature, convention);
    }
    return arguments;
  }
  case VariadicRule::ModeIfCreating:
    if (low32 && !(*low32 & (OpenCreates | OpenTmpfile)))
      return std::vector<FormatArgument>{};
    return std::vector<FormatArgument>{FormatArgument::Int32};
  case VariadicRule::ArgumentByCommand:
    if (low32 && commandTakesNoArgument(*low32))
      return std::vector<FormatArgument>{};
    return std::vector<FormatArgument>{FormatArgument::Int64};
  case VariadicRule::OneArgument:
    return std::vector<FormatArgument>{FormatArgument::Int64};
  case VariadicRule::SixLongs:
    return std::vector<FormatArgument>(6, FormatArgument::Int64);
  case VariadicRule::FourLongs:
    return std::vector<FormatArgument>(4, FormatArgument::Int64);
  case VariadicRule::NullTerminated:
  case VariadicRule::NullTerminatedThenOne: {
    // The list ends at the first register the caller set to null; after it, execle's
    // environment.
    size_t next = reg - integers.begin() + 1;
    for (size_t i = next; i < integers.size(); ++i) {
      const auto *pointer = llvm::dyn_cast<llvm::Constant>(report.getArgOperand(i));
      if (!pointer || !pointer->isNullValue())
        continue;
      size_t count = i - next + 1 + (*callee.variadic == VariadicRule::NullTerminatedThenOne);
      return std::vector<FormatArgument>(count, FormatArgument::Int64);
    }
    return std::string("passes a list whose null end is in no argument register");
  }
  }
  return std::string("has a variadic rule brightening does not know");
}

} // namespace

/// The stack arguments a variadic call may pass: a call reads them from its caller's own frame
/// (a tail call's past the caller's area of StackArgumentSlots declines, PromoteStack.h), so a
/// format's count is passed as it is, up to a bound no format in Debian's binaries reaches (xz
/// prints a table row with 11).
constexpr unsigned MaxCallStackArguments = 32;

std::variant<Signature, std::string>
variadicCallSignature(const Signature &fixed, const std::vector<FormatArgument> &arguments,
                      CallingConvention convention) {
  llvm::ArrayRef<HoistStateField> integers = integerArgumentRegisters(convention);
  unsigned floats = floatArgumentRegisterCount(convention);
  unsigned nextInteger = 0, nextFloat = 0, nextStack = 0;
  for (const Signature::Argument &argument : fixed.arguments) {
    if (argument.onStack)
      ++nextStack;
    else if (argument.isFloat)
      ++nextFloat;
    else
      ++nextInteger;
  }
  Signature signature = fixed;
  for (FormatArgument argument : arguments) {
    bool isDouble = argument == FormatArgument::Double;
    unsigned bits = argument == FormatArgument::Int32 ? 32 : 64;
    if (isDouble && nextFloat < floats) {
      signature.arguments.push_back({HOIST_FIELD_YMM, nextFloat++, 64, true});
    } else if (!isDouble && nextInteger < integers.size()) {
      signature.arguments.push_back({integers[nextInteger++], 0, bits, false});
    } else {
      if (nextStack == MaxCallStackArguments)
        return llvm::formatv("passes more than the {0} stack arguments brightening passes",
                             MaxCallStackArguments)
            .str();
      signature.arguments.push_back({HOIST_FIELD_RSP, nextStack++, bits, isDouble, true});
    }
  }
  return signature;
}

std::map<uint64_t, std::pair<const llvm::Function *, std::variant<Signature, std::string>>>
readFormatReports(llvm::Function &probe, const KnownCallees &reporters,
                  const KnownCallees &variadic, const Image &image,
                  CallingConvention convention) {
  const llvm::DataLayout &layout = probe.getParent()->getDataLayout();
  std::map<const llvm::Function *, const llvm::Function *> importOf;
  for (const auto &[import, reporter] : reporters)
    importOf[reporter.function] = import;
  std::map<uint64_t, std::pair<const llvm::Function *, std::variant<Signature, std::string>>>
      found;
  for (llvm::Instruction &instruction : llvm::instructions(probe)) {
    auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
    auto import = call ? importOf.find(call->getCalledFunction()) : importOf.end();
    if (import == importOf.end())
      continue;
    std::variant<std::vector<FormatArgument>, std::string> arguments = argumentsOfCall(
        *call, variadic.at(import->second), image, layout, convention);
    std::variant<Signature, std::string> result =
        std::holds_alternative<std::string>(arguments)
            ? std::get<std::string>(arguments)
            : variadicCallSignature(variadic.at(import->second).signature,
                                    std::get<std::vector<FormatArgument>>(arguments), convention);
    // A report without its own address (merged or moved by the optimizer) is not known to be
    // its site's: that site passes everything (everyArgumentCall) rather than another's.
    if (!call->getMetadata("hoist.pc"))
      continue;
    // The optimizer may have copied a call (a loop unrolled): each copy must agree.
    uint64_t pc = pcOf(*call);
    auto [previous, inserted] = found.try_emplace(pc, import->second, result);
    if (!inserted && previous->second.second != result)
      previous->second.second = std::string("whose copies pass different formats");
  }
  return found;
}

std::variant<Signature, std::string> everyArgumentCall(const Signature &fixed,
                                                       CallingConvention convention) {
  return variadicCallSignature(fixed, everyArgumentRegister(fixed, convention), convention);
}

} // namespace hoist
