#include "Translate/ProgramTables.h"

#include "Lift/CallTargets.h"
#include "Translate/ImportCalls.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>

#include <llvm/Support/MathExtras.h>

#include <algorithm>
#include <map>

namespace hoist {
namespace {

llvm::Constant *privateString(llvm::Module &module, llvm::StringRef text) {
  llvm::Constant *bytes = llvm::ConstantDataArray::getString(module.getContext(), text);
  return new llvm::GlobalVariable(module, bytes->getType(), true,
                                  llvm::GlobalValue::PrivateLinkage, bytes, ".hoist.str");
}

llvm::Constant *privateArray(llvm::Module &module, llvm::StructType *element,
                             std::vector<llvm::Constant *> elements, const char *name) {
  auto *type = llvm::ArrayType::get(element, elements.size());
  return new llvm::GlobalVariable(module, type, true, llvm::GlobalValue::PrivateLinkage,
                                  llvm::ConstantArray::get(type, elements), name);
}

/// What each entry may overwrite with a jump: the bytes up to the next function entry or the
/// end of its section, whichever comes first.
uint64_t patchRoom(const Image &image, uint64_t address, std::optional<uint64_t> next) {
  const Section *section = image.sectionAt(address);
  if (!section || !section->executable)
    return 0;
  uint64_t end = section->address + section->size;
  if (next && *next < end)
    end = *next;
  return end - address;
}

/// Every thread's guest thread block (runtime/threads.c): the program's thread-local block
/// below the guest thread pointer, laid out as ld laid it out for the original, and the guest
/// thread control block above it. It is a thread-local variable of the translated executable
/// itself, so glibc gives every thread one, at the same distance from the host's thread
/// pointer in each. Returns where the guest thread pointer lies in it.
uint64_t emitGuestThreadBlock(llvm::Module &module, const ThreadLocalSegment &tls) {
  constexpr uint64_t TcbReserve = 256;   // glibc's tcbhead_t words program code reads, and more
  constexpr uint64_t TcbAlignment = 64;
  uint64_t alignment = std::max(tls.alignment, TcbAlignment);
  uint64_t threadPointerOffset = llvm::alignTo(tls.offsetBelowThreadPointer(), alignment);
  auto *type = llvm::ArrayType::get(llvm::Type::getInt8Ty(module.getContext()),
                                    threadPointerOffset + TcbReserve);
  auto *block = new llvm::GlobalVariable(module, type, false, llvm::GlobalValue::ExternalLinkage,
                                         llvm::ConstantAggregateZero::get(type),
                                         "hoist_guest_thread_block", nullptr,
                                         llvm::GlobalValue::LocalExecTLSModel);
  block->setAlignment(llvm::Align(alignment));
  block->setDSOLocal(true);
  return threadPointerOffset;
}

} // namespace

ProgramTablesReport emitProgramTables(llvm::Module &module, const Image &image,
                                      const ElfProgram &program, llvm::StringRef fileBytes) {
  llvm::LLVMContext &context = module.getContext();
  auto *i64 = llvm::Type::getInt64Ty(context);
  auto *ptr = llvm::PointerType::getUnqual(context);
  auto constant = [&](uint64_t value) { return llvm::ConstantInt::get(i64, value); };
  auto *null = llvm::ConstantPointerNull::get(ptr);
  ProgramTablesReport report;

  // Segments, their file bytes embedded.
  auto *segmentType = llvm::StructType::create(context, {i64, i64, i64, ptr, i64}, "HoistSegment");
  std::vector<llvm::Constant *> segments;
  for (const LoadSegment &segment : program.segments) {
    llvm::StringRef bytes = fileBytes.substr(segment.fileOffset, segment.fileSize);
    llvm::Constant *data = llvm::ConstantDataArray::getRaw(bytes, bytes.size(),
                                                           llvm::Type::getInt8Ty(context));
    auto *global = new llvm::GlobalVariable(module, data->getType(), true,
                                            llvm::GlobalValue::PrivateLinkage, data,
                                            ".hoist.segment");
    global->setAlignment(llvm::Align(16));
    uint64_t prot = (segment.readable ? 1 : 0) | (segment.writable ? 2 : 0) |
                    (segment.executable ? 4 : 0);   // PROT_READ, PROT_WRITE, PROT_EXEC
    segments.push_back(llvm::ConstantStruct::get(
        segmentType, {constant(segment.address), constant(segment.memorySize),
                      constant(bytes.size()), global, constant(prot)}));
  }

  // Relocations, in the runtime's kinds.
  auto *relocationType =
      llvm::StructType::create(context, {i64, i64, i64, ptr, ptr, i64}, "HoistRelocation");
  std::vector<llvm::Constant *> relocations;
  for (const DynamicRelocation &relocation : program.relocations) {
    uint64_t kind = 0;
    switch (relocation.kind) {
    case DynamicRelocation::Kind::Value: kind = 0; break;
    case DynamicRelocation::Kind::Symbol: kind = 1; break;
    case DynamicRelocation::Kind::Copy: kind = 2; break;
    case DynamicRelocation::Kind::Irelative: kind = 3; break;
    case DynamicRelocation::Kind::ThreadPointerOffset: kind = 4; break;
    case DynamicRelocation::Kind::Unsupported: continue;   // refused before, unless allowed
    }
    relocations.push_back(llvm::ConstantStruct::get(
        relocationType,
        {constant(kind), constant(relocation.address), constant(relocation.value),
         relocation.symbol.empty() ? null : privateString(module, relocation.symbol),
         relocation.version.empty() ? null : privateString(module, relocation.version),
         constant(relocation.weak)}));
  }

  // Original address -> lifted code: lifted functions, and imports by their PLT stubs (a
  // non-PIE program's pointer to a library function is the stub's address).
  std::map<uint64_t, llvm::Function *> byAddress;
  for (llvm::Function &function : module)
    if (!function.isDeclaration() && !function.hasFnAttribute("hoist-not-lifted"))
      if (std::optional<uint64_t> entry = entryAddressOf(function))
        byAddress.emplace(*entry, &function);
  std::map<uint64_t, bool> isStub;
  for (const Import &import : image.imports())
    if (import.stubAddress && !byAddress.count(*import.stubAddress)) {
      byAddress.emplace(*import.stubAddress, declareImport(module, import));
      isStub[*import.stubAddress] = true;
    }
  defineImports(module, image, program);   // the stubs' imports may be new declarations
  auto *functionType = llvm::StructType::create(context, {i64, ptr, i64}, "HoistFunction");
  std::vector<llvm::Constant *> functions;
  for (auto it = byAddress.begin(); it != byAddress.end(); ++it) {
    auto next = std::next(it);
    uint64_t room = isStub.count(it->first)
                        ? 0
                        : patchRoom(image, it->first,
                                    next == byAddress.end() ? std::nullopt
                                                            : std::optional(next->first));
    if (room >= 5)
      ++report.patchableEntries;
    functions.push_back(
        llvm::ConstantStruct::get(functionType, {constant(it->first), it->second, constant(room)}));
  }
  report.functions = functions.size();

  auto *programType = llvm::StructType::create(
      context,
      {ptr, i64, ptr, i64, ptr, i64, ptr, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64,
       i64, i64},
      "HoistProgram");
  ThreadLocalSegment tls = program.threadLocal.value_or(ThreadLocalSegment{});
  uint64_t threadPointerOffset = emitGuestThreadBlock(module, tls);
  llvm::Constant *fields[] = {
      privateString(module, image.path()),
      constant(image.entryPoint()),
      privateArray(module, segmentType, segments, ".hoist.segments"),
      constant(segments.size()),
      privateArray(module, relocationType, relocations, ".hoist.relocations"),
      constant(relocations.size()),
      privateArray(module, functionType, functions, ".hoist.functions"),
      constant(functions.size()),
      constant(program.preinitArray), constant(program.preinitCount),
      constant(program.init), constant(program.initArray), constant(program.initCount),
      constant(program.fini), constant(program.finiArray), constant(program.finiCount),
      constant(tls.address), constant(tls.fileSize), constant(tls.offsetBelowThreadPointer()),
      constant(threadPointerOffset)};
  new llvm::GlobalVariable(module, programType, true, llvm::GlobalValue::ExternalLinkage,
                           llvm::ConstantStruct::get(programType, fields), "hoist_program");
  return report;
}

} // namespace hoist
