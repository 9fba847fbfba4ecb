// libFuzzer target: one instruction decoded and lifted on its own. Whatever the bytes, the
// lifted function must pass the LLVM verifier (liftFunction checks it and fails otherwise,
// which aborts here so that libFuzzer saves the input).
#include "Decode/Decoder.h"
#include "Support/Diagnostics.h"
#include "hoist/Lifter.h"

#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdint>
#include <cstdlib>

using namespace hoist;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  constexpr uint64_t Base = 0x1000;
  static const Decoder decoder;
  Instr instr;
  if (decoder.decode(data, size, Base, instr) != DecodeStatus::Ok)
    return 0;
  instr.text();
  // The image holds exactly the instruction: the function is that one instruction, and
  // whatever comes after it leaves the code.
  std::unique_ptr<Image> image =
      Image::fromRawBytes(llvm::ArrayRef<uint8_t>(data, instr.length), Base);
  llvm::LLVMContext context;
  DiagnosticSink diagnostics;
  Lifter lifter(*image, context, diagnostics);
  llvm::Expected<llvm::Function *> function = lifter.liftFunction(Base);
  if (!function) {
    llvm::errs() << instr.text() << ": " << llvm::toString(function.takeError()) << "\n";
    std::abort();
  }
  std::unique_ptr<llvm::Module> module = lifter.takeModule();
  if (llvm::verifyModule(*module, &llvm::errs())) {
    llvm::errs() << instr.text() << ": the finished module fails the verifier\n";
    std::abort();
  }
  return 0;
}
