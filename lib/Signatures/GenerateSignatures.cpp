// hoist-signatures-gen: the signature database from static libraries and start files, run at
// build time over what Debian installs (lib/Signatures/CMakeLists.txt; docs/SIGNATURES.md).
//
//   hoist-signatures-gen -o signatures.bin LABEL=PATH...
//
// PATH is an `ar` archive (libc.a) or an object (crt1.o); LABEL names where the functions come
// from ("glibc 2.36 libc.a"). Each function symbol of an executable section becomes one
// signature: its bytes with every byte a relocation may change masked.
#include "Signatures/SignatureFormat.h"

#include <llvm/ADT/StringExtras.h>
#include <llvm/BinaryFormat/ELF.h>
#include <llvm/Object/Archive.h>
#include <llvm/Object/ELFObjectFile.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/WithColor.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace llvm;
using namespace hoist::signatures;

namespace {

/// The bytes around a relocation's field that a static link may rewrite, relative to the
/// field: the field itself, and for the relocations the linker relaxes, the instruction
/// bytes it rewrites with them (x86-64 psABI, appendix B: `mov foo@GOTPCREL(%rip)` becomes
/// `lea`, `call *foo@GOTPCREL(%rip)` becomes `addr32 call`, initial-exec and general-dynamic
/// TLS sequences become local-exec ones). Nullopt for a type this table does not know.
std::optional<std::pair<int, int>> rewrittenBytes(uint32_t type) {
  using namespace llvm::ELF;
  switch (type) {
  case R_X86_64_PC32: case R_X86_64_PLT32: case R_X86_64_32: case R_X86_64_32S:
  case R_X86_64_GOT32: case R_X86_64_GOTPC32: case R_X86_64_DTPOFF32: case R_X86_64_TPOFF32:
  case R_X86_64_SIZE32:
    return std::pair(0, 4);
  case R_X86_64_64: case R_X86_64_PC64: case R_X86_64_GOTOFF64: case R_X86_64_DTPOFF64:
  case R_X86_64_TPOFF64: case R_X86_64_SIZE64: case R_X86_64_GOTPC64:
    return std::pair(0, 8);
  case R_X86_64_16: case R_X86_64_PC16:
    return std::pair(0, 2);
  case R_X86_64_8: case R_X86_64_PC8:
    return std::pair(0, 1);
  case R_X86_64_GOTPCREL: case R_X86_64_GOTPCRELX: case R_X86_64_REX_GOTPCRELX:
  case R_X86_64_GOTTPOFF: case R_X86_64_GOTPC32_TLSDESC:
    return std::pair(-3, 4);   // REX, opcode, ModRM may change
  case R_X86_64_TLSGD:         // 66 48 8d 3d <rel> 66 66 48 e8 <plt>
    return std::pair(-4, 12);
  case R_X86_64_TLSLD:         // 48 8d 3d <rel> e8 <plt>
    return std::pair(-3, 9);
  case R_X86_64_TLSDESC_CALL:  // call *(%rax) becomes a two-byte nop
    return std::pair(0, 2);
  case R_X86_64_NONE:
    return std::pair(0, 0);
  default:
    return std::nullopt;
  }
}

struct Relocation {
  uint64_t offset;   ///< in the section
  uint32_t type;
  int64_t addend;
  std::string symbol;                     ///< a named symbol's name; empty for a section's
  bool global = false;                    ///< the symbol is global or weak: the link may bind it elsewhere
  std::optional<uint64_t> symbolSection;  ///< where the symbol is defined, if here
  uint64_t symbolValue = 0;
};

struct LibraryFunction {
  std::vector<std::string> names;
  uint32_t library = 0;
  std::vector<uint8_t> code;
  std::vector<RelocationRecord> relocations;   ///< callee into `callees`, data into `data`
  std::vector<std::string> callees;
  std::vector<std::vector<uint8_t>> data;
  uint32_t flags = 0;
};

/// The read-only bytes a reference reaches, as far as nothing relocates them: a string up to
/// its NUL, a merged constant (`.rodata.cst8`) its entry's size, whose neighbours the linker
/// chooses, other data up to 16 bytes.
std::vector<uint8_t> referencedData(const object::ELF64LEObjectFile &object,
                                    const object::SectionRef &section, uint64_t offset,
                                    const std::vector<Relocation> &relocations) {
  constexpr uint64_t MaximumBytes = 16;
  Expected<StringRef> contents = section.getContents();
  if (!contents) {
    consumeError(contents.takeError());
    return {};
  }
  if (offset >= contents->size())
    return {};
  uint64_t end = std::min<uint64_t>(contents->size(), offset + MaximumBytes);
  for (const Relocation &relocation : relocations)
    if (relocation.offset >= offset && relocation.offset < end)
      end = relocation.offset;
  const uint64_t flags = object::ELFSectionRef(section).getFlags();
  const bool strings = flags & ELF::SHF_STRINGS;
  if ((flags & ELF::SHF_MERGE) && !strings) {
    uint64_t entrySize = object.getSection(section.getRawDataRefImpl())->sh_entsize;
    if (entrySize == 0)
      return {};
    end = std::min(end, offset + entrySize);
  }
  std::vector<uint8_t> bytes;
  for (uint64_t i = offset; i < end; ++i) {
    bytes.push_back(static_cast<uint8_t>((*contents)[i]));
    if (strings && (*contents)[i] == '\0')
      break;
  }
  return bytes;
}

/// The functions of one ELF relocatable object.
Error readObject(const object::ELF64LEObjectFile &object, uint32_t library,
                 std::vector<LibraryFunction> &functions) {
  std::map<uint64_t, object::SectionRef> sections;
  for (const object::SectionRef &section : object.sections())
    sections[section.getIndex()] = section;

  // Relocations by the section they apply to.
  std::map<uint64_t, std::vector<Relocation>> relocationsBySection;
  for (const object::SectionRef &relocations : object.sections()) {
    Expected<object::section_iterator> target = relocations.getRelocatedSection();
    if (!target)
      return target.takeError();
    if (*target == object.section_end())
      continue;
    for (const object::RelocationRef &relocation : relocations.relocations()) {
      Relocation entry{relocation.getOffset(), static_cast<uint32_t>(relocation.getType()), 0};
      if (Expected<int64_t> addend = object::ELFRelocationRef(relocation).getAddend())
        entry.addend = *addend;
      else
        consumeError(addend.takeError());
      object::symbol_iterator symbol = relocation.getSymbol();
      if (symbol != object.symbol_end()) {
        object::ELFSymbolRef elfSymbol(*symbol);
        entry.global = elfSymbol.getBinding() != ELF::STB_LOCAL;
        if (elfSymbol.getELFType() != ELF::STT_SECTION) {
          if (Expected<StringRef> name = symbol->getName())
            entry.symbol = name->str();
          else
            consumeError(name.takeError());
        }
        Expected<object::section_iterator> section = symbol->getSection();
        Expected<uint64_t> value = symbol->getValue();
        if (section && value && *section != object.section_end()) {
          entry.symbolSection = (*section)->getIndex();
          entry.symbolValue = *value;
        }
        if (!section)
          consumeError(section.takeError());
        if (!value)
          consumeError(value.takeError());
      }
      relocationsBySection[(*target)->getIndex()].push_back(std::move(entry));
    }
  }

  // Every function symbol's name by (section, offset), for what references reach.
  std::map<std::pair<uint64_t, uint64_t>, std::string> functionAt;
  for (const object::ELFSymbolRef symbol : object.symbols()) {
    uint8_t type = symbol.getELFType();
    Expected<object::section_iterator> section = symbol.getSection();
    Expected<StringRef> name = symbol.getName();
    Expected<uint64_t> value = symbol.getValue();
    if ((type == ELF::STT_FUNC || type == ELF::STT_GNU_IFUNC) && section && name && value &&
        *section != object.section_end())
      functionAt.try_emplace({(*section)->getIndex(), *value}, name->str());
    if (!section)
      consumeError(section.takeError());
    if (!name)
      consumeError(name.takeError());
    if (!value)
      consumeError(value.takeError());
  }

  // What a PC-relative reference whose field ends its instruction reaches (the CPU adds the
  // field to the field's end, so the target is the symbol plus addend plus 4): a function by
  // name, or read-only data by its bytes.
  auto describeTarget = [&](const Relocation &relocation, RelocationRecord &record,
                            LibraryFunction &function) {
    using namespace llvm::ELF;
    if (relocation.type != R_X86_64_PC32 && relocation.type != R_X86_64_PLT32 &&
        relocation.type != R_X86_64_GOTPCRELX && relocation.type != R_X86_64_REX_GOTPCRELX)
      return;
    const int64_t offset = int64_t(relocation.symbolValue) + relocation.addend + 4;
    if (!relocation.symbolSection || relocation.global) {
      // Defined elsewhere, or here but weak or global, which another member's definition may
      // override (musl's `exit` calls its weak `__funcs_on_exit`, atexit.o's in a program
      // that uses atexit): the symbol itself, when the addend reaches it.
      if (!relocation.symbol.empty() && relocation.addend == -4) {
        record.callee = function.callees.size();
        function.callees.push_back(relocation.symbol);
      }
      return;
    }
    if (offset < 0)
      return;
    const object::SectionRef &section = sections[*relocation.symbolSection];
    if (section.isText()) {
      auto named = functionAt.find({*relocation.symbolSection, uint64_t(offset)});
      if (named != functionAt.end()) {
        record.callee = function.callees.size();
        function.callees.push_back(named->second);
      }
      return;
    }
    uint64_t flags = object::ELFSectionRef(section).getFlags();
    if ((flags & SHF_ALLOC) && !(flags & SHF_WRITE) && !(flags & SHF_EXECINSTR) &&
        !section.isBSS()) {
      std::vector<uint8_t> bytes = referencedData(
          object, section, offset, relocationsBySection[*relocation.symbolSection]);
      if (!bytes.empty()) {
        record.data = function.data.size();
        record.dataLength = bytes.size();
        function.data.push_back(std::move(bytes));
      }
    }
  };

  // Function symbols grouped by address: one member's aliases are one function.
  struct Defined {
    std::set<std::string> names;
    uint64_t size = 0;
    bool indirect = false, global = false;
  };
  std::map<std::pair<uint64_t, uint64_t>, Defined> bySectionAndValue;
  for (const object::ELFSymbolRef symbol : object.symbols()) {
    uint8_t type = symbol.getELFType();
    if ((type != ELF::STT_FUNC && type != ELF::STT_GNU_IFUNC) || symbol.getSize() == 0)
      continue;
    Expected<object::section_iterator> section = symbol.getSection();
    Expected<StringRef> name = symbol.getName();
    Expected<uint64_t> value = symbol.getValue();
    if (!section || !name || !value) {
      consumeError(section.takeError());
      consumeError(name.takeError());
      consumeError(value.takeError());
      continue;
    }
    if (*section == object.section_end() || !(*section)->isText())
      continue;
    Defined &defined = bySectionAndValue[{(*section)->getIndex(), *value}];
    defined.names.insert(name->str());
    defined.size = std::max(defined.size, symbol.getSize());
    defined.indirect |= type == ELF::STT_GNU_IFUNC;
    defined.global |= symbol.getBinding() != ELF::STB_LOCAL;
  }

  for (const auto &[where, defined] : bySectionAndValue) {
    const auto [sectionIndex, value] = where;
    Expected<StringRef> contents = sections[sectionIndex].getContents();
    if (!contents)
      return contents.takeError();
    ArrayRef<uint8_t> bytes(reinterpret_cast<const uint8_t *>(contents->data()), contents->size());
    if (value + defined.size > bytes.size())
      continue;   // a NOBITS or truncated section: nothing to match
    LibraryFunction function;
    function.names.assign(defined.names.begin(), defined.names.end());
    function.library = library;
    function.code.assign(bytes.begin() + value, bytes.begin() + value + defined.size);
    function.flags = (defined.indirect ? IndirectFunction : 0) | (defined.global ? 0 : LocalOnly);
    bool understood = true;
    for (const Relocation &relocation : relocationsBySection[sectionIndex]) {
      if (relocation.offset < value || relocation.offset >= value + defined.size)
        continue;
      std::optional<std::pair<int, int>> rewritten = rewrittenBytes(relocation.type);
      if (!rewritten) {
        understood = false;
        break;
      }
      const int64_t field = static_cast<int64_t>(relocation.offset - value);
      const int64_t begin = std::max<int64_t>(0, field + rewritten->first);
      const int64_t end = std::min<int64_t>(defined.size, field + rewritten->second);
      for (int64_t i = begin; i < end; ++i)
        function.code[i] = 0;
      RelocationRecord record{static_cast<uint32_t>(begin), static_cast<uint32_t>(end),
                              static_cast<uint32_t>(field), static_cast<int32_t>(relocation.addend),
                              NoString, 0, 0};
      if (field + 4 <= int64_t(defined.size))
        describeTarget(relocation, record, function);
      function.relocations.push_back(record);
    }
    // The matcher compares the gaps between masked ranges in this order.
    std::sort(function.relocations.begin(), function.relocations.end(),
              [](const RelocationRecord &a, const RelocationRecord &b) {
                return a.maskBegin < b.maskBegin;
              });
    if (understood)
      functions.push_back(std::move(function));
  }
  return Error::success();
}

Error readInput(StringRef path, uint32_t library, std::vector<LibraryFunction> &functions) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer = MemoryBuffer::getFile(path);
  if (!buffer)
    return createStringError(buffer.getError(), "%s: %s", path.str().c_str(),
                             buffer.getError().message().c_str());
  auto readMember = [&](MemoryBufferRef member) -> Error {
    Expected<std::unique_ptr<object::ObjectFile>> object =
        object::ObjectFile::createObjectFile(member);
    if (!object) {
      consumeError(object.takeError());   // a member that is no object (an archive's index)
      return Error::success();
    }
    if (auto *elf = dyn_cast<object::ELF64LEObjectFile>(object->get()))
      if (elf->getArch() == Triple::x86_64)
        return readObject(*elf, library, functions);
    return Error::success();
  };
  if (!(*buffer)->getBuffer().starts_with("!<arch>\n"))
    return readMember((*buffer)->getMemBufferRef());
  Expected<std::unique_ptr<object::Archive>> archive =
      object::Archive::create((*buffer)->getMemBufferRef());
  if (!archive)
    return archive.takeError();
  Error failure = Error::success();
  for (const object::Archive::Child &child : (*archive)->children(failure)) {
    Expected<MemoryBufferRef> member = child.getMemoryBufferRef();
    if (!member)
      return member.takeError();
    if (Error error = readMember(*member))
      return error;
  }
  return failure;
}

