// `hoist stats`: how much of a binary's code Hoist has semantics for, and how many of its
// imports and of the calls to them have a prototype from the headers. Discovery and decoding
// only (nothing is lifted to IR), so that it runs over whole directories of binaries.
#include "Commands.h"
#include "ImportCoverage.h"

#include "Decode/Decoder.h"
#include "Discover/ProgramDiscovery.h"
#include "Semantics/Semantics.h"
#include "Support/Diagnostics.h"
#include "Support/Error.h"
#include "hoist/Options.h"

#include <llvm/ADT/BitVector.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <array>

namespace hoist {
namespace {

/// Instruction counts of one binary, or summed over all of them.
struct InstructionCounts {
  uint64_t instructions = 0;    ///< decoded instructions (invalid bytes not included)
  uint64_t withSemantics = 0;
  uint64_t invalid = 0;         ///< addresses whose bytes do not decode
  uint64_t generalPurposeWithoutSemantics = 0;   ///< not SIMD, x87 or MMX (Instr::isGeneralPurpose)
  uint64_t avx512WithoutSemantics = 0;   ///< Instr::isAvx512: out of scope by design
  std::array<uint64_t, ZYDIS_MNEMONIC_MAX_VALUE + 1> unsupportedByMnemonic{};
  /// The same, AVX-512 forms left out: what remains once AVX-512 is set aside.
  std::array<uint64_t, ZYDIS_MNEMONIC_MAX_VALUE + 1> unsupportedOutsideAvx512{};

  uint64_t withoutSemantics() const { return instructions - withSemantics; }

  void count(const Instr &instr) {
    ++instructions;
    // A mnemonic whose semantic rejects some forms (mov to a segment register, far jmp)
    // still counts as supported: telling those apart would need lifting.
    if (findSemantic(instr))
      ++withSemantics;
    else {
      ++unsupportedByMnemonic[instr.mnemonic];
      generalPurposeWithoutSemantics += instr.isGeneralPurpose();
      bool avx512 = instr.isAvx512();
      avx512WithoutSemantics += avx512;
      unsupportedOutsideAvx512[instr.mnemonic] += !avx512;
    }
  }

  void add(const InstructionCounts &other) {
    instructions += other.instructions;
    withSemantics += other.withSemantics;
    invalid += other.invalid;
    generalPurposeWithoutSemantics += other.generalPurposeWithoutSemantics;
    avx512WithoutSemantics += other.avx512WithoutSemantics;
    for (size_t i = 0; i < unsupportedByMnemonic.size(); ++i) {
      unsupportedByMnemonic[i] += other.unsupportedByMnemonic[i];
      unsupportedOutsideAvx512[i] += other.unsupportedOutsideAvx512[i];
    }
  }

  /// Unsupported mnemonics, most frequent first (ties by name, so output is stable).
  std::vector<std::pair<llvm::StringRef, uint64_t>> unsupportedSorted(bool outsideAvx512 = false) const {
    const auto &counts = outsideAvx512 ? unsupportedOutsideAvx512 : unsupportedByMnemonic;
    std::vector<std::pair<llvm::StringRef, uint64_t>> sorted;
    for (size_t i = 0; i < counts.size(); ++i)
      if (counts[i])
        sorted.emplace_back(ZydisMnemonicGetString(static_cast<ZydisMnemonic>(i)), counts[i]);
    std::sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) {
      return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    return sorted;
  }
};

struct BinaryStats {
  std::string path;
  std::string kind;
  uint64_t entries = 0;            ///< reachable mode: the functions `cfg --all` finds
  uint64_t budgetExhausted = 0;    ///< reachable mode: functions cut short by LiftOptions
  InstructionCounts counts;
  ImportCoverage imports;
};

/// Which addresses were already counted, one bit per file-backed byte of each executable
/// section. A bitmap rather than a hash set: it stays small (an eighth of the code size) even
/// for binaries with millions of instructions, and it is bounded by the file size.
class SeenAddresses {
public:
  explicit SeenAddresses(const Image &image) : image_(image), bits_(image.sections().size()) {}

