#include "Translate/PartitionedObjects.h"

#include "Support/Error.h"
#include "Translate/HostObject.h"

#include <llvm/ADT/StringSet.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <optional>
#include <thread>

namespace hoist {
namespace {

/// In the partition's own copy of the module (read lazily from the whole module's bitcode),
/// makes every symbol other partitions define a declaration, and loads the bodies of its own.
llvm::Error keepOnlyPartition(llvm::Module &part, const llvm::StringSet<> &defined) {
  for (llvm::Function &function : part)
    if (!function.isDeclaration() && !defined.contains(function.getName()))
      function.deleteBody();   // also drops the body not yet read, and makes it external
  for (llvm::GlobalVariable &variable : part.globals())
    if (variable.hasInitializer() && !defined.contains(variable.getName())) {
      variable.setInitializer(nullptr);
      variable.setLinkage(llvm::GlobalValue::ExternalLinkage);
      variable.setComdat(nullptr);
    }
  return part.materializeAll();
}

/// Compiles one partition in a context of its own.
llvm::Error compilePartition(llvm::MemoryBufferRef bitcode, const llvm::StringSet<> &defined,
                             const std::string &path) {
  llvm::LLVMContext context;
  llvm::Expected<std::unique_ptr<llvm::Module>> part =
      llvm::getLazyBitcodeModule(bitcode, context);
  if (!part)
    return part.takeError();
  if (llvm::Error error = keepOnlyPartition(**part, defined))
    return error;
  return writeObjectForThisCpu(**part, path);
}

} // namespace

unsigned partitionCount(const llvm::Module &module, unsigned jobs) {
  // An alias or an ifunc names another symbol's definition, which a partition would hold as a
  // declaration; a linkonce, weak, common or appending definition may be dropped or merged by
  // its object, and another partition would then miss it. Translated modules have none (their
  // definitions are external or local), and one that has any is compiled whole.
  if (!module.alias_empty() || !module.ifunc_empty())
    return 1;
  for (const llvm::GlobalObject &object : module.global_objects())
    if (!object.isDeclaration() && !object.hasExternalLinkage() && !object.hasLocalLinkage())
      return 1;
  size_t defined = llvm::count_if(
      module, [](const llvm::Function &function) { return !function.isDeclaration(); });
  return static_cast<unsigned>(std::max<size_t>(1, std::min<size_t>(jobs, defined)));
}

std::vector<std::vector<std::string>> assignPartitions(const llvm::Module &module,
                                                       unsigned partitions) {
  // Largest first, each to the partition that is smallest so far (the first of equals): the
  // largest function then shares a thread with the fewest others. Names break ties in size,
  // so the module's order of functions does not matter.
  std::vector<const llvm::Function *> functions;
  for (const llvm::Function &function : module)
    if (!function.isDeclaration())
      functions.push_back(&function);
  llvm::sort(functions, [](const llvm::Function *a, const llvm::Function *b) {
    size_t sizeA = a->getInstructionCount(), sizeB = b->getInstructionCount();
    return sizeA != sizeB ? sizeA > sizeB : a->getName() < b->getName();
  });
  std::vector<std::vector<std::string>> defined(partitions);
  std::vector<uint64_t> load(partitions, 0);
  for (const llvm::Function *function : functions) {
    size_t smallest = std::min_element(load.begin(), load.end()) - load.begin();
    load[smallest] += function->getInstructionCount() + 1;
    defined[smallest].push_back(function->getName().str());
  }
  // The variables (the program's tables and segments) are data: code generation only copies
  // their bytes out.
  for (const llvm::GlobalVariable &variable : module.globals())
    if (variable.hasInitializer())
      defined[0].push_back(variable.getName().str());
  return defined;
}

void externalizeLocals(llvm::Module &module) {
  // A lifted function keeps its symbol's name (Lifter.h, keepLiftedFunctionsLocal): under that
  // name and external, a lifted `malloc` or `error` would stand in for the C library's in the
  // runtime's calls. Hidden: nothing outside the executable sees them, and the code reaches
  // them directly, not through the GOT, as it reaches a local symbol.
  for (llvm::GlobalValue &value : module.global_values()) {
    if (!value.hasLocalLinkage())
      continue;
    value.setName(".hoist.local." + (value.hasName() ? value.getName().str() : "unnamed"));
    value.setLinkage(llvm::GlobalValue::ExternalLinkage);
    value.setVisibility(llvm::GlobalValue::HiddenVisibility);
  }
}

llvm::Error writePartitionedObjects(llvm::Module &module, unsigned jobs,
                                    const std::vector<std::string> &paths) {
  unsigned partitions = partitionCount(module, jobs);
  if (partitions == 1)
    return writeObjectForThisCpu(module, paths.front());
  externalizeLocals(module);
  std::vector<llvm::StringSet<>> defined(partitions);
  std::vector<std::vector<std::string>> assigned = assignPartitions(module, partitions);
  for (unsigned i = 0; i < partitions; ++i)
    for (const std::string &name : assigned[i])
      defined[i].insert(name);
  // Each thread reads the whole module's bitcode lazily: only its own functions' bodies are
  // parsed, in its own context (an LLVMContext serves one thread at a time).
  llvm::SmallVector<char, 0> bitcode;
  {
    llvm::raw_svector_ostream out(bitcode);
    llvm::WriteBitcodeToFile(module, out);
  }
  llvm::MemoryBufferRef buffer(llvm::StringRef(bitcode.data(), bitcode.size()),
                               module.getModuleIdentifier());
  std::vector<std::optional<std::string>> failures(partitions);
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < partitions; ++i)
    threads.emplace_back([&, i] {
      if (llvm::Error error = compilePartition(buffer, defined[i], paths[i]))
        failures[i] = llvm::toString(std::move(error));
    });
  for (std::thread &thread : threads)
    thread.join();
  for (unsigned i = 0; i < partitions; ++i)
    if (failures[i])
      return makeError("{0}: partition {1} of {2}: {3}", module.getModuleIdentifier(), i + 1,
                       partitions, *failures[i]);
  return llvm::Error::success();
}

} // namespace hoist
