#include "AnnotatedIR.h"
#include "CompactAssembly.h"

#include "hoist/Lifter.h"

#include <llvm/IR/AssemblyAnnotationWriter.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instruction.h>
#include <llvm/IR/Metadata.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/FormattedStream.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace hoist {
namespace {

/// How many instructions listUntagged lists before one tagged instruction: more apart, the
/// two are not one straight run of the function's code.
constexpr unsigned MaxUntaggedRun = 32;

class MachineCodeAnnotator : public llvm::AssemblyAnnotationWriter {
public:
  MachineCodeAnnotator(const Image &image, AnnotateOptions options)
      : image_(image), options_(options) {}

  void emitFunctionAnnot(const llvm::Function *function, llvm::formatted_raw_ostream &out) override {
    entry_ = entryAddressOf(*function);
    tagged_.clear();
    listedUntagged_.clear();
    if (!entry_ || function->isDeclaration())
      return;
    out << llvm::formatv("; lifted from 0x{0:x-}\n", *entry_);
    for (const llvm::Instruction &instruction : llvm::instructions(*function))
      if (std::optional<uint64_t> pc = pcOf(instruction))
        tagged_.insert(*pc);
  }

  void emitBasicBlockStartAnnot(const llvm::BasicBlock *,
                                llvm::formatted_raw_ostream &) override {
    // Each block lists its first machine instruction, also when the block before ended with
    // it (an instruction whose IR was split into two blocks).
    current_.reset();
  }

  void emitInstructionAnnot(const llvm::Instruction *instruction,
                            llvm::formatted_raw_ostream &out) override {
    std::optional<uint64_t> pc = pcOf(*instruction);
    if (!pc || pc == current_)
      return;
    if (options_.listUntagged)
      listUntaggedBefore(*pc, out);
    line(*pc, out);
    current_ = pc;
  }

private:
  std::optional<uint64_t> pcOf(const llvm::Instruction &instruction) {
    if (!pcKind_)
      pcKind_ = instruction.getContext().getMDKindID("hoist.pc");
    llvm::MDNode *node = instruction.getMetadata(*pcKind_);
    if (!node || node->getNumOperands() != 1)
      return std::nullopt;
    if (auto *value = llvm::mdconst::dyn_extract<llvm::ConstantInt>(node->getOperand(0)))
      return value->getZExtValue();
    return std::nullopt;
  }

  /// The machine instructions that left no IR of their own (a register move the SSA form
  /// absorbed) and run straight into `pc`: those after the closest tagged instruction before
  /// it, or from the function's entry. After a jump or return, the padding a compiler aligns
  /// the next block with is not listed. Each is listed once, before the first IR of `pc`.
  void listUntaggedBefore(uint64_t pc, llvm::formatted_raw_ostream &out) {
    std::optional<uint64_t> from;
    auto previous = tagged_.lower_bound(pc);
    if (previous != tagged_.begin()) {
      std::optional<Disassembled> tagged = disassembler_.at(image_, *std::prev(previous));
      if (!tagged)
        return;
      from = tagged->next;
      if (tagged->endsRun)
        from = pastPadding(*from, pc);
    } else if (entry_ && *entry_ < pc) {
      from = entry_;
    }
    if (!from)
      return;
    std::vector<std::pair<uint64_t, std::string>> run;
    for (uint64_t address = *from; address != pc;) {
      std::optional<Disassembled> instruction = disassembler_.at(image_, address);
      if (!instruction || instruction->next > pc || run.size() == MaxUntaggedRun)
        return;   // not one straight run into `pc`
      run.emplace_back(address, instruction->text);
      address = instruction->next;
    }
    for (const auto &[address, text] : run)
      if (listedUntagged_.insert(address).second)
        out << llvm::formatv("  ; 0x{0:x-}: {1}\n", address, text);
  }

  uint64_t pastPadding(uint64_t address, uint64_t limit) const {
    while (address < limit) {
      std::optional<Disassembled> instruction = disassembler_.at(image_, address);
      if (!instruction || !instruction->isPadding)
        break;
      address = instruction->next;
    }
    return address;
  }

  void line(uint64_t address, llvm::formatted_raw_ostream &out) const {
    std::optional<Disassembled> instruction = disassembler_.at(image_, address);
    out << llvm::formatv("  ; 0x{0:x-}: {1}\n", address,
                         instruction ? instruction->text : std::string("<undecodable>"));
  }

  const Image &image_;
  AnnotateOptions options_;
  std::optional<unsigned> pcKind_;
  CompactDisassembler disassembler_;
  std::optional<uint64_t> entry_;
  std::set<uint64_t> tagged_;           ///< the current function's tagged addresses
  std::set<uint64_t> listedUntagged_;   ///< the untagged ones listed so far
  std::optional<uint64_t> current_;     ///< the address the current block listed last
};

} // namespace

void printAnnotated(const llvm::Module &module, const Image &image, AnnotateOptions options,
                    llvm::raw_ostream &out) {
  MachineCodeAnnotator annotator(image, options);
  module.print(out, &annotator);
}

} // namespace hoist
