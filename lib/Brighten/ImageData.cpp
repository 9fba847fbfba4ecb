#include "Brighten/ImageData.h"

#include "Brighten/ImportSlots.h"
#include "Brighten/IntToPtrRewrite.h"

#include "Passes/Passes.h"
#include "hoist/Image.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PatternMatch.h>

#include <set>

namespace hoist {
namespace {

using namespace llvm::PatternMatch;

constexpr unsigned MaxAddressDepth = 8;

/// Splits `address` into base + rest through add and disjoint or, the base being a term
/// `baseOf` turns into a pointer; rest is null when the address is the base alone. Returns
/// null when no term is a base.
llvm::Constant *splitBase(llvm::Value *address, llvm::Value *&rest, llvm::IRBuilder<> &builder,
                          llvm::function_ref<llvm::Constant *(llvm::Value *)> baseOf,
                          unsigned depth) {
  if (llvm::Constant *base = baseOf(address)) {
    rest = nullptr;
    return base;
  }
  llvm::Value *left = nullptr, *right = nullptr;
  if (depth > MaxAddressDepth ||
      !(match(address, m_Add(m_Value(left), m_Value(right))) ||
        match(address, m_DisjointOr(m_Value(left), m_Value(right)))))
    return nullptr;
  llvm::Value *inner = nullptr;
  if (llvm::Constant *base = splitBase(right, inner, builder, baseOf, depth + 1)) {
    rest = inner ? builder.CreateAdd(left, inner) : left;
    return base;
  }
  if (llvm::Constant *base = splitBase(left, inner, builder, baseOf, depth + 1)) {
    rest = inner ? builder.CreateAdd(inner, right) : right;
    return base;
  }
  return nullptr;
}

/// An image address put together from its halves, `(A & ~0xffffffff) | zext(A's low 32 bits)`
/// (SROA's merge of a 32-bit write into a register that held the address: `mov eax, ...`),
/// is the address again. InstCombine finds this for an instruction, not once the address is a
/// constant expression, whose low half folds into `ptrtoint @image.x to i32`.
bool foldJoinedHalves(llvm::Function &function) {
  llvm::SmallVector<std::pair<llvm::Instruction *, llvm::Value *>> joined;
  for (llvm::Instruction &instruction : llvm::instructions(function)) {
    llvm::Value *whole = nullptr, *low = nullptr;
    const llvm::APInt *mask = nullptr;
    if (!match(&instruction, m_c_Or(m_And(m_Value(whole), m_APInt(mask)), m_ZExt(m_Value(low)))))
      continue;
    llvm::Value *wholePointer = nullptr, *lowPointer = nullptr;
    unsigned lowBits = low->getType()->getIntegerBitWidth();
    if (match(whole, m_PtrToInt(m_Value(wholePointer))) &&
        match(low, m_PtrToInt(m_Value(lowPointer))) && wholePointer == lowPointer &&
        *mask == llvm::APInt::getHighBitsSet(mask->getBitWidth(), mask->getBitWidth() - lowBits))
      joined.emplace_back(&instruction, whole);
  }
  for (auto [instruction, whole] : joined) {
    instruction->replaceAllUsesWith(whole);
    instruction->eraseFromParent();
  }
  return !joined.empty();
}

/// The global holding `section`'s bytes (zero past the file's): constant and private for
/// read-only data; for writable data a variable with external linkage, since its state is
/// what the brightened functions leave for their callers (and an internal one that is only
/// written would lose its stores to the optimizer).
llvm::GlobalVariable *sectionGlobal(llvm::Module &module, const Image &image,
                                    const Section &section) {
  std::string name = "image" + section.name;
  if (llvm::GlobalVariable *existing = module.getNamedGlobal(name))
    return existing;
  std::vector<uint8_t> bytes(section.size, 0);
  image.read(section.address, bytes.data(), bytes.size());
  auto *initializer = llvm::ConstantDataArray::get(module.getContext(), llvm::ArrayRef(bytes));
  auto *global = new llvm::GlobalVariable(
      module, initializer->getType(), !section.writable,
      section.writable ? llvm::GlobalValue::ExternalLinkage : llvm::GlobalValue::PrivateLinkage,
      initializer, name);
  global->setAlignment(llvm::Align(16));
  return global;
}

llvm::Constant *pointerInto(llvm::GlobalVariable &global, uint64_t offset) {
  llvm::Type *i64 = llvm::Type::getInt64Ty(global.getContext());
  return llvm::ConstantExpr::getGetElementPtr(
      global.getValueType(), &global,
      llvm::ArrayRef<llvm::Constant *>{llvm::ConstantInt::get(i64, 0),
                                       llvm::ConstantInt::get(i64, offset)});
}

/// Whether `symbol` names an object of the program's own: not the toolchain's (`__dso_handle`,
/// `_CRT_MT`), not a static inside a function (`count.1`, which C cannot name), not a copy of
/// a shared library's object (`stdout`), which an alias of the same name would take over.
bool isProgramObject(const Symbol &symbol, const Image &image) {
  llvm::StringRef name = symbol.name;
  if (symbol.kind != Symbol::Kind::Object || symbol.source == Symbol::Source::Dynamic ||
      name.empty() || name.starts_with("_") || name.contains('.') ||
      image.copiedObjectAt(symbol.address))
    return false;
  return llvm::none_of(image.imports(), [&](const Import &import) { return import.name == name; });
}

} // namespace

bool isCarriedDataSection(const Section &section) {
  if (section.executable || !section.mapped)
    return false;
  if (!section.writable)
    return true;
  // Writable sections that hold plain data; `.data.rel.ro`, the GOT, `.idata`, `.tls` and
  // the like hold addresses the loader writes (or thread-local templates).
  llvm::StringRef name = section.name;
  if (name.starts_with(".data.rel"))
    return false;
  return name == ".data" || name == ".bss" || name.starts_with(".data.") ||
         name.starts_with(".bss.");
}

llvm::Constant *imageDataPointer(llvm::Module &module, const Image &image, uint64_t address) {
  // A library's object the executable holds a copy of (stdout, optind): the recompiled
  // program's is the library's own, by name; the file's bytes there are only zeros.
  if (const CopiedObject *copied = image.copiedObjectAt(address)) {
    llvm::Type *bytes = llvm::ArrayType::get(llvm::Type::getInt8Ty(module.getContext()),
                                             std::max<uint64_t>(copied->size, 1));
    auto *object = llvm::dyn_cast<llvm::GlobalVariable>(
        module.getOrInsertGlobal(copied->name, bytes));
    return object ? pointerInto(*object, address - copied->address) : nullptr;
  }
  const Section *section = image.sectionAt(address);
  if (!section || !isCarriedDataSection(*section))
    return nullptr;
  return pointerInto(*sectionGlobal(module, image, *section), address - section->address);
}

llvm::Constant *ImageDataPass::imagePointer(llvm::Function &function, uint64_t address) const {
  if (llvm::Constant *pointer = imageDataPointer(*function.getParent(), image_, address))
    return pointer;
  if (image_.sectionAt(address))
    function.addFnAttr(ImageDataAttribute, "0x" + llvm::utohexstr(address, true));
  return nullptr;
}

llvm::PreservedAnalyses ImageDataPass::run(llvm::Function &function,
                                           llvm::FunctionAnalysisManager &) {
  // A slot the optimizer found the address of only now.
  bool changed = replaceImportSlotLoads(function, image_);
  changed |= foldJoinedHalves(function);
  // In a position-independent image every address the code computes is RIP-relative, and
  // ImageReferences made each of those a pointer into its global before optimization. An
  // integer constant here is then a number, whatever section address it equals: a struct
  // field's offset (zlib's `s + 0xb68`, inside a library's .dynsym at base 0) taken for an
  // address made a store through the struct a store into a constant global, which the
  // optimizer deleted.
  bool constantsAreAddresses = !image_.isPositionIndependent();
  // Constant addresses arrive folded: `load i64, ptr inttoptr (i64 0x4018 to ptr)`.
  for (llvm::Instruction &instruction : llvm::instructions(function))
    for (llvm::Use &operand : instruction.operands()) {
      auto *expression = llvm::dyn_cast<llvm::ConstantExpr>(operand.get());
      if (!expression || expression->getOpcode() != llvm::Instruction::IntToPtr)
        continue;
      auto *address = llvm::dyn_cast<llvm::ConstantInt>(expression->getOperand(0));
      if (llvm::Constant *pointer = address && constantsAreAddresses
                                        ? imagePointer(function, address->getZExtValue())
                                        : nullptr) {
        operand.set(pointer);
        changed = true;
      }
    }
  // A term of an address is an image address as a constant, or one ImageReferences rewrote
  // (`ptrtoint @image.data + 8`) that comes back as an address.
  auto baseOf = [&](llvm::Value *term) -> llvm::Constant * {
    if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(term))
      return constantsAreAddresses ? imagePointer(function, constant->getZExtValue()) : nullptr;
    if (auto *expression = llvm::dyn_cast<llvm::ConstantExpr>(term);
        expression && expression->getOpcode() == llvm::Instruction::PtrToInt)
      return expression->getOperand(0);
    return nullptr;
  };
  changed |= rewriteIntToPtrs(
      function, [&](llvm::IntToPtrInst &cast, llvm::IRBuilder<> &builder) -> llvm::Value * {
        llvm::Value *rest = nullptr;
        llvm::Constant *base = splitBase(cast.getOperand(0), rest, builder, baseOf, 0);
        if (!base || !rest)
          return base;
        return builder.CreateGEP(builder.getInt8Ty(), base, rest);
      });
  return preservedAfter(changed);
}

