#include "ImportCoverage.h"

#include "Discover/FunctionExplorer.h"
#include "Prototypes/LibraryPrototype.h"

#include <llvm/Support/FormatVariadic.h>

#include <algorithm>

namespace hoist {

ImportCoverage::ImportCoverage(const Image &image) {
  for (const Import &import : image.imports()) {
    Key key{import.library, import.name.substr(0, import.name.find('@'))};
    if (import.definedAt)
      key = Key{OwnExport, key.second}; // not an import of another library
    else
      names_[key].declared |= findImportPrototype(import.name, import.library) != nullptr;
    byTarget_.emplace(import.slotAddress, key);
    if (import.stubAddress) {
      byTarget_.emplace(*import.stubAddress, key);
      stubs_.insert(*import.stubAddress);
    }
  }
}

bool ImportCoverage::isStubJump(const Instr &instr) const {
  // At the stub, or after its `endbr64` (.plt.sec with CET).
  constexpr uint64_t EndbrLength = 4;
  return instr.category == ZYDIS_CATEGORY_UNCOND_BR &&
         (stubs_.count(instr.address) || stubs_.count(instr.address - EndbrLength));
}

void ImportCoverage::count(const Instr &instr) {
  if (instr.category != ZYDIS_CATEGORY_CALL && instr.category != ZYDIS_CATEGORY_UNCOND_BR)
    return;
  bool throughSlot = false;
  std::optional<uint64_t> target = directTarget(instr, &throughSlot);
  if (!target || (throughSlot && isStubJump(instr)))
    return;
  auto found = byTarget_.find(*target);
  if (found == byTarget_.end())
    return;
  if (found->second.first == OwnExport)
    ++ownExportCallSites_;
  else
    ++names_[found->second].callSites;
}

void ImportCoverage::add(const ImportCoverage &other) {
  ownExportCallSites_ += other.ownExportCallSites_;
  for (const auto &[key, name] : other.names_) {
    Name &merged = names_[key];
    merged.declared |= name.declared;
    merged.callSites += name.callSites;
  }
}

uint64_t ImportCoverage::declaredNames() const {
  return std::count_if(names_.begin(), names_.end(),
                       [](const auto &entry) { return entry.second.declared; });
}

uint64_t ImportCoverage::callSites() const {
  uint64_t total = 0;
  for (const auto &entry : names_)
    total += entry.second.callSites;
  return total;
}

uint64_t ImportCoverage::declaredCallSites() const {
  uint64_t total = 0;
  for (const auto &entry : names_)
    total += entry.second.declared ? entry.second.callSites : 0;
  return total;
}

std::vector<std::pair<ImportCoverage::Key, ImportCoverage::Name>>
ImportCoverage::undeclared() const {
  std::vector<std::pair<Key, Name>> result;
  for (const auto &entry : names_)
    if (!entry.second.declared)
      result.push_back(entry);
  std::stable_sort(result.begin(), result.end(), [](const auto &a, const auto &b) {
    return a.second.callSites > b.second.callSites;
  });
  return result;
}

namespace {

std::string share(uint64_t part, uint64_t whole) {
  return whole ? llvm::formatv("{0:F2}%", 100.0 * part / whole).str() : "-";
}

std::string displayName(const ImportCoverage::Key &key) {
  return key.first.empty() ? key.second : key.first + "!" + key.second;
}

} // namespace

void ImportCoverage::print(llvm::raw_ostream &out, size_t undeclaredShown) const {
  out << llvm::formatv("  imports            {0,12}  ({1} declared by a header: {2})\n", names(),
                       declaredNames(), share(declaredNames(), names()));
  out << llvm::formatv("  import call sites  {0,12}  ({1} to declared imports: {2})\n",
                       callSites(), declaredCallSites(), share(declaredCallSites(), callSites()));
  if (ownExportCallSites_)
    out << llvm::formatv("  calls of its own exports through its PLT {0} (not imports)\n",
                         ownExportCallSites_);
  std::vector<std::pair<Key, Name>> missing = undeclared();
  if (missing.empty())
    return;
  out << "  imports no header declares (" << missing.size() << "), call sites:\n";
  for (size_t i = 0; i < std::min(missing.size(), undeclaredShown); ++i)
    out << llvm::formatv("    {0,-40} {1,10}\n", displayName(missing[i].first),
                         missing[i].second.callSites);
  if (missing.size() > undeclaredShown)
    out << "    ... " << missing.size() - undeclaredShown << " more\n";
}

llvm::json::Object ImportCoverage::toJson() const {
  llvm::json::Array missing;
  for (const auto &[key, name] : undeclared()) {
    llvm::json::Object entry{{"name", key.second}, {"call_sites", name.callSites}};
    if (!key.first.empty())
      entry["library"] = key.first;
    missing.push_back(std::move(entry));
  }
  return llvm::json::Object{{"names", names()},
                            {"declared_names", declaredNames()},
                            {"call_sites", callSites()},
                            {"declared_call_sites", declaredCallSites()},
                            {"own_export_call_sites", ownExportCallSites_},
                            {"undeclared", std::move(missing)}};
}

} // namespace hoist
