// The format-independent half of Image: loading by magic, the builder, and lookups by address.
#include "Image/Loaders.h"
#include "Support/Error.h"

#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <string_view>

namespace hoist {

const char *imageFormatName(ImageFormat format) {
  switch (format) {
  case ImageFormat::Elf:
    return "ELF";
  case ImageFormat::Pe:
    return "PE";
  case ImageFormat::Raw:
    return "raw";
  }
  return "unknown";
}

Image::~Image() = default;

// ---------------------------------------------------------------------------------------------
// Loading

llvm::Expected<std::unique_ptr<Image>> Image::load(llvm::StringRef path, uint64_t loadBias) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError("{0}: {1}", path, buffer.getError().message());
  return fromBuffer(std::move(*buffer), loadBias);
}

llvm::Expected<std::unique_ptr<Image>>
Image::fromBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer, uint64_t loadBias) {
  llvm::StringRef bytes = buffer->getBuffer();
  std::string path = buffer->getBufferIdentifier().str();
  if (bytes.empty())
    return makeError("{0}: file is empty", path);

  // Only the first bytes decide; each loader then checks its own headers in full.
  ImageFormat format;
  if (bytes.starts_with("\x7f"
                        "ELF"))
    format = ImageFormat::Elf;
  else if (bytes.starts_with("MZ"))
    format = ImageFormat::Pe;
  else
    return makeError("{0}: not an ELF or PE file (for raw code, use --raw --base ADDRESS)", path);

  Builder builder(std::move(buffer), format);
  llvm::Error error = format == ImageFormat::Elf ? loadElf(builder) : loadPe(builder);
  if (!error && loadBias != 0)
    error = builder.applyLoadBias(loadBias);
  if (error)
    return makeError("{0}: {1}", path, llvm::toString(std::move(error)));
  return builder.finish();
}

llvm::Expected<std::unique_ptr<Image>> Image::loadRaw(llvm::StringRef path, uint64_t base) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError("{0}: {1}", path, buffer.getError().message());
  if ((*buffer)->getBufferSize() == 0)
    return makeError("{0}: file is empty", path);
  Builder builder(std::move(*buffer), ImageFormat::Raw);
  if (llvm::Error error = loadRawBytes(builder, base))
    return makeError("{0}: {1}", path, llvm::toString(std::move(error)));
  return builder.finish();
}

std::unique_ptr<Image> Image::fromRawBytes(llvm::ArrayRef<uint8_t> bytes, uint64_t base,
                                           llvm::StringRef name) {
  // Bytes that would run past the top of the address space are dropped: this entry point has
  // no error channel, and such bytes could never be addressed anyway.
  uint64_t room = std::numeric_limits<uint64_t>::max() - base;
  if (bytes.size() > room)
    bytes = bytes.take_front(room);
  Builder builder(llvm::MemoryBuffer::getMemBufferCopy(llvm::toStringRef(bytes), name),
                  ImageFormat::Raw);
  llvm::consumeError(loadRawBytes(builder, base));
  return builder.finish();
}

// ---------------------------------------------------------------------------------------------
// Builder

Image::Builder::Builder(std::unique_ptr<llvm::MemoryBuffer> buffer, ImageFormat format)
    : image_(new Image()) {
  image_->path_ = buffer->getBufferIdentifier().str();
  image_->format_ = format;
  image_->buffer_ = std::move(buffer);
}

llvm::ArrayRef<uint8_t> Image::Builder::fileBytes() const {
  return llvm::arrayRefFromStringRef(image_->buffer_->getBuffer());
}

