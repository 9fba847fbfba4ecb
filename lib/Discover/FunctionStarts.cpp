#include "Discover/FunctionStarts.h"

#include "Discover/UnwindTables.h"
#include "Support/Diagnostics.h"

namespace hoist {
namespace {

void addStarts(const Image &image, llvm::Expected<std::vector<CodeRange>> ranges,
               uint32_t reason, JumpTargetRegistry &registry, UnwindRanges &known,
               std::set<uint64_t> &continuingFrames, DiagnosticSink &diagnostics) {
  if (!ranges) {
    diagnostics.warning("unwind-table", std::nullopt, llvm::toString(ranges.takeError()));
    return;
  }
  for (const CodeRange &range : *ranges) {
    // The linker's FDEs for the PLT describe stubs, not functions; imports name the stubs.
    const Section *section = image.sectionAt(range.start);
    if (image.isExecutable(range.start) && !llvm::StringRef(section->name).starts_with(".plt")) {
      registry.add(range.start, reason);
      uint64_t &size = known[range.start];
      size = std::max(size, range.size);
      if (range.continuesFrame)
        continuingFrames.insert(range.start);
    }
  }
}

/// .init and .fini start with a function each; .init_array and .fini_array hold pointers to
/// functions (absolute in the file for non-PIE images, relocated at load time otherwise).
void addInitCode(const Image &image, JumpTargetRegistry &registry) {
  for (const Section &section : image.sections()) {
    if (!section.mapped)
      continue;
    if ((section.name == ".init" || section.name == ".fini") && section.executable)
      registry.add(section.address, ReasonInitSection);
    if (section.name != ".init_array" && section.name != ".fini_array")
      continue;
    for (uint64_t pointer : initializerArrayEntries(image, section))
      if (image.isExecutable(pointer))
        registry.add(pointer, ReasonInitSection);
  }
}

} // namespace

std::vector<uint64_t> initializerArrayEntries(const Image &image, const Section &section) {
  constexpr uint64_t MaxEntries = 4096;
  std::vector<uint64_t> entries;
  for (uint64_t offset = 0; offset + 8 <= section.fileSize && offset < 8 * MaxEntries;
       offset += 8) {
    uint64_t pointer = 0;
    if (image.read(section.address + offset, &pointer, 8) && pointer != 0 &&
        pointer != ~uint64_t(0))
      entries.push_back(pointer);
  }
  return entries;
}

bool insideUnwindRange(const UnwindRanges &ranges, uint64_t address) {
  auto it = ranges.upper_bound(address);
  if (it == ranges.begin())
    return false;
  --it;
  return address - it->first < it->second;
}

UnwindRanges registerFunctionStarts(const Image &image, JumpTargetRegistry &registry,
                                    std::set<uint64_t> &continuingFrames,
                                    DiagnosticSink &diagnostics) {
  UnwindRanges ranges;
  if (image.isExecutable(image.entryPoint()))
    registry.add(image.entryPoint(), ReasonEntry);
  for (const Symbol &symbol : image.symbols())
    if (symbol.kind == Symbol::Kind::Function && image.isExecutable(symbol.address))
      registry.add(symbol.address, ReasonSymbol);
  for (const Export &exported : image.exports())
    if (exported.forwarder.empty() && image.isExecutable(exported.address))
      registry.add(exported.address, ReasonExport);
  addStarts(image, ehFrameFunctionRanges(image), ReasonEhFrame, registry, ranges,
            continuingFrames, diagnostics);
  addStarts(image, pdataFunctionRanges(image), ReasonPdata, registry, ranges,
            continuingFrames, diagnostics);
  if (image.format() == ImageFormat::Elf)
    addInitCode(image, registry);
  return ranges;
}

} // namespace hoist
