#include "Deobf/Concolic/DeobfuscateOptions.h"

#include "Support/Error.h"

#include <llvm/ADT/StringExtras.h>

namespace hoist {
namespace {

llvm::Expected<uint64_t> parseNumber(llvm::StringRef text, llvm::StringRef option) {
  uint64_t value = 0;
  if (text.trim().getAsInteger(0, value))
    return makeError("--{0}: '{1}' is not an address (0x...)", option, text);
  return value;
}

llvm::Expected<std::vector<AddressRange>> parseRanges(llvm::StringRef list,
                                                      llvm::StringRef option) {
  std::vector<AddressRange> ranges;
  llvm::SmallVector<llvm::StringRef, 4> items;
  list.split(items, ',', -1, false);
  for (llvm::StringRef item : items) {
    auto [low, high] = item.split('-');
    llvm::Expected<uint64_t> begin = parseNumber(low, option);
    if (!begin)
      return begin.takeError();
    llvm::Expected<uint64_t> end = parseNumber(high, option);
    if (!end)
      return end.takeError();
    if (*end <= *begin)
      return makeError("--{0}: '{1}' is not a range LOW-HIGH with LOW < HIGH", option, item);
    ranges.push_back({*begin, *end});
  }
  return ranges;
}

} // namespace

llvm::Expected<DeobfuscateOptions> parseDeobfuscateOptions(llvm::StringRef outline,
                                                           llvm::StringRef concrete,
                                                           llvm::StringRef symbolic) {
  DeobfuscateOptions options;
  llvm::SmallVector<llvm::StringRef, 4> items;
  outline.split(items, ',', -1, false);
  for (llvm::StringRef item : items) {
    llvm::Expected<uint64_t> address = parseNumber(item, "outline");
    if (!address)
      return address.takeError();
    options.outline.insert(*address);
  }
  llvm::Expected<std::vector<AddressRange>> concreteRanges =
      parseRanges(concrete, "concrete-memory");
  if (!concreteRanges)
    return concreteRanges.takeError();
  options.concrete = std::move(*concreteRanges);
  llvm::Expected<std::vector<AddressRange>> symbolicRanges =
      parseRanges(symbolic, "symbolic-memory");
  if (!symbolicRanges)
    return symbolicRanges.takeError();
  options.symbolic = std::move(*symbolicRanges);
  return options;
}

llvm::json::Object DeobfuscationStats::toJSON() const {
  return llvm::json::Object{{"block_instances", blockInstances},
                            {"contexts", contexts},
                            {"addresses", addresses},
                            {"instructions_lifted", instructionsLifted},
                            {"loops_generalized", loopsGeneralized},
                            {"branches_folded", branchesFolded},
                            {"branches_proved", branchesProved},
                            {"indirect_followed", indirectFollowed},
                            {"calls_inlined", callsInlined},
                            {"external_calls", externalCalls},
                            {"joins_merged", joinsMerged},
                            {"budgets_hit", budgetsHit}};
}

} // namespace hoist