llvm::Error Image::Builder::addSection(Section section) {
  uint64_t fileSize = fileBytes().size();
  if (section.fileSize > 0 &&
      (section.fileOffset > fileSize || section.fileSize > fileSize - section.fileOffset))
    return makeError("section '{0}': file range {1}+{2} is beyond the end of the file "
                     "({3} bytes)",
                     section.name, formatAddress(section.fileOffset),
                     formatAddress(section.fileSize), fileSize);
  if (section.mapped && section.size > std::numeric_limits<uint64_t>::max() - section.address)
    return makeError("section '{0}': {1}+{2} runs past the end of the address space",
                     section.name, formatAddress(section.address),
                     formatAddress(section.size));
  // Bytes past the section's memory size are not part of it.
  section.fileSize = std::min(section.fileSize, section.size);
  if (section.fileSize == 0)
    section.fileOffset = std::min(section.fileOffset, fileSize);
  image_->sections_.push_back(std::move(section));
  return llvm::Error::success();
}

llvm::Error Image::Builder::applyLoadBias(uint64_t bias) {
  Image &image = *image_;
  // Only an image whose code makes no assumption about where it is may be moved.
  if (image.format_ != ImageFormat::Elf || !image.pie_)
    return makeError("a load bias needs a position-independent ELF image (PIE or shared "
                     "object), not a {0}", image.kindDescription());
  uint64_t top = 0;
  for (const Section &section : image.sections_)
    if (section.mapped)
      top = std::max(top, section.address + section.size);
  if (top > std::numeric_limits<uint64_t>::max() - bias)
    return makeError("load bias {0} moves the image past the top of the address space",
                     formatAddress(bias));
  for (Section &section : image.sections_)
    if (section.mapped)
      section.address += bias;
  for (Symbol &symbol : image.symbols_)
    symbol.address += bias;
  for (Import &import : image.imports_) {
    import.slotAddress += bias;
    if (import.stubAddress)
      *import.stubAddress += bias;
    if (import.definedAt)
      *import.definedAt += bias;
  }
  for (Export &exported : image.exports_)
    if (exported.forwarder.empty())
      exported.address += bias;
  for (auto &[slot, value] : image.relocatedPointers_) {
    slot += bias;
    value += bias;
  }
  for (CopiedObject &object : image.copiedObjects_)
    object.address += bias;
  for (SymbolPointer &pointer : image.symbolPointers_)
    pointer.slot += bias;
  for (uint64_t &slot : image.opaqueSlots_)
    slot += bias;
  for (uint64_t &slot : image.possiblePointers_)
    slot += bias;
  image.entry_ += bias;
  image.imageBase_ += bias;
  image.loadBias_ = bias;
  return llvm::Error::success();
}

llvm::ArrayRef<uint8_t> Image::Builder::sectionBytes(const Section &section) const {
  return fileBytes().slice(section.fileOffset, section.fileSize);
}

namespace {

// Which name wins for an address: a function or object symbol, then an export, then any
// other symbol (labels, NOTYPE markers such as __bss_start).
enum NameRank { RankTyped, RankExport, RankOther };

} // namespace

