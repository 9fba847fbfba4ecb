// The names of lifted functions and the address each carries (docs/DESIGN.md, "Function
// names"). The name is a function of the image and the address alone, so that modules lifted
// apart (`lift --all -j N`) declare and define one function under one name and link.
#include "hoist/Lifter.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

#include <array>

namespace hoist {
namespace {

constexpr const char *EntryMetadata = "hoist.entry";

/// Letters, digits, `_`, `.` and `$`, not starting with a digit: a C or C++ (mangled) symbol
/// that prints unquoted in IR and links as it is. Anything else (`foo@plt`, a PE export with
/// spaces) would need quoting everywhere and helps no reader.
bool isSensibleName(llvm::StringRef name) {
  if (name.empty() || llvm::isDigit(name.front()))
    return false;
  return llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$'; });
}

/// Names a lifted function (whose type is `void (ptr %state, ptr %mem)`, not the symbol's)
/// must not take: the C runtime's entry points, which an object of lifted code links beside
/// (`--emit obj`, `hoist translate`), and Hoist's own prefixes, which other functions of the
/// module use (`fn_<hex>`, `import.X`, `__hoist_X`, LLVM's intrinsics).
bool isReserved(llvm::StringRef name) {
  static constexpr std::array<const char *, 4> runtimeEntries = {"main", "_start", "_init", "_fini"};
  static constexpr std::array<const char *, 4> prefixes = {"fn_", "import.", "__hoist", "llvm."};
  return llvm::is_contained(runtimeEntries, name) ||
         llvm::any_of(prefixes, [&](const char *prefix) { return name.starts_with(prefix); });
}

} // namespace

std::string liftedFunctionName(uint64_t address) {
  return "fn_" + llvm::utohexstr(address, /*LowerCase=*/true);
}

std::string liftedFunctionName(const Image &image, uint64_t address) {
  std::optional<std::string> symbol = image.nameAt(address);
  if (!symbol || !isSensibleName(*symbol))
    return liftedFunctionName(address);
  // A name that something else in the module or at link time has too keeps the symbol but
  // gains the address: `main.11f4`, `helper.1130` and `helper.1240`, `malloc.401a30` when
  // `malloc` is also an import (a library's own export called through its PLT) or a call by
  // name (lib/Signatures). A `.` never occurs in a C symbol, so the result clashes with none.
  if (isReserved(*symbol) || image.namesSeveralAddresses(*symbol) || image.importsName(*symbol))
    return *symbol + "." + llvm::utohexstr(address, /*LowerCase=*/true);
  return *symbol;
}

void setEntryAddress(llvm::Function &function, uint64_t address) {
  llvm::LLVMContext &context = function.getContext();
  function.setMetadata(EntryMetadata,
                       llvm::MDNode::get(context, llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
                                                      llvm::Type::getInt64Ty(context), address))));
}

std::optional<uint64_t> entryAddressOf(const llvm::Function &function) {
  llvm::MDNode *entry = function.getMetadata(EntryMetadata);
  if (!entry || entry->getNumOperands() != 1)
    return std::nullopt;
  if (auto *address = llvm::mdconst::dyn_extract<llvm::ConstantInt>(entry->getOperand(0)))
    return address->getZExtValue();
  return std::nullopt;
}

void keepLiftedFunctionsLocal(llvm::Module &module, const std::vector<std::string> &brightened) {
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && entryAddressOf(function) &&
        !llvm::is_contained(brightened, function.getName()))
      function.setLinkage(llvm::GlobalValue::InternalLinkage);
}

void deleteLiftedBody(llvm::Function &function) {
  std::optional<uint64_t> entry = entryAddressOf(function);
  function.deleteBody();
  if (entry)
    setEntryAddress(function, *entry);
}

} // namespace hoist
