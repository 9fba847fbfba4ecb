// libFuzzer target: the ELF and PE loaders on any bytes. Loading either fails with an error or
// gives an image whose every claimed byte, symbol, import and export can be read (ASan checks
// the reads). docs/ROBUSTNESS.md says how to run it.
#include "hoist/Image.h"

#include <llvm/Support/MemoryBuffer.h>

#include <cstdint>

using namespace hoist;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  auto image = Image::fromBuffer(llvm::MemoryBuffer::getMemBufferCopy(bytes, "fuzz-input"));
  if (!image) {
    llvm::consumeError(image.takeError());
    return 0;
  }
  uint8_t scratch[16];
  unsigned sum = 0;
  for (const Section &section : (*image)->sections()) {
    if (!section.mapped || section.size == 0)
      continue;
    for (uint8_t byte : (*image)->bytesAt(section.address))
      sum += byte;
    (*image)->read(section.address + section.size - 1, scratch, 1);
    (*image)->isExecutable(section.address);
  }
  for (const Symbol &symbol : (*image)->symbols()) {
    (*image)->nameAt(symbol.address);
    (*image)->lookupSymbol(symbol.name);
  }
  for (const Import &import : (*image)->imports()) {
    (*image)->read(import.slotAddress, scratch, 8);
    (*image)->importAtSlot(import.slotAddress);
    if (import.stubAddress)
      (*image)->importAtStub(*import.stubAddress);
  }
  for (const Export &exported : (*image)->exports())
    (*image)->nameAt(exported.address);
  (*image)->kindDescription();
  return sum == 0xdeadbeef;   // keeps the sum alive; libFuzzer ignores the value
}
