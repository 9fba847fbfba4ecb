#include "Assembler.h"

#include "CodeLayout.h"
#include "Decode/Decoder.h"

#include <llvm/BinaryFormat/ELF.h>
#include <llvm/MC/MCAsmBackend.h>
#include <llvm/MC/MCAsmInfo.h>
#include <llvm/MC/MCCodeEmitter.h>
#include <llvm/MC/MCContext.h>
#include <llvm/MC/MCInstrInfo.h>
#include <llvm/MC/MCObjectFileInfo.h>
#include <llvm/MC/MCObjectWriter.h>
#include <llvm/MC/MCParser/MCAsmParser.h>
#include <llvm/MC/MCParser/MCTargetAsmParser.h>
#include <llvm/MC/MCRegisterInfo.h>
#include <llvm/MC/MCStreamer.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/MCTargetOptions.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Object/ELFObjectFile.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>

#include <cstring>
#include <optional>

namespace hoist::test {
namespace {

constexpr const char *Triple = "x86_64-unknown-linux-gnu";

llvm::Error failure(const std::string &text, const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "'" + text + "': " + why);
}

/// The assembly around the form: the whole code page with the labels at their offsets and
/// `data` just after it, so that every reference resolves as at the real address. (An
/// absolute `.set data, ...` would not do: MC folds `data - .` at assembly time as if the
/// section started at 0.)
std::string surround(const std::string &text) {
  using namespace layout;
  return llvm::formatv(".intel_syntax noprefix\n"
                       "far_back:\n .fill {0:x}, 1, 0x90\n"
                       "back:\n .fill {1:x}, 1, 0x90\n"
                       "{2}\n"
                       " .fill {3:x}, 1, 0x90\n"
                       "target:\n .fill {4:x}, 1, 0x90\n"
                       "far_target:\n .org {5:x}, 0x90\n"
                       "data:\n",
                       BackOffset - FarBackOffset, InstructionOffset - BackOffset, text,
                       TargetDistance, FarTargetDistance - TargetDistance,
                       DataAddress - CodeAddress)
      .str();
}

/// The section offset of the local label `name`, if the object has it.
std::optional<uint64_t> labelOffset(const llvm::object::ObjectFile &file, llvm::StringRef name) {
  for (const llvm::object::SymbolRef &symbol : file.symbols()) {
    llvm::Expected<llvm::StringRef> symbolName = symbol.getName();
    if (!symbolName) {
      llvm::consumeError(symbolName.takeError());
      continue;
    }
    if (*symbolName != name)
      continue;
    if (llvm::Expected<uint64_t> value = symbol.getValue())
      return *value;
    else
      llvm::consumeError(value.takeError());
  }
  return std::nullopt;
}

/// The ELF object MC makes of `source`, or the assembler's diagnostics.
llvm::Expected<llvm::SmallVector<char, 0>> assembleObject(const std::string &text,
                                                          const std::string &source) {
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(Triple, error);
  if (!target)
    return failure(text, error);

  llvm::MCTargetOptions options;
  std::unique_ptr<llvm::MCRegisterInfo> registers(target->createMCRegInfo(Triple));
  std::unique_ptr<llvm::MCAsmInfo> asmInfo(target->createMCAsmInfo(*registers, Triple, options));
  std::unique_ptr<llvm::MCInstrInfo> instrInfo(target->createMCInstrInfo());
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(Triple, "", "+bmi,+bmi2,+lzcnt,+popcnt,+movbe,+adx,+avx512f,+avx512cd,+avx512bw,"
                                   "+avx512dq,+avx512vl"));

