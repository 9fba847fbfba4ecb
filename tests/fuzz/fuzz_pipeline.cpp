// libFuzzer target: the whole pipeline (load, program discovery, lifting with callees, the
// finished module) on small inputs. The first byte picks the input kind: even, a raw blob of
// code mapped at 0x1000; odd, an ELF or PE image. Budgets are small so that each input takes
// milliseconds; every module must pass the verifier.
#include "Support/Diagnostics.h"
#include "Support/TimeBudget.h"
#include "hoist/Lifter.h"

#include <llvm/IR/Verifier.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdint>
#include <cstdlib>

using namespace hoist;

namespace {

LiftOptions smallBudgets() {
  LiftOptions options;
  options.maxInstructionsPerFunction = 4096;
  options.maxBlocksPerFunction = 1024;
  options.maxJumpTableEntries = 1024;
  options.maxDiscoveryRounds = 8;
  options.maxFunctions = 32;
  options.deadline = deadlineAfter(2.0);
  return options;
}

std::unique_ptr<Image> load(const uint8_t *data, size_t size) {
  if (size == 0)
    return nullptr;
  if (data[0] % 2 == 0)
    return Image::fromRawBytes(llvm::ArrayRef<uint8_t>(data + 1, size - 1), 0x1000, "fuzz-raw");
  llvm::StringRef bytes(reinterpret_cast<const char *>(data + 1), size - 1);
  auto image = Image::fromBuffer(llvm::MemoryBuffer::getMemBufferCopy(bytes, "fuzz-image"));
  if (!image) {
    llvm::consumeError(image.takeError());
    return nullptr;
  }
  return std::move(*image);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::unique_ptr<Image> image = load(data, size);
  if (!image)
    return 0;
  llvm::LLVMContext context;
  DiagnosticSink diagnostics;
  Lifter lifter(*image, context, diagnostics, smallBudgets());
  std::vector<uint64_t> roots;
  if (image->format() == ImageFormat::Raw)
    roots.push_back(0x1000);
  else if (image->isExecutable(image->entryPoint()))
    roots.push_back(image->entryPoint());
  std::vector<uint64_t> entries = lifter.discover(roots, /*all=*/true);
  for (uint64_t entry : entries) {
    if (lifter.stats().functions >= lifter.options().maxFunctions)
      break;
    // A function that fails to lift is a diagnostic, as in the CLI.
    if (llvm::Expected<llvm::Function *> function = lifter.liftFunction(entry); !function)
      diagnostics.error("lift-failed", entry, llvm::toString(function.takeError()));
  }
  lifter.liftCallees();
  // Failing to lift may be right for some input; failing the verifier is a Hoist bug.
  for (const Diagnostic &d : diagnostics.all())
    if (d.message.find("fails the LLVM verifier") != std::string::npos) {
      llvm::errs() << d.message << "\n";
      std::abort();
    }
  std::unique_ptr<llvm::Module> module = lifter.takeModule();
  if (llvm::verifyModule(*module, &llvm::errs())) {
    llvm::errs() << "the lifted module fails the verifier\n";
    std::abort();
  }
  return 0;
}