void defineImageDataSymbols(llvm::Module &module, const Image &image) {
  for (const Section &section : image.sections()) {
    llvm::GlobalVariable *global = module.getNamedGlobal("image" + section.name);
    if (!global || !section.writable)
      continue;
    for (const Symbol &symbol : image.symbols())
      if (isProgramObject(symbol, image) && symbol.address >= section.address &&
          symbol.address < section.address + section.size && !module.getNamedValue(symbol.name))
        llvm::GlobalAlias::create(llvm::Type::getInt8Ty(module.getContext()), 0,
                                  llvm::GlobalValue::ExternalLinkage, symbol.name,
                                  pointerInto(*global, symbol.address - section.address),
                                  &module);
  }
}

void addListedAddress(llvm::Function &function, const char *attribute, uint64_t address) {
  std::string hex = "0x" + llvm::utohexstr(address, true);
  llvm::Attribute known = function.getFnAttribute(attribute);
  if (!known.isValid()) {
    function.addFnAttr(attribute, hex);
    return;
  }
  llvm::SmallVector<llvm::StringRef, 4> listed;
  known.getValueAsString().split(listed, ',');
  if (!llvm::is_contained(listed, hex))
    function.addFnAttr(attribute, (known.getValueAsString() + "," + hex).str());
}

std::optional<uint64_t> listedAddressSurvives(const llvm::Function &function,
                                              const char *attribute) {
  llvm::Attribute known = function.getFnAttribute(attribute);
  if (!known.isValid())
    return std::nullopt;
  std::set<uint64_t> addresses;
  llvm::SmallVector<llvm::StringRef, 4> listed;
  known.getValueAsString().split(listed, ',');
  for (llvm::StringRef hex : listed)
    if (uint64_t address = 0; !hex.drop_front(2).getAsInteger(16, address))
      addresses.insert(address);
  for (const llvm::Instruction &instruction : llvm::instructions(function))
    for (const llvm::Value *operand : instruction.operands())
      if (const auto *constant = llvm::dyn_cast<llvm::ConstantInt>(operand)) {
        unsigned bits = constant->getBitWidth();
        if (bits != 64 && bits != 32)
          continue;
        uint64_t value = constant->getZExtValue();
        for (uint64_t address : addresses)
          if (value == (bits == 64 ? address : address & 0xffffffffu))
            return address;
      }
  return std::nullopt;
}

} // namespace hoist
