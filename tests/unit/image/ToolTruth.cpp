#include "ToolTruth.h"
#include "TestBinaries.h"

#include <gtest/gtest.h>

#include <llvm/ADT/StringExtras.h>
#include <llvm/ADT/StringRef.h>

#include <cstdio>
#include <cstring>
#include <sstream>

namespace hoist::test {
namespace {

std::string llvmTool(const char *name) { return std::string(llvmToolsDir) + "/" + name; }

std::string quoted(const std::string &path) { return "'" + path + "'"; }

std::vector<llvm::StringRef> lines(llvm::StringRef text) {
  llvm::SmallVector<llvm::StringRef, 0> parts;
  text.split(parts, '\n', -1, /*KeepEmpty=*/false);
  return {parts.begin(), parts.end()};
}

std::vector<llvm::StringRef> words(llvm::StringRef line) {
  llvm::SmallVector<llvm::StringRef, 8> parts;
  llvm::SplitString(line, parts);
  return {parts.begin(), parts.end()};
}

uint64_t hex(llvm::StringRef text) {
  uint64_t value = 0;
  text.consume_front("0x");
  if (text.getAsInteger(16, value))
    ADD_FAILURE() << "not a hex number: " << text.str();
  return value;
}

/// "Name: value" from a readobj block line, trimmed.
std::optional<llvm::StringRef> fieldValue(llvm::StringRef line, llvm::StringRef field) {
  llvm::StringRef trimmed = line.trim();
  if (!trimmed.consume_front(field) || !trimmed.consume_front(":"))
    return std::nullopt;
  return trimmed.trim();
}

} // namespace

std::string runCommand(const std::string &command) {
  std::string output;
  FILE *pipe = popen((command + " 2>/dev/null").c_str(), "r");
  if (!pipe) {
    ADD_FAILURE() << "cannot run: " << command;
    return output;
  }
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, pipe)) > 0)
    output.append(chunk, n);
  int status = pclose(pipe);
  EXPECT_EQ(status, 0) << "command failed: " << command;
  return output;
}

std::vector<NmSymbol> nmSymbols(const std::string &path, bool dynamic) {
  std::string output = runCommand(llvmTool("llvm-nm") + " --defined-only " +
                                  (dynamic ? "-D " : "") + quoted(path));
  std::vector<NmSymbol> symbols;
  for (llvm::StringRef line : lines(output)) {
    auto parts = words(line);
    if (parts.size() != 3 || parts[1].size() != 1)
      continue;
    symbols.push_back({hex(parts[0]), parts[1][0], parts[2].str()});
  }
  return symbols;
}

std::optional<uint64_t> readobjField(const std::string &path, const std::string &flags,
                                     const std::string &field) {
  std::string output = runCommand(llvmTool("llvm-readobj") + " " + flags + " " + quoted(path));
  for (llvm::StringRef line : lines(output)) {
    auto value = fieldValue(line, field);
    if (!value)
      continue;
    uint64_t number = 0;
    if (!value->getAsInteger(0, number))
      return number;
  }
  return std::nullopt;
}

std::vector<MappedSection> objdumpSections(const std::string &path) {
  std::string output = runCommand(llvmTool("llvm-objdump") + " -h " + quoted(path));
  std::vector<MappedSection> sections;
  for (llvm::StringRef line : lines(output)) {
    // "  13 .text   0000013c 0000000000401050 TEXT"
    auto parts = words(line);
    unsigned index;
    if (parts.size() < 4 || parts[0].getAsInteger(10, index))
      continue;
    sections.push_back({parts[1].str(), hex(parts[2]), hex(parts[3])});
  }
  return sections;
}

std::vector<ElfRelocation> elfRelocations(const std::string &path) {
  std::string output = runCommand(llvmTool("llvm-readelf") + " -r --wide " + quoted(path));
  std::vector<ElfRelocation> relocations;
  for (llvm::StringRef line : lines(output)) {
    // "0000000000404000  0000000200000007 R_X86_64_JUMP_SLOT  0000000000000000 puts@GLIBC_2.2.5 + 0"
    auto parts = words(line);
    if (parts.size() < 3 || !parts[2].starts_with("R_X86_64_"))
      continue;
    std::string symbol = parts.size() >= 5 ? parts[4].split('@').first.str() : "";
    relocations.push_back({hex(parts[0]), parts[2].str(), symbol});
  }
  return relocations;
}

std::map<std::string, uint64_t> pltStubs(const std::string &path) {
  std::string output = runCommand(std::string(gnuObjdump) +
                                  " -d -j .plt -j .plt.sec -j .plt.got " + quoted(path));
  std::map<std::string, uint64_t> stubs;
  for (llvm::StringRef line : lines(output)) {
    // "0000000000001060 <puts@plt>:"
    auto parts = words(line);
    if (parts.size() != 2 || !parts[1].starts_with("<") || !parts[1].ends_with("@plt>:"))
      continue;
    std::string name = parts[1].drop_front(1).drop_back(strlen("@plt>:")).str();
    stubs.emplace(name, hex(parts[0]));
  }
  return stubs;
}

std::vector<CoffImportTable> coffImports(const std::string &path) {
  std::string output = runCommand(llvmTool("llvm-readobj") + " --coff-imports " + quoted(path));
  std::vector<CoffImportTable> tables;
  for (llvm::StringRef line : lines(output)) {
    if (line.trim() == "Import {") {
      tables.emplace_back();
      continue;
    }
    if (tables.empty())
      continue;
    if (auto value = fieldValue(line, "Name"))
      tables.back().library = value->str();
    else if (auto value = fieldValue(line, "ImportAddressTableRVA"))
      tables.back().addressTableRva = hex(*value);
    else if (auto value = fieldValue(line, "Symbol"))   // "puts (1234)": name and hint
      tables.back().names.push_back(value->split(' ').first.str());
  }
  return tables;
}

std::vector<CoffExport> coffExports(const std::string &path) {
  std::string output = runCommand(llvmTool("llvm-readobj") + " --coff-exports " + quoted(path));
  std::vector<CoffExport> exports;
  for (llvm::StringRef line : lines(output)) {
    if (line.trim() == "Export {") {
      exports.emplace_back();
      continue;
    }
    if (exports.empty())
      continue;
    if (auto value = fieldValue(line, "Name"))
      exports.back().name = value->str();
    else if (auto value = fieldValue(line, "RVA"))
      exports.back().rva = hex(*value);
    else if (auto value = fieldValue(line, "ForwardedTo"))
      exports.back().forwardedTo = value->str();
  }
  return exports;
}

} // namespace hoist::test
