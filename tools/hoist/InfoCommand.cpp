// `hoist info`: everything the image loader knows about a binary, as text or as JSON.
#include "Commands.h"
#include "RecognizedFunctions.h"
#include "Support/Error.h"

#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

namespace hoist {
namespace {

std::string permissions(const Section &section) {
  std::string text = "---";
  if (section.readable)
    text[0] = 'r';
  if (section.writable)
    text[1] = 'w';
  if (section.executable)
    text[2] = 'x';
  return text;
}

const char *kindName(const Symbol &symbol) {
  if (symbol.indirect)
    return "ifunc";   // the address is the resolver's
  switch (symbol.kind) {
  case Symbol::Kind::Function:
    return "function";
  case Symbol::Kind::Object:
    return "object";
  case Symbol::Kind::Other:
    return "other";
  }
  return "other";
}

const char *sourceName(Symbol::Source source) {
  switch (source) {
  case Symbol::Source::Static:
    return "static";
  case Symbol::Source::Dynamic:
    return "dynamic";
  case Symbol::Source::Coff:
    return "coff";
  }
  return "static";
}

/// Addresses of unmapped sections and missing stubs print as "-" rather than a false 0x0.
std::string addressOrDash(std::optional<uint64_t> address) {
  return address ? formatAddress(*address) : "-";
}

/// The library functions signatures name where the image has no name of its own (a stripped
/// static program), over the function starts the image records (docs/SIGNATURES.md).
std::vector<std::pair<uint64_t, Recognition>> unnamedRecognized(const Image &image) {
  std::vector<std::pair<uint64_t, Recognition>> unnamed;
  for (auto &[entry, recognition] : recognizeProgram(image, {}))
    if (!image.nameAt(entry))
      unnamed.emplace_back(entry, std::move(recognition));
  return unnamed;
}

void printText(const Image &image, llvm::raw_ostream &out) {
  out << image.path() << ": " << image.kindDescription() << ", x86-64\n";
  out << "  entry point:  " << formatAddress(image.entryPoint()) << "\n";
  out << "  image base:   " << formatAddress(image.imageBase()) << "\n";
  out << "  position-independent: " << (image.isPositionIndependent() ? "yes" : "no") << "\n";

  out << "\nSections (" << image.sections().size() << ")\n";
  out << llvm::formatv("  {0,-18} {1,-10} {2,-4} {3,-10} {4,-10} {5}\n", "address", "size",
                       "perm", "offset", "file size", "name");
  for (const Section &section : image.sections())
    out << llvm::formatv("  {0,-18} {1,-10} {2,-4} {3,-10} {4,-10} {5}\n",
                         section.mapped ? formatAddress(section.address) : "-",
                         formatAddress(section.size), permissions(section),
                         formatAddress(section.fileOffset), formatAddress(section.fileSize),
                         section.name);

  out << "\nSymbols (" << image.symbols().size() << ")\n";
  out << llvm::formatv("  {0,-18} {1,-8} {2,-8} {3,-7} {4}\n", "address", "size", "kind",
                       "source", "name");
  for (const Symbol &symbol : image.symbols())
    out << llvm::formatv("  {0,-18} {1,-8} {2,-8} {3,-7} {4}\n", formatAddress(symbol.address),
                         formatAddress(symbol.size), kindName(symbol),
                         sourceName(symbol.source), symbol.name);

  out << "\nImports (" << image.imports().size() << ")\n";
  out << llvm::formatv("  {0,-18} {1,-18} {2,-16} {3}\n", "slot", "stub", "library", "name");
  for (const Import &import : image.imports())
    out << llvm::formatv("  {0,-18} {1,-18} {2,-16} {3}\n", formatAddress(import.slotAddress),
                         addressOrDash(import.stubAddress),
                         import.library.empty() ? "-" : import.library, import.name);

  out << "\nExports (" << image.exports().size() << ")\n";
  out << llvm::formatv("  {0,-18} {1}\n", "address", "name");
  for (const Export &exported : image.exports()) {
    if (exported.forwarder.empty())
      out << llvm::formatv("  {0,-18} {1}\n", formatAddress(exported.address), exported.name);
    else
      out << llvm::formatv("  {0,-18} {1} -> {2}\n", "-", exported.name, exported.forwarder);
  }

  std::vector<std::pair<uint64_t, Recognition>> recognized = unnamedRecognized(image);
  if (recognized.empty())
    return;
  out << "\nRecognized library functions (" << recognized.size() << ")\n";
  out << llvm::formatv("  {0,-18} {1}\n", "address", "name (library)");
  for (const auto &[entry, recognition] : recognized)
    out << llvm::formatv("  {0,-18} {1}{2}\n", formatAddress(entry), recognizedLabel(recognition),
                         recognition.library.empty() ? "" : " (" + recognition.library + ")");
}

llvm::json::Value toJson(const Image &image) {
  llvm::json::Array sections;
  for (const Section &section : image.sections()) {
    llvm::json::Object entry{{"name", section.name},
                             {"size", section.size},
                             {"file_offset", section.fileOffset},
                             {"file_size", section.fileSize},
                             {"permissions", permissions(section)},
                             {"mapped", section.mapped}};
    if (section.mapped)
      entry["address"] = formatAddress(section.address);
    sections.push_back(std::move(entry));
  }
  llvm::json::Array symbols;
  for (const Symbol &symbol : image.symbols())
    symbols.push_back(llvm::json::Object{{"name", symbol.name},
                                         {"address", formatAddress(symbol.address)},
                                         {"size", symbol.size},
                                         {"kind", kindName(symbol)},
                                         {"source", sourceName(symbol.source)}});
  llvm::json::Array imports;
  for (const Import &import : image.imports()) {
    llvm::json::Object entry{{"name", import.name},
                             {"slot", formatAddress(import.slotAddress)}};
    if (!import.library.empty())
      entry["library"] = import.library;
    if (import.stubAddress)
      entry["stub"] = formatAddress(*import.stubAddress);
    imports.push_back(std::move(entry));
  }
  llvm::json::Array exports;
  for (const Export &exported : image.exports()) {
    llvm::json::Object entry{{"name", exported.name}};
    if (exported.forwarder.empty())
      entry["address"] = formatAddress(exported.address);
    else
      entry["forwarder"] = exported.forwarder;
    exports.push_back(std::move(entry));
  }
  // Addresses are strings: JSON numbers lose precision above 2^53 in most readers.
  llvm::json::Object root{{"path", image.path()},
                            {"format", imageFormatName(image.format())},
                            {"kind", image.kindDescription()},
                            {"machine", "x86-64"},
                            {"entry_point", formatAddress(image.entryPoint())},
                            {"image_base", formatAddress(image.imageBase())},
                            {"position_independent", image.isPositionIndependent()},
                            {"library", image.isLibrary()},
                            {"sections", std::move(sections)},
                            {"symbols", std::move(symbols)},
                            {"imports", std::move(imports)},
                            {"exports", std::move(exports)}};
  // Only where signatures name something, so that other files' documents stay as they were.
  llvm::json::Array recognized;
  for (const auto &[entry, recognition] : unnamedRecognized(image)) {
    llvm::json::Array candidates;
    for (const std::string &candidate : recognition.candidates)
      candidates.push_back(candidate);
    llvm::json::Object item{{"address", formatAddress(entry)}, {"candidates", std::move(candidates)}};
    if (!recognition.name.empty()) {
      item["name"] = recognition.name;
      item["library"] = recognition.library;
    }
    recognized.push_back(std::move(item));
  }
  if (!recognized.empty())
    root["recognized"] = std::move(recognized);
  return root;
}

} // namespace

int runInfo(const InputOptions &input, bool json) {
  auto image = loadInput(input);
  if (!image)
    return reportFailure(image.takeError());
  if (json)
    llvm::outs() << llvm::formatv("{0:2}", toJson(**image)) << "\n";
  else
    printText(**image, llvm::outs());
  return 0;
}

} // namespace hoist