  llvm::SourceMgr sources;
  std::string diagnostics;
  sources.setDiagHandler(
      [](const llvm::SMDiagnostic &d, void *out) {
        *static_cast<std::string *>(out) += d.getMessage().str() + "; ";
      },
      &diagnostics);
  sources.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(source), llvm::SMLoc());
  llvm::MCContext context(llvm::Triple(Triple), asmInfo.get(), registers.get(), subtarget.get(),
                          &sources);
  std::unique_ptr<llvm::MCObjectFileInfo> fileInfo(target->createMCObjectFileInfo(context, false));
  context.setObjectFileInfo(fileInfo.get());

  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream objectStream(object);
  std::unique_ptr<llvm::MCAsmBackend> backend(
      target->createMCAsmBackend(*subtarget, *registers, options));
  std::unique_ptr<llvm::MCObjectWriter> writer = backend->createObjectWriter(objectStream);
  std::unique_ptr<llvm::MCCodeEmitter> emitter(target->createMCCodeEmitter(*instrInfo, context));
  std::unique_ptr<llvm::MCStreamer> streamer(target->createMCObjectStreamer(
      llvm::Triple(Triple), context, std::move(backend), std::move(writer), std::move(emitter),
      *subtarget));
  std::unique_ptr<llvm::MCAsmParser> parser(
      llvm::createMCAsmParser(sources, context, *streamer, *asmInfo));
  std::unique_ptr<llvm::MCTargetAsmParser> targetParser(
      target->createMCAsmParser(*subtarget, *parser, *instrInfo, options));
  parser->setTargetParser(*targetParser);
  streamer->initSections(false, *subtarget);
  if (parser->Run(false) || !diagnostics.empty())
    return failure(text, "does not assemble: " + diagnostics);
  streamer->finish();
  return object;
}

/// Resolves one relocation of the instruction (an absolute address or a RIP-relative reference
/// to `data`, or an absolute reference to a label) as a linker would at the fixed address.
llvm::Error applyRelocation(const std::string &text, const llvm::object::ELFRelocationRef &reloc,
                            const llvm::object::ObjectFile &file,
                            const llvm::object::SectionRef &textSection,
                            std::vector<uint8_t> &bytes) {
  uint64_t symbolValue = 0;
  llvm::object::symbol_iterator symbol = reloc.getSymbol();
  if (symbol != file.symbol_end()) {
    llvm::Expected<llvm::StringRef> name = symbol->getName();
    llvm::Expected<uint32_t> flags = symbol->getFlags();
    llvm::Expected<llvm::object::section_iterator> section = symbol->getSection();
    llvm::Expected<uint64_t> value = symbol->getValue();
    if (!name || !flags || !section || !value)
      return failure(text, "unreadable relocation symbol");
    if (*flags & llvm::object::SymbolRef::SF_Undefined)
      return failure(text, "unknown symbol '" + *name + "' (use target, far_target, back, "
                                                        "far_back or data)");
    if (*section != file.section_end() && **section == textSection)
      symbolValue = layout::CodeAddress + *value;   // a label, or the section's own symbol
    else if (*flags & llvm::object::SymbolRef::SF_Absolute)
      symbolValue = *value;
    else
      return failure(text, "relocation against '" + *name + "' in another section");
  }
  llvm::Expected<int64_t> addend = reloc.getAddend();
  if (!addend)
    return addend.takeError();
  uint64_t offset = reloc.getOffset() - layout::InstructionOffset;
  uint64_t place = layout::InstructionAddress + offset;
  uint64_t value = symbolValue + static_cast<uint64_t>(*addend);
  unsigned size = 4;
  bool fits = true;
  switch (reloc.getType()) {
  case llvm::ELF::R_X86_64_64:
    size = 8;
    break;
  case llvm::ELF::R_X86_64_32:
    fits = value <= UINT32_MAX;
    break;
  case llvm::ELF::R_X86_64_32S:
    fits = int64_t(value) == int32_t(value);
    break;
  case llvm::ELF::R_X86_64_PC32:
  case llvm::ELF::R_X86_64_PLT32:
    value -= place;
    fits = int64_t(value) == int32_t(value);
    break;
  default:
    return failure(text, "unsupported relocation type " + llvm::Twine(reloc.getType()));
  }
  if (!fits || offset + size > bytes.size())
    return failure(text, "relocation does not fit its field");
  std::memcpy(bytes.data() + offset, &value, size);   // little-endian: the low bytes
  return llvm::Error::success();
}

