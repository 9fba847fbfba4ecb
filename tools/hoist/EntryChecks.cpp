// `lift --function 0xADDR` checked against the instructions discovery finds (EntryChecks.h).
#include "EntryChecks.h"

#include "Decode/Decoder.h"
#include "Discover/UnwindTables.h"
#include "Support/Error.h"
#include "hoist/ControlFlow.h"
#include "hoist/Program.h"

#include <llvm/ADT/StringRef.h>

#include <optional>

namespace hoist {
namespace {

struct EnclosingFunction {
  uint64_t start = 0;
  std::string name;   ///< its symbol's, else "the function at 0x..."
};

/// The function whose extent holds `address` past its first byte: a sized function symbol's,
/// else an unwind table's range (.eh_frame, .pdata), which stripped binaries keep.
std::optional<EnclosingFunction> enclosingFunction(const Image &image, uint64_t address) {
  for (const Symbol &symbol : image.symbols())
    if (symbol.kind == Symbol::Kind::Function && symbol.size > 0 &&
        symbol.address < address && address < symbol.address + symbol.size)
      return EnclosingFunction{symbol.address, symbol.name};
  llvm::Expected<std::vector<CodeRange>> ranges = image.format() == ImageFormat::Pe
                                                      ? pdataFunctionRanges(image)
                                                      : ehFrameFunctionRanges(image);
  if (!ranges) {
    llvm::consumeError(ranges.takeError());   // discovery reports a broken table
    return std::nullopt;
  }
  for (const CodeRange &range : *ranges)
    if (range.start < address && address < range.start + range.size)
      return EnclosingFunction{
          range.start,
          image.nameAt(range.start).value_or("the function at " + formatAddress(range.start))};
  return std::nullopt;
}

/// The instruction of `function`'s blocks that holds `address` past its first byte, if any.
std::optional<Instr> instructionAround(const Image &image, const CfgFunction &function,
                                       uint64_t address) {
  Decoder decoder;
  for (const CfgBlock &block : function.blocks) {
    if (address < block.start || address >= block.end)
      continue;
    for (uint64_t at = block.start; at < block.end;) {
      llvm::ArrayRef<uint8_t> bytes = image.bytesAt(at);
      Instr instr;
      if (bytes.empty() ||
          decoder.decode(bytes.data(), bytes.size(), at, instr) != DecodeStatus::Ok)
        break;
      if (at < address && address < instr.next())
        return instr;
      at = instr.next();
    }
  }
  return std::nullopt;
}

} // namespace

void warnMidInstructionEntries(const Image &image, const std::vector<std::string> &specs,
                               const LiftOptions &budgets, DiagnosticSink &diagnostics) {
  for (const std::string &spec : specs) {
    if (!llvm::StringRef(spec).starts_with_insensitive("0x"))
      continue;   // a name is a symbol's start
    llvm::Expected<uint64_t> address = resolveFunction(image, spec);
    if (!address) {
      llvm::consumeError(address.takeError());   // the lift reports it
      continue;
    }
    std::optional<EnclosingFunction> enclosing = enclosingFunction(image, *address);
    if (!enclosing)
      continue;
    // Discovery's own messages about the enclosing function are not this run's business.
    DiagnosticSink discoveryDiagnostics;
    llvm::Expected<ControlFlow> flow =
        discoverControlFlow(image, {enclosing->start}, false, budgets, discoveryDiagnostics);
    if (!flow) {
      llvm::consumeError(flow.takeError());
      continue;
    }
    for (const CfgFunction &function : flow->functions) {
      if (function.entry != enclosing->start)
        continue;
      if (std::optional<Instr> around = instructionAround(image, function, *address))
        diagnostics.warning(
            "mid-instruction-entry", *address,
            llvm::formatv("--function {0} is not the start of an instruction: it is inside "
                          "`{1}` at {2} in {3}; lifted from {0} as asked, which reads the "
                          "bytes as instructions {3} does not run",
                          formatAddress(*address), around->text(),
                          formatAddress(around->address), enclosing->name)
                .str());
    }
  }
}

} // namespace hoist
