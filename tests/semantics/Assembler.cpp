#include "Assembler.h"

#include "Decode/Decoder.h"
#include "NativeRunner.h"

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
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>

namespace hoist::test {

llvm::Expected<std::vector<uint8_t>> assemble(const std::string &text) {
  static bool initialized = [] {
    LLVMInitializeX86TargetInfo();
    LLVMInitializeX86TargetMC();
    LLVMInitializeX86AsmParser();
    return true;
  }();
  (void)initialized;

  const std::string triple = "x86_64-unknown-linux-gnu";
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return llvm::createStringError(llvm::inconvertibleErrorCode(), error);

  std::string source = ".intel_syntax noprefix\n" + text + "\n.fill " +
                       std::to_string(NativeRunner::BranchTargetDistance) +
                       ", 1, 0x90\ntarget:\n";
  llvm::MCTargetOptions options;
  std::unique_ptr<llvm::MCRegisterInfo> registers(target->createMCRegInfo(triple));
  std::unique_ptr<llvm::MCAsmInfo> asmInfo(target->createMCAsmInfo(*registers, triple, options));
  std::unique_ptr<llvm::MCInstrInfo> instrInfo(target->createMCInstrInfo());
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple, "", "+bmi,+bmi2,+lzcnt,+popcnt,+movbe,+adx"));

  llvm::SourceMgr sources;
  std::string diagnostics;
  sources.setDiagHandler(
      [](const llvm::SMDiagnostic &d, void *out) {
        *static_cast<std::string *>(out) += d.getMessage().str() + "; ";
      },
      &diagnostics);
  sources.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(source), llvm::SMLoc());
  llvm::MCContext context(llvm::Triple(triple), asmInfo.get(), registers.get(), subtarget.get(),
                          &sources);
  std::unique_ptr<llvm::MCObjectFileInfo> fileInfo(target->createMCObjectFileInfo(context, false));
  context.setObjectFileInfo(fileInfo.get());

  llvm::SmallVector<char, 256> object;
  llvm::raw_svector_ostream objectStream(object);
  std::unique_ptr<llvm::MCAsmBackend> backend(
      target->createMCAsmBackend(*subtarget, *registers, options));
  std::unique_ptr<llvm::MCObjectWriter> writer = backend->createObjectWriter(objectStream);
  std::unique_ptr<llvm::MCCodeEmitter> emitter(target->createMCCodeEmitter(*instrInfo, context));
  std::unique_ptr<llvm::MCStreamer> streamer(target->createMCObjectStreamer(
      llvm::Triple(triple), context, std::move(backend), std::move(writer), std::move(emitter),
      *subtarget));
  std::unique_ptr<llvm::MCAsmParser> parser(
      llvm::createMCAsmParser(sources, context, *streamer, *asmInfo));
  std::unique_ptr<llvm::MCTargetAsmParser> targetParser(
      target->createMCAsmParser(*subtarget, *parser, *instrInfo, options));
  parser->setTargetParser(*targetParser);
  streamer->initSections(false, *subtarget);
  if (parser->Run(false) || !diagnostics.empty())
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot assemble '" + text + "': " + diagnostics);
  streamer->finish();

  auto file = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(llvm::StringRef(object.data(), object.size()), "form"));
  if (!file)
    return file.takeError();
  for (const llvm::object::SectionRef &section : (*file)->sections()) {
    llvm::Expected<llvm::StringRef> name = section.getName();
    if (!name || *name != ".text")
      continue;
    llvm::Expected<llvm::StringRef> contents = section.getContents();
    if (!contents)
      return contents.takeError();
    // The text is the instruction followed by the padding: keep the instruction only.
    Decoder decoder;
    Instr instr;
    auto *bytes = reinterpret_cast<const uint8_t *>(contents->data());
    if (decoder.decode(bytes, contents->size(), 0, instr) != DecodeStatus::Ok)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "'" + text + "' assembled to undecodable bytes");
    return std::vector<uint8_t>(bytes, bytes + instr.length);
  }
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "no .text for '" + text + "'");
}

} // namespace hoist::test
