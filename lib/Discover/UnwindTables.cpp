#include "Discover/UnwindTables.h"

#include "Support/Error.h"

#include <llvm/DebugInfo/DWARF/DWARFDataExtractor.h>
#include <llvm/DebugInfo/DWARF/DWARFDebugFrame.h>
#include <llvm/Support/Endian.h>

namespace hoist {
namespace {

const Section *findSection(const Image &image, llvm::StringRef name) {
  for (const Section &section : image.sections())
    if (section.name == name && section.mapped && section.fileSize)
      return &section;
  return nullptr;
}

/// Whether the CFA at the FDE's first address is anything but rsp+8, the stack a call leaves,
/// or the return address is undefined there: no call leads to it (glibc's `clone`, whose
/// child's code has an FDE of its own with `DW_CFA_undefined rip`, entered by a `je` from the
/// parent's). An FDE whose instructions cannot be evaluated says nothing either way.
bool continuesFrame(const llvm::dwarf::FDE &fde) {
  constexpr uint32_t DwarfRsp = 7;
  constexpr uint32_t DwarfReturnAddress = 16;
  llvm::Expected<llvm::dwarf::UnwindTable> table = llvm::dwarf::UnwindTable::create(&fde);
  if (!table) {
    llvm::consumeError(table.takeError());
    return false;
  }
  if (table->size() == 0)
    return false;
  const llvm::dwarf::UnwindRow &first = *table->begin();
  if (!first.hasAddress() || first.getAddress() != fde.getInitialLocation())
    return false;
  std::optional<llvm::dwarf::UnwindLocation> returnAddress =
      first.getRegisterLocations().getRegisterLocation(DwarfReturnAddress);
  if (returnAddress && returnAddress->getLocation() == llvm::dwarf::UnwindLocation::Undefined)
    return true;
  const llvm::dwarf::UnwindLocation &cfa = first.getCFAValue();
  return cfa.getLocation() != llvm::dwarf::UnwindLocation::RegPlusOffset ||
         cfa.getRegister() != DwarfRsp || cfa.getOffset() != 8;
}

} // namespace

llvm::Expected<std::vector<CodeRange>> ehFrameFunctionRanges(const Image &image) {
  std::vector<CodeRange> starts;
  if (image.format() != ImageFormat::Elf)
    return starts;
  const Section *section = findSection(image, ".eh_frame");
  if (!section)
    return starts;
  llvm::ArrayRef<uint8_t> bytes = image.bytesAt(section->address);
  bytes = bytes.take_front(section->fileSize);
  llvm::DWARFDataExtractor data(bytes, /*IsLittleEndian=*/true, /*AddressSize=*/8);
  llvm::DWARFDebugFrame frame(llvm::Triple::x86_64, /*IsEH=*/true, section->address);
  if (llvm::Error error = frame.parse(data))
    return makeError("{0}: malformed .eh_frame: {1}", image.path(),
                     llvm::toString(std::move(error)));
  for (const llvm::dwarf::FrameEntry &entry : frame.entries())
    if (const auto *fde = llvm::dyn_cast<llvm::dwarf::FDE>(&entry))
      if (fde->getAddressRange() != 0)
        starts.push_back(
            {fde->getInitialLocation(), fde->getAddressRange(), continuesFrame(*fde)});
  return starts;
}

llvm::Expected<std::vector<CodeRange>> pdataFunctionRanges(const Image &image) {
  std::vector<CodeRange> starts;
  if (image.format() != ImageFormat::Pe)
    return starts;
  const Section *section = findSection(image, ".pdata");
  if (!section)
    return starts;
  llvm::ArrayRef<uint8_t> bytes = image.bytesAt(section->address).take_front(section->fileSize);
  using llvm::support::endian::read32le;
  constexpr uint8_t ChainInfo = 0x4;   // UNW_FLAG_CHAININFO
  for (size_t offset = 0; offset + 12 <= bytes.size(); offset += 12) {
    uint32_t begin = read32le(bytes.data() + offset);
    uint32_t end = read32le(bytes.data() + offset + 4);
    uint32_t unwind = read32le(bytes.data() + offset + 8);
    if (begin == 0 && end == 0)
      break;   // padding after the last entry
    if (end <= begin)
      continue;
    uint8_t versionAndFlags = 0;
    if (!(unwind & 1) &&   // bit 0 set: the entry points at another RUNTIME_FUNCTION
        image.read(image.imageBase() + unwind, &versionAndFlags, 1) &&
        ((versionAndFlags >> 3) & ChainInfo))
      continue;
    starts.push_back({image.imageBase() + begin, uint64_t(end - begin)});
  }
  return starts;
}

} // namespace hoist
