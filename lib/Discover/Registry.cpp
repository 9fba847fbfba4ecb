#include "Discover/Registry.h"

namespace hoist {

std::vector<std::string> reasonNames(uint32_t reasons) {
  static const char *const Names[] = {"entry",  "symbol",       "export",      "call",
                                      "eh_frame", "pdata",      "init",        "jump",
                                      "jump_table", "tail_call", "leaves_function",
                                      "data_pointer", "code_reference", "gap",
                                      "called_through"};
  std::vector<std::string> names;
  for (unsigned bit = 0; bit < std::size(Names); ++bit)
    if (reasons & (1u << bit))
      names.push_back(Names[bit]);
  return names;
}

bool JumpTargetRegistry::add(uint64_t address, uint32_t reasons) {
  uint32_t &known = reasons_[address];
  if ((known | reasons) == known)
    return false;
  known |= reasons;
  changed_.insert(address);
  return true;
}

uint32_t JumpTargetRegistry::reasons(uint64_t address) const {
  auto it = reasons_.find(address);
  return it == reasons_.end() ? 0 : it->second;
}

std::vector<uint64_t> JumpTargetRegistry::takeChanged() {
  std::vector<uint64_t> changed(changed_.begin(), changed_.end());
  changed_.clear();
  return changed;
}

std::set<uint64_t> JumpTargetRegistry::functionStarts() const {
  std::set<uint64_t> starts;
  for (const auto &[address, reasons] : reasons_)
    if (reasons & FunctionStartReasons)
      starts.insert(starts.end(), address);
  return starts;
}

} // namespace hoist