  /// True the first time `address` is inserted.
  bool insert(uint64_t address) {
    const Section *section = image_.sectionAt(address);
    if (!section || address - section->address >= section->fileSize)
      return false;   // no bytes there, so nothing was decoded to count
    llvm::BitVector &bits = bits_[section - image_.sections().data()];
    if (bits.empty())
      bits.resize(section->fileSize);
    uint64_t offset = address - section->address;
    if (bits.test(offset))
      return false;
    bits.set(offset);
    return true;
  }

private:
  const Image &image_;
  std::vector<llvm::BitVector> bits_;   ///< parallel to image.sections(), sized on first use
};

/// Counts each distinct instruction of the functions `hoist cfg --all` finds once: program
/// discovery from every function start (the entry point, symbols, exports, unwind entries,
/// calls, code pointers; docs/CFG.md), its blocks decoded again (the CFG keeps none).
BinaryStats countReachable(const Image &image, const LiftOptions &options) {
  BinaryStats stats;
  stats.imports = ImportCoverage(image);
  DiagnosticSink diagnostics;   // only budget warnings count; nothing is shown
  ProgramDiscoveryRequest request;
  request.all = true;
  ProgramCfg cfg = discoverProgram(image, request, options, diagnostics);
  stats.entries = cfg.functions.size();
  SeenAddresses seen(image);
  Decoder decoder;
  for (const auto &[entry, function] : cfg.functions) {
    bool cutShort = false;
    for (const auto &[start, block] : function.explored.blocks) {
      forEachInstructionOfBlock(image, decoder, start, block.endAddress, [&](const Instr &instr) {
        if (seen.insert(instr.address)) {
          stats.counts.count(instr);
          stats.imports.count(instr);
        }
      });
      // An address decodes the same way every time, so an invalid address is never an
      // instruction's and the same bitmap keeps invalid addresses distinct too.
      if (block.end == MachineBlock::End::Invalid && seen.insert(block.endAddress))
        ++stats.counts.invalid;
      cutShort |= block.end == MachineBlock::End::Budget;
    }
    stats.budgetExhausted += cutShort;
  }
  return stats;
}

/// Decodes every executable section from its start; an undecodable byte counts as invalid and
/// the sweep resumes at the next byte. Each step advances, so the loop is bounded by the size.
BinaryStats countSweep(const Image &image) {
  BinaryStats stats;
  stats.imports = ImportCoverage(image);
  Decoder decoder;
  Instr instr;
  for (const Section &section : image.sections()) {
    // sectionAt() names the one section owning an address; skipping the others means
    // overlapping section headers never count the same bytes twice.
    if (!section.mapped || !section.executable || image.sectionAt(section.address) != &section)
      continue;
    llvm::ArrayRef<uint8_t> bytes = image.bytesAt(section.address);
    for (size_t offset = 0; offset < bytes.size();) {
      DecodeStatus status = decoder.decode(bytes.data() + offset, bytes.size() - offset,
                                           section.address + offset, instr);
      if (status == DecodeStatus::Ok) {
        stats.counts.count(instr);
        stats.imports.count(instr);
        offset += instr.length;
      } else {
        ++stats.counts.invalid;
        ++offset;
      }
    }
  }
  return stats;
}

std::optional<double> percentWithSemantics(const InstructionCounts &counts) {
  if (counts.instructions == 0)
    return std::nullopt;
  return 100.0 * counts.withSemantics / counts.instructions;
}

void printCounts(const InstructionCounts &counts, llvm::raw_ostream &out) {
  std::optional<double> percent = percentWithSemantics(counts);
  out << llvm::formatv("  instructions       {0,12}\n", counts.instructions);
  out << llvm::formatv("  with semantics     {0,12}  ({1})\n", counts.withSemantics,
                       percent ? llvm::formatv("{0:F2}%", *percent).str() : "-");
  out << llvm::formatv("  without semantics  {0,12}\n", counts.withoutSemantics());
  out << llvm::formatv("    general-purpose  {0,12}\n", counts.generalPurposeWithoutSemantics);
  out << llvm::formatv("    AVX-512          {0,12}\n", counts.avx512WithoutSemantics);
  out << llvm::formatv("  invalid            {0,12}\n", counts.invalid);
  auto unsupported = counts.unsupportedSorted();
  if (unsupported.empty())
    return;
  out << "  unsupported mnemonics (" << unsupported.size() << "):\n";
  for (const auto &[mnemonic, count] : unsupported)
    out << llvm::formatv("    {0,-16} {1,10}\n", mnemonic, count);
}

void printText(const std::vector<BinaryStats> &binaries, const InstructionCounts &total,
               const ImportCoverage &totalImports, size_t skipped, bool sweep,
               llvm::raw_ostream &out) {
  for (const BinaryStats &binary : binaries) {
    out << binary.path << ": " << binary.kind;
    if (sweep)
      out << ", linear sweep of executable sections\n";
    else
      out << ", reachable from " << binary.entries << " functions"
          << (binary.budgetExhausted
                  ? llvm::formatv(" ({0} cut short by the budget)", binary.budgetExhausted).str()
                  : "")
          << "\n";
    printCounts(binary.counts, out);
    binary.imports.print(out, 10);
  }
  out << "total: " << binaries.size() << " files read, " << skipped << " skipped\n";
  printCounts(total, out);
  totalImports.print(out, 30);
}

llvm::json::Array mnemonicCounts(
    const std::vector<std::pair<llvm::StringRef, uint64_t>> &sorted) {
  llvm::json::Array out;
  for (const auto &[mnemonic, count] : sorted)
    out.push_back(llvm::json::Object{{"mnemonic", mnemonic}, {"count", count}});
  return out;
}

llvm::json::Object countsToJson(const InstructionCounts &counts) {
  llvm::json::Array unsupported = mnemonicCounts(counts.unsupportedSorted());
  std::optional<double> percent = percentWithSemantics(counts);
  return llvm::json::Object{
      {"instructions", counts.instructions},
      {"with_semantics", counts.withSemantics},
      {"without_semantics", counts.withoutSemantics()},
      {"general_purpose_without_semantics", counts.generalPurposeWithoutSemantics},
      {"avx512_without_semantics", counts.avx512WithoutSemantics},
      {"invalid", counts.invalid},
      {"percent_with_semantics", percent ? llvm::json::Value(*percent) : llvm::json::Value(nullptr)},
      {"unsupported", std::move(unsupported)},
      {"unsupported_outside_avx512", mnemonicCounts(counts.unsupportedSorted(true))}};
}

llvm::json::Value toJson(const std::vector<BinaryStats> &binaries, const InstructionCounts &total,
                         const ImportCoverage &totalImports,
                         const std::vector<std::string> &skipped, bool sweep) {
  llvm::json::Array files;
  for (const BinaryStats &binary : binaries) {
    llvm::json::Object entry = countsToJson(binary.counts);
    entry["path"] = binary.path;
    entry["kind"] = binary.kind;
    entry["imports"] = binary.imports.toJson();
    if (!sweep) {
      entry["entries"] = binary.entries;
      entry["budget_exhausted"] = binary.budgetExhausted;
    }
    files.push_back(std::move(entry));
  }
  llvm::json::Object totals = countsToJson(total);
  totals["files_read"] = binaries.size();
  totals["files_skipped"] = skipped.size();
  totals["imports"] = totalImports.toJson();
  return llvm::json::Object{{"mode", sweep ? "sweep" : "reachable"},
                            {"files", std::move(files)},
                            {"skipped", llvm::json::Array(skipped)},
                            {"total", std::move(totals)}};
}

} // namespace

int runStats(const StatsCommandOptions &options) {
  LiftOptions budgets;
  std::vector<BinaryStats> binaries;
  std::vector<std::string> skipped;
  InstructionCounts total;
  ImportCoverage totalImports;
  for (const std::string &path : options.paths) {
    InputOptions input{path, options.rawBase};
    llvm::Expected<std::unique_ptr<Image>> image = loadInput(input);
    if (!image) {
      // One bad file among many (`hoist stats /usr/bin/*` meets scripts) must not stop the rest.
      llvm::errs() << "hoist: warning: " << llvm::toString(image.takeError()) << "; skipped\n";
      skipped.push_back(path);
      continue;
    }
    BinaryStats stats = options.sweep ? countSweep(**image) : countReachable(**image, budgets);
    stats.path = path;
    stats.kind = (*image)->kindDescription();
    total.add(stats.counts);
    totalImports.add(stats.imports);
    binaries.push_back(std::move(stats));
  }
  if (options.json)
    llvm::outs() << llvm::formatv("{0:2}", toJson(binaries, total, totalImports, skipped,
                                                  options.sweep))
                 << "\n";
  else
    printText(binaries, total, totalImports, skipped.size(), options.sweep, llvm::outs());
  if (binaries.empty())
    return reportFailure(makeError("no input could be read"));
  return 0;
}

} // namespace hoist