/// MC's object of `source` (`text` surrounded, see `surround`), the bytes from the instruction offset to the end `findEnd(code, size, file)`
/// proves (an offset in the code page, or an error), with every relocation applied.
template <typename FindEnd>
llvm::Expected<std::vector<uint8_t>> placedCode(const std::string &text,
                                                const std::string &source, FindEnd findEnd) {
  static bool initialized = [] {
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86Target();
    LLVMInitializeX86TargetMC();
    LLVMInitializeX86AsmParser();
    return true;
  }();
  (void)initialized;

  llvm::Expected<llvm::SmallVector<char, 0>> object = assembleObject(text, source);
  if (!object)
    return object.takeError();
  auto file = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(llvm::StringRef(object->data(), object->size()), "form"));
  if (!file)
    return file.takeError();

  std::optional<llvm::object::SectionRef> textSection;
  for (const llvm::object::SectionRef &section : (*file)->sections())
    if (llvm::Expected<llvm::StringRef> name = section.getName(); name && *name == ".text")
      textSection = section;
    else if (!name)
      llvm::consumeError(name.takeError());
  if (!textSection)
    return failure(text, "no .text section");
  llvm::Expected<llvm::StringRef> contents = textSection->getContents();
  if (!contents)
    return contents.takeError();

  auto *code = reinterpret_cast<const uint8_t *>(contents->data());
  llvm::Expected<uint64_t> end = findEnd(code, contents->size(), **file);
  if (!end)
    return end.takeError();
  std::vector<uint8_t> bytes(code + layout::InstructionOffset, code + *end);

  for (const llvm::object::SectionRef &section : (*file)->sections()) {
    llvm::Expected<llvm::object::section_iterator> relocated = section.getRelocatedSection();
    if (!relocated)
      return relocated.takeError();
    if (*relocated == (*file)->section_end() || **relocated != *textSection)
      continue;
    for (const llvm::object::RelocationRef &reloc : section.relocations()) {
      if (reloc.getOffset() < layout::InstructionOffset || reloc.getOffset() >= *end)
        return failure(text, "relocation outside the instruction");
      if (llvm::Error error = applyRelocation(text, llvm::object::ELFRelocationRef(reloc), **file,
                                              *textSection, bytes))
        return error;
    }
  }
  return bytes;
}

} // namespace

llvm::Expected<std::vector<uint8_t>> assemble(const std::string &text) {
  // Hoist's own decoder says where the instruction ends; the label after it then proves that
  // the text was exactly one instruction (a second one, or a lone prefix that merged with the
  // padding, would shift the labels).
  return placedCode(text, surround(text),
                    [&](const uint8_t *code, size_t size,
                        const llvm::object::ObjectFile &file) -> llvm::Expected<uint64_t> {
                      Decoder decoder;
                      Instr instr;
                      if (size <= layout::InstructionOffset ||
                          decoder.decode(code + layout::InstructionOffset,
                                         size - layout::InstructionOffset,
                                         layout::InstructionAddress, instr) != DecodeStatus::Ok)
                        return failure(text, "assembled to bytes that do not decode");
                      if (labelOffset(file, "far_target") !=
                          layout::InstructionOffset + instr.length + layout::FarTargetDistance)
                        return failure(text, "is not exactly one instruction");
                      return layout::InstructionOffset + instr.length;
                    });
}

llvm::Expected<AssembledSequence> assembleSequence(const std::vector<std::string> &lines) {
  std::string text;
  unsigned instructions = 0;
  for (const std::string &line : lines) {
    text += line + "\n";
    instructions += !llvm::StringRef(line).trim().ends_with(":");
  }
  if (instructions == 0)
    return failure(text, "has no instruction");
  text.pop_back();
  AssembledSequence sequence;
  // The `target` label sits TargetDistance after the last instruction, so it gives the end;
  // decoding up to it must meet exactly one instruction per line that is not a label.
  llvm::Expected<std::vector<uint8_t>> bytes = placedCode(
      text, surround(text),
      [&](const uint8_t *code, size_t size,
          const llvm::object::ObjectFile &file) -> llvm::Expected<uint64_t> {
        std::optional<uint64_t> target = labelOffset(file, "target");
        if (!target || *target < layout::InstructionOffset + layout::TargetDistance ||
            *target > size)
          return failure(text, "has no end");
        uint64_t end = *target - layout::TargetDistance;
        Decoder decoder;
        for (uint64_t offset = layout::InstructionOffset; offset < end;) {
          Instr instr;
          if (decoder.decode(code + offset, end - offset, layout::CodeAddress + offset, instr) !=
              DecodeStatus::Ok)
            return failure(text, "assembled to bytes that do not decode");
          sequence.offsets.push_back(offset - layout::InstructionOffset);
          offset += instr.length;
        }
        if (sequence.offsets.size() != instructions)
          return failure(text, "is not one instruction a line");
        return end;
      });
  if (!bytes)
    return bytes.takeError();
  sequence.bytes = std::move(*bytes);
  return sequence;
}

} // namespace hoist::test