std::unique_ptr<Image> Image::Builder::finish() {
  Image &image = *image_;

  // Address map of sections: in a well-formed file mapped sections never overlap; where a
  // malformed one makes them, the earlier section keeps the range.
  std::vector<size_t> order;
  for (size_t i = 0; i < image.sections_.size(); ++i)
    if (image.sections_[i].mapped && image.sections_[i].size > 0)
      order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return image.sections_[a].address < image.sections_[b].address;
  });
  uint64_t mappedEnd = 0;
  bool any = false;
  for (size_t index : order) {
    const Section &section = image.sections_[index];
    if (any && section.address < mappedEnd)
      continue;
    image.sectionByAddress_.emplace(section.address, index);
    mappedEnd = section.address + section.size;
    any = true;
  }

  std::sort(image.relocatedPointers_.begin(), image.relocatedPointers_.end());
  std::sort(image.symbolPointers_.begin(), image.symbolPointers_.end(),
            [](const SymbolPointer &a, const SymbolPointer &b) { return a.slot < b.slot; });
  std::sort(image.opaqueSlots_.begin(), image.opaqueSlots_.end());
  std::sort(image.possiblePointers_.begin(), image.possiblePointers_.end());
  std::sort(image.copiedObjects_.begin(), image.copiedObjects_.end(),
            [](const CopiedObject &a, const CopiedObject &b) { return a.address < b.address; });
  std::stable_sort(image.symbols_.begin(), image.symbols_.end(),
                   [](const Symbol &a, const Symbol &b) { return a.address < b.address; });

  std::map<uint64_t, NameRank> rankAt;
  std::map<std::string_view, uint64_t> firstAddressNamed;
  auto offerName = [&](uint64_t address, const std::string &name, NameRank rank) {
    if (auto [first, added] = firstAddressNamed.emplace(name, address);
        !added && first->second != address)
      image.namesOfSeveralAddresses_.insert(name);
    auto [it, inserted] = rankAt.emplace(address, rank);
    if (inserted || rank < it->second) {
      it->second = rank;
      image.nameByAddress_[address] = name;
    }
  };
  for (const Symbol &symbol : image.symbols_) {
    bool typed = symbol.kind != Symbol::Kind::Other;
    offerName(symbol.address, symbol.name, typed ? RankTyped : RankOther);
    if (typed)
      image.addressByName_.emplace(symbol.name, symbol.address);
  }
  for (const Export &exported : image.exports_) {
    if (!exported.forwarder.empty())
      continue;
    offerName(exported.address, exported.name, RankExport);
    image.addressByName_.emplace(exported.name, exported.address);
  }

  for (size_t i = 0; i < image.imports_.size(); ++i) {
    const Import &import = image.imports_[i];
    image.importBySlot_.emplace(import.slotAddress, i);
    image.importNames_.insert(import.name);
    if (import.stubAddress)
      image.importByStub_.emplace(*import.stubAddress, i);
  }
  return std::move(image_);
}

// ---------------------------------------------------------------------------------------------
// Queries

std::string Image::kindDescription() const {
  switch (format_) {
  case ImageFormat::Elf:
    if (library_)
      return "ELF shared object";
    return pie_ ? "ELF PIE" : "ELF executable";
  case ImageFormat::Pe:
    return library_ ? "PE32+ DLL" : "PE32+ executable";
  case ImageFormat::Raw:
    return "raw code";
  }
  return "unknown";
}

const Section *Image::sectionAt(uint64_t address) const {
  auto it = sectionByAddress_.upper_bound(address);
  if (it == sectionByAddress_.begin())
    return nullptr;
  const Section &section = sections_[std::prev(it)->second];
  // Subtracting first keeps the test free of overflow at the top of the address space.
  return address - section.address < section.size ? &section : nullptr;
}

const Section *Image::sectionEndingAt(uint64_t address) const {
  if (sectionAt(address))
    return nullptr;
  // Empty sections (an unused .tm_clone_table) may start where the one before ends.
  for (auto it = sectionByAddress_.upper_bound(address); it != sectionByAddress_.begin();) {
    const Section &section = sections_[(--it)->second];
    if (section.size)
      return address - section.address == section.size ? &section : nullptr;
  }
  return nullptr;
}

bool Image::isExecutable(uint64_t address) const {
  const Section *section = sectionAt(address);
  return section && section->executable;
}

llvm::ArrayRef<uint8_t> Image::bytesAt(uint64_t address) const {
  const Section *section = sectionAt(address);
  if (!section)
    return {};
  uint64_t offset = address - section->address;
  if (offset >= section->fileSize)
    return {};
  // The builder checked fileOffset + fileSize against the buffer.
  auto file = llvm::arrayRefFromStringRef(buffer_->getBuffer());
  return file.slice(section->fileOffset + offset, section->fileSize - offset);
}

bool Image::read(uint64_t address, void *out, size_t size) const {
  auto *dest = static_cast<uint8_t *>(out);
  // A read may span adjacent sections (e.g. .text into .fini); each step covers at least one
  // byte of one section, so the loop runs at most `size` times.
  while (size > 0) {
    const Section *section = sectionAt(address);
    if (!section)
      return false;
    uint64_t offset = address - section->address;
    uint64_t chunk = std::min<uint64_t>(size, section->size - offset);
    uint64_t fromFile = offset < section->fileSize
                            ? std::min<uint64_t>(chunk, section->fileSize - offset)
                            : 0;
    if (fromFile > 0)
      std::memcpy(dest, buffer_->getBufferStart() + section->fileOffset + offset, fromFile);
    std::memset(dest + fromFile, 0, chunk - fromFile);
    dest += chunk;
    size -= chunk;
    address += chunk;   // cannot wrap: the builder keeps every section below 2^64

  }
  return true;
}