class Writer {
public:
  uint32_t string(StringRef text) {
    auto [it, inserted] = strings_.try_emplace(text.str(), stringBytes_.size());
    if (inserted) {
      stringBytes_.insert(stringBytes_.end(), text.begin(), text.end());
      stringBytes_.push_back('\0');
    }
    return it->second;
  }

  void add(const LibraryFunction &function) {
    FunctionRecord record{};
    record.firstName = names_.size();
    record.nameCount = function.names.size();
    for (const std::string &name : function.names)
      names_.push_back({string(name)});
    record.library = function.library;
    record.code = code_.size();
    record.length = function.code.size();
    code_.insert(code_.end(), function.code.begin(), function.code.end());
    record.firstRelocation = relocations_.size();
    record.relocationCount = function.relocations.size();
    for (RelocationRecord relocation : function.relocations) {
      if (relocation.callee != NoString)
        relocation.callee = string(function.callees[relocation.callee]);
      if (relocation.dataLength) {
        const std::vector<uint8_t> &bytes = function.data[relocation.data];
        relocation.data = code_.size();
        code_.insert(code_.end(), bytes.begin(), bytes.end());
      }
      relocations_.push_back(relocation);
    }
    record.flags = function.flags;
    functions_.push_back(record);
  }

  Error write(StringRef path, const std::vector<std::string> &labels) {
    std::vector<LibraryRecord> libraries;
    for (const std::string &label : labels)
      libraries.push_back({string(label)});
    FileHeader header{};
    std::copy(std::begin(FileMagic), std::end(FileMagic), header.magic);
    header.libraries = libraries.size();
    header.functions = functions_.size();
    header.names = names_.size();
    header.relocations = relocations_.size();
    header.stringBytes = stringBytes_.size();
    header.codeBytes = code_.size();
    std::error_code error;
    raw_fd_ostream out(path, error, sys::fs::OF_None);
    if (error)
      return createStringError(error, "%s: %s", path.str().c_str(), error.message().c_str());
    auto put = [&](const auto &records) {
      out.write(reinterpret_cast<const char *>(records.data()),
                records.size() * sizeof(records[0]));
    };
    out.write(reinterpret_cast<const char *>(&header), sizeof header);
    put(libraries);
    put(functions_);
    put(names_);
    put(relocations_);
    put(stringBytes_);
    put(code_);
    return Error::success();
  }

private:
  std::map<std::string, uint32_t> strings_;
  std::vector<char> stringBytes_;
  std::vector<FunctionRecord> functions_;
  std::vector<NameRecord> names_;
  std::vector<RelocationRecord> relocations_;
  std::vector<uint8_t> code_;
};

