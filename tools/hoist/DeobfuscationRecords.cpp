#include "DeobfuscationRecords.h"

#include "hoist/Lifter.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FormatVariadic.h>

#include <map>
#include <optional>
#include <string>

namespace hoist {
namespace {

/// The address `function` was lifted from: its `!hoist.entry`, else its symbol's.
std::optional<uint64_t> addressOf(const llvm::Function &function, const Image &image) {
  if (std::optional<uint64_t> address = entryAddressOf(function))
    return address;
  return image.lookupSymbol(function.getName());
}

} // namespace

llvm::json::Array deobfuscationRecords(const std::vector<DeobfuscationStats> &concolic,
                                       const DeobfuscationPassStats *passes,
                                       const llvm::Module &module, const Image &image) {
  std::map<uint64_t, std::string> nameAt;
  for (const llvm::Function &function : module)
    if (!function.isDeclaration())
      if (std::optional<uint64_t> address = addressOf(function, image))
        nameAt.emplace(*address, function.getName().str());
  llvm::json::Array records;
  std::map<std::string, size_t> recordOf;
  auto record = [&](const std::string &name, std::optional<uint64_t> entry) -> llvm::json::Object & {
    auto [found, added] = recordOf.emplace(name, records.size());
    if (added) {
      llvm::json::Object fresh{{"function", name}};
      if (entry)
        fresh["entry"] = "0x" + llvm::utohexstr(*entry, true);
      records.push_back(std::move(fresh));
    }
    return *records[found->second].getAsObject();
  };
  for (const DeobfuscationStats &stats : concolic) {
    auto named = nameAt.find(stats.entry);
    std::string name =
        named != nameAt.end() ? named->second : liftedFunctionName(image, stats.entry);
    record(name, stats.entry)["concolic"] = stats.toJSON();
  }
  if (!passes)
    return records;
  std::map<std::string, DeobfuscationCounts> byName = passes->byFunction();
  for (const llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    std::string name = function.getName().str();
    std::optional<uint64_t> address = addressOf(function, image);
    std::string lifted = address ? liftedFunctionName(image, *address) : name;
    DeobfuscationCounts sum;
    for (const std::string &key : {name, lifted, lifted + ".brightened"}) {
      auto found = byName.find(key);
      if (found == byName.end())
        continue;
      sum += found->second;
      byName.erase(found);   // a name listed twice (no symbol) counts once
    }
    record(name, address)["passes"] = sum.toJSON();
  }
  return records;
}

} // namespace hoist