bool Image::readRelocated(uint64_t address, void *out, size_t size) const {
  if (!read(address, out, size))
    return false;
  auto *dest = static_cast<uint8_t *>(out);
  uint64_t end = address + size;
  // Slots are 8 bytes: the first one that can overlap starts at most 7 bytes below.
  auto it = std::lower_bound(relocatedPointers_.begin(), relocatedPointers_.end(),
                             std::make_pair(address < 7 ? 0 : address - 7, uint64_t(0)));
  for (; it != relocatedPointers_.end() && it->first < end; ++it) {
    uint8_t bytes[8];
    std::memcpy(bytes, &it->second, sizeof bytes);
    for (unsigned i = 0; i < 8; ++i)
      if (it->first + i >= address && it->first + i < end)
        dest[it->first + i - address] = bytes[i];
  }
  return true;
}

const CopiedObject *Image::copiedObjectAt(uint64_t address) const {
  auto after = std::upper_bound(
      copiedObjects_.begin(), copiedObjects_.end(), address,
      [](uint64_t wanted, const CopiedObject &object) { return wanted < object.address; });
  if (after == copiedObjects_.begin())
    return nullptr;
  const CopiedObject &object = *std::prev(after);
  return address - object.address < std::max<uint64_t>(object.size, 1) ? &object : nullptr;
}

std::optional<uint64_t> Image::relocatedPointer(uint64_t slot) const {
  auto it = std::lower_bound(relocatedPointers_.begin(), relocatedPointers_.end(),
                             std::make_pair(slot, uint64_t(0)));
  if (it == relocatedPointers_.end() || it->first != slot)
    return std::nullopt;
  return it->second;
}

std::optional<uint64_t> Image::lookupSymbol(llvm::StringRef name) const {
  auto it = addressByName_.find(name);
  if (it == addressByName_.end())
    return std::nullopt;
  return it->second;
}

const Symbol *Image::indirectFunctionAt(uint64_t address) const {
  // symbols_ is sorted by address (Builder::finish).
  auto first = std::lower_bound(
      symbols_.begin(), symbols_.end(), address,
      [](const Symbol &symbol, uint64_t wanted) { return symbol.address < wanted; });
  for (auto it = first; it != symbols_.end() && it->address == address; ++it)
    if (it->indirect)
      return &*it;
  return nullptr;
}

std::optional<std::string> Image::nameAt(uint64_t address) const {
  auto it = nameByAddress_.find(address);
  if (it == nameByAddress_.end())
    return std::nullopt;
  return it->second;
}

bool Image::namesSeveralAddresses(llvm::StringRef name) const {
  return namesOfSeveralAddresses_.count(name) > 0;
}

bool Image::importsName(llvm::StringRef name) const { return importNames_.count(name) > 0; }

const Import *Image::importAtSlot(uint64_t slotAddress) const {
  auto it = importBySlot_.find(slotAddress);
  return it == importBySlot_.end() ? nullptr : &imports_[it->second];
}

const Import *Image::importAtStub(uint64_t stubAddress) const {
  if (auto it = importByStub_.find(stubAddress); it != importByStub_.end())
    return &imports_[it->second];
  auto it = calledByNameAt_.find(stubAddress);
  return it == calledByNameAt_.end() ? nullptr : &calledByName_[it->second];
}

void Image::callByName(std::vector<Import> functions) {
  calledByName_ = std::move(functions);
  calledByNameAt_.clear();
  for (const Import &function : calledByName_)
    importNames_.insert(function.name);
  for (size_t i = 0; i < calledByName_.size(); ++i)
    if (calledByName_[i].stubAddress)
      calledByNameAt_.emplace(*calledByName_[i].stubAddress, i);
}

} // namespace hoist