/// Identical signatures of one library under identical names (a function two members define
/// alike) are one; equal bytes under other names stay apart: they are a collision set.
std::string identity(const LibraryFunction &function) {
  std::string key = join(function.names, ",") + '\0' + std::to_string(function.library) + '\0';
  key.append(function.code.begin(), function.code.end());
  for (const RelocationRecord &relocation : function.relocations) {
    key += formatv("{0},{1},{2},", relocation.maskBegin, relocation.maskEnd,
                   relocation.callee == NoString ? std::string()
                                                 : function.callees[relocation.callee]).str();
    if (relocation.dataLength)
      key.append(function.data[relocation.data].begin(), function.data[relocation.data].end());
    key += ';';
  }
  return key;
}

} // namespace

int main(int argc, char **argv) {
  std::string output;
  std::vector<std::pair<std::string, std::string>> inputs;
  for (int i = 1; i < argc; ++i) {
    StringRef argument = argv[i];
    if (argument == "-o" && i + 1 < argc) {
      output = argv[++i];
    } else if (auto [label, path] = argument.rsplit('='); !path.empty()) {
      inputs.emplace_back(label.str(), path.str());
    } else {
      errs() << "usage: hoist-signatures-gen -o OUT LABEL=PATH...\n";
      return 2;
    }
  }
  if (output.empty()) {
    errs() << "usage: hoist-signatures-gen -o OUT LABEL=PATH...\n";
    return 2;
  }
  std::vector<std::string> labels;
  std::map<std::string, uint32_t> libraryByLabel;
  std::vector<LibraryFunction> functions;
  for (const auto &[label, path] : inputs) {
    auto [it, inserted] = libraryByLabel.try_emplace(label, labels.size());
    if (inserted)
      labels.push_back(label);
    if (Error error = readInput(path, it->second, functions)) {
      WithColor::error(errs(), "hoist-signatures-gen") << toString(std::move(error)) << "\n";
      return 1;
    }
  }
  Writer writer;
  std::set<std::string> seen;
  for (const LibraryFunction &function : functions)
    if (seen.insert(identity(function)).second)
      writer.add(function);
  if (Error error = writer.write(output, labels)) {
    WithColor::error(errs(), "hoist-signatures-gen") << toString(std::move(error)) << "\n";
    return 1;
  }
  return 0;
}
