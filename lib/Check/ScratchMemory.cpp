#include "Check/ScratchMemory.h"

#include "Support/Error.h"
#include "hoist/Image.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/Support/FormatVariadic.h>

#include <algorithm>
#include <cstring>
#include <sys/mman.h>

namespace hoist::check {
namespace {

constexpr uint64_t PageBytes = 4096;
/// More than any binary the check is meant for; a larger span is refused, not mapped.
constexpr uint64_t MaxImageSpan = uint64_t(1) << 30;

uint8_t *mapAnonymous(uint64_t bytes) {
  void *at = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return at == MAP_FAILED ? nullptr : static_cast<uint8_t *>(at);
}

/// `bytes` mapped at an address whose low 32 bits are `low`'s, so that the lifted run's
/// `%mem` is a multiple of 4 GiB and the low halves of its guest addresses are the host's:
/// code that masks or truncates a pointer computes the same bits in both runs.
uint8_t *mapCongruent(uint64_t bytes, uint64_t low) {
  constexpr uint64_t Period = uint64_t(1) << 32;
  void *reserve =
      mmap(nullptr, bytes + Period, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (reserve == MAP_FAILED)
    return mapAnonymous(bytes);
  uint64_t start = reinterpret_cast<uint64_t>(reserve);
  uint64_t at = (start & ~(Period - 1)) + (low & (Period - 1));
  if (at < start)
    at += Period;
  munmap(reserve, bytes + Period);
  void *mapped = mmap(reinterpret_cast<void *>(at), bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  return mapped == MAP_FAILED ? mapAnonymous(bytes) : static_cast<uint8_t *>(mapped);
}

uint64_t splitMix(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  return z ^ (z >> 31);
}

uint64_t load64(const uint8_t *at) {
  uint64_t value;
  std::memcpy(&value, at, 8);
  return value;
}

} // namespace

std::string Canonical::describe() const {
  switch (kind) {
  case Kind::Number:
    return llvm::formatv("{0:x}", value).str();
  case Kind::Heap:
    return llvm::formatv("heap+{0:x}", value).str();
  case Kind::Stack:
    return "a stack address";
  case Kind::Image:
    return llvm::formatv("image {0:x}", value).str();
  case Kind::Import:
    return llvm::formatv("the address of import #{0}", value).str();
  }
  return "?";
}

llvm::Expected<std::unique_ptr<ScratchMemory>> ScratchMemory::create(const Image &image) {
  auto memory = std::unique_ptr<ScratchMemory>(new ScratchMemory);
  memory->heap_ = mapAnonymous(HeapBytes);
  memory->stackMapping_ = mapAnonymous(PageBytes + StackBytes);
  if (!memory->heap_ || !memory->stackMapping_)
    return makeError("cannot map the check's scratch memory");
  // A guard page under the stack: a run that overflows it faults instead of writing elsewhere.
  mprotect(memory->stackMapping_, PageBytes, PROT_NONE);
  memory->stack_ = memory->stackMapping_ + PageBytes;
  uint64_t low = UINT64_MAX, high = 0;
  for (const Section &section : image.sections())
    if (section.mapped && section.size) {
      low = std::min(low, section.address);
      high = std::max(high, section.address + section.size);
    }
  if (low >= high)
    return makeError("{0}: no mapped section", image.path());
  low &= ~(PageBytes - 1);
  high = (high + PageBytes - 1) & ~(PageBytes - 1);
  if (high - low > MaxImageSpan)
    return makeError("{0}: its sections span {1:x} bytes, more than the check maps", image.path(),
                     high - low);
  memory->imageLow_ = low;
  memory->imageHigh_ = high;
  memory->imageMappingBytes_ = high - low;
  memory->imageMapping_ = mapCongruent(high - low, low);
  if (!memory->imageMapping_)
    return makeError("{0}: cannot map its image for the check", image.path());
  // Guest address A is host `mem + A`; the pointer arithmetic wraps as the lifted code's does.
  memory->liftedMemory_ = reinterpret_cast<uint8_t *>(
      reinterpret_cast<uintptr_t>(memory->imageMapping_) - uintptr_t(low));
  for (const Section &section : image.sections())
    if (section.mapped && section.size)
      image.readRelocated(section.address, memory->imageMapping_ + (section.address - low),
                          section.size);
  memory->pristineImage_.assign(memory->imageMapping_, memory->imageMapping_ + (high - low));
  // A position-independent image is lifted at 0, where no loader puts it: its first page
  // faults as the null page does, so that a null pointer faults in the lifted run too.
  if (low == 0)
    mprotect(memory->imageMapping_, PageBytes, PROT_NONE);
  for (const Section &section : image.sections())
    if (section.mapped && section.size && section.writable)
      memory->writableRanges_.emplace_back(section.address - low, section.size);
  return memory;
}

ScratchMemory::~ScratchMemory() {
  if (heap_)
    munmap(heap_, HeapBytes);
  if (stackMapping_)
    munmap(stackMapping_, PageBytes + StackBytes);
  if (imageMapping_)
    munmap(imageMapping_, imageMappingBytes_);
}

void ScratchMemory::setCarriedSections(std::vector<CarriedSection> sections) {
  carried_ = std::move(sections);
  pristineCarried_.clear();
  for (const CarriedSection &section : carried_)
    pristineCarried_.emplace_back(section.host, section.host + section.size);
}

void ScratchMemory::setImportAddresses(std::vector<std::pair<uint64_t, uint64_t>> addresses) {
  importAddresses_ = std::move(addresses);
}

void ScratchMemory::writeImportSlot(uint64_t slot, unsigned id) {
  if (slot < imageLow_ || slot + 8 > imageHigh_)
    return;
  uint64_t value = liftedImportValue(id);
  std::memcpy(imageMapping_ + (slot - imageLow_), &value, 8);
  std::memcpy(pristineImage_.data() + (slot - imageLow_), &value, 8);
}

void ScratchMemory::setCodeAddresses(std::vector<std::pair<uint64_t, uint64_t>> hostToEntry) {
  codeAddresses_ = std::move(hostToEntry);
  std::sort(codeAddresses_.begin(), codeAddresses_.end());
}

bool ScratchMemory::sameValue(uint64_t lifted, uint64_t brightened) const {
  if (lifted == brightened)
    return true;
  Canonical left = canonicalLifted(lifted), right = canonicalBrightened(brightened);
  if (left == right && left.kind != Canonical::Kind::Number)
    return true;
  // An image address outside every carried section, computed from one (a jump table's base
  // plus its entry: the case label's address, left in a register) is that section's host
  // address moved by the same distance.
  if (left.kind == Canonical::Kind::Image)
    for (const CarriedSection &section : carried_)
      if (reinterpret_cast<uint64_t>(section.host) + (left.value - section.address) == brightened)
        return true;
  return lifted + reinterpret_cast<uint64_t>(liftedMemory_) == brightened;
}

void ScratchMemory::setNativeStack(const void *top, uint64_t bytes) {
  nativeStackHigh_ = reinterpret_cast<uint64_t>(top);
  nativeStackLow_ = nativeStackHigh_ - bytes;
}

void ScratchMemory::fillHeap(uint64_t seed) {
  uint64_t state = seed;
  for (uint64_t at = 0; at < HeapBytes; at += 8) {
    uint64_t word = splitMix(state);
    std::memcpy(heap_ + at, &word, 8);
  }
}

void ScratchMemory::restoreData() {
  // Only what the image lets code write: a write elsewhere faults in the machine.
  for (auto [offset, size] : writableRanges_)
    std::memcpy(imageMapping_ + offset, pristineImage_.data() + offset, size);
  for (size_t i = 0; i < carried_.size(); ++i)
    if (carried_[i].writable)
      std::memcpy(carried_[i].host, pristineCarried_[i].data(), carried_[i].size);
}

ScratchMemory::Snapshot ScratchMemory::liftedSnapshot() const {
  Snapshot snapshot{{heap_, heap_ + HeapBytes}, {}};
  for (const CarriedSection &section : carried_)
    if (section.writable) {
      const uint8_t *at = imageMapping_ + (section.address - imageLow_);
      snapshot.data.emplace_back(at, at + section.size);
    }
  return snapshot;
}

ScratchMemory::Snapshot ScratchMemory::brightenedSnapshot() const {
  Snapshot snapshot{{heap_, heap_ + HeapBytes}, {}};
  for (const CarriedSection &section : carried_) {
    if (!section.writable)
      continue;
    std::vector<uint8_t> &bytes =
        snapshot.data.emplace_back(section.host, section.host + section.size);
    for (auto [address, size] : sharedObjects_) {
      uint64_t low = std::max(address, section.address);
      uint64_t high = std::min(address + size, section.address + section.size);
      if (low < high)
        std::memcpy(bytes.data() + (low - section.address), imageMapping_ + (low - imageLow_),
                    high - low);
    }
  }
  return snapshot;
}

Canonical ScratchMemory::canonicalLifted(uint64_t value) const {
  uint64_t host = value + reinterpret_cast<uint64_t>(liftedMemory_);
  uint64_t heap = reinterpret_cast<uint64_t>(heap_);
  if (host >= heap && host < heap + HeapBytes)
    return {Canonical::Kind::Heap, host - heap};
  uint64_t stack = reinterpret_cast<uint64_t>(stack_);
  if (host >= stack && host <= stack + StackBytes)
    return {Canonical::Kind::Stack, 0};
  if (inImage(value))
    return {Canonical::Kind::Image, value};
  for (auto [id, addresses] : llvm::enumerate(importAddresses_))
    if (value == addresses.first)
      return {Canonical::Kind::Import, id};
  return {Canonical::Kind::Number, value};
}

Canonical ScratchMemory::canonicalBrightened(uint64_t value) const {
  uint64_t heap = reinterpret_cast<uint64_t>(heap_);
  if (value >= heap && value < heap + HeapBytes)
    return {Canonical::Kind::Heap, value - heap};
  if (value >= nativeStackLow_ && value <= nativeStackHigh_)
    return {Canonical::Kind::Stack, 0};
  for (const CarriedSection &section : carried_) {
    uint64_t start = reinterpret_cast<uint64_t>(section.host);
    // One past the end too: a loop's bound `&array[n]`.
    if (value >= start && value <= start + section.size)
      return {Canonical::Kind::Image, section.address + (value - start)};
  }
  // An object the brightened run shares with the lifted one (a copied `stdout`).
  uint64_t mapping = reinterpret_cast<uint64_t>(imageMapping_);
  if (value >= mapping && value < mapping + imageMappingBytes_)
    return {Canonical::Kind::Image, value - reinterpret_cast<uint64_t>(liftedMemory_)};
  auto code = std::lower_bound(codeAddresses_.begin(), codeAddresses_.end(),
                               std::make_pair(value, uint64_t(0)));
  if (code != codeAddresses_.end() && code->first == value)
    return {Canonical::Kind::Image, code->second};
  for (auto [id, addresses] : llvm::enumerate(importAddresses_))
    if (value == addresses.second && value)
      return {Canonical::Kind::Import, id};
  // A number in the image's range is what the lifted run would call an image address.
  if (inImage(value))
    return {Canonical::Kind::Image, value};
  return {Canonical::Kind::Number, value};
}

uint64_t ScratchMemory::liftedValue(const Canonical &canonical) const {
  switch (canonical.kind) {
  case Canonical::Kind::Import:
    return liftedImportValue(unsigned(canonical.value));
  case Canonical::Kind::Heap:
    return reinterpret_cast<uint64_t>(heap_) + canonical.value -
           reinterpret_cast<uint64_t>(liftedMemory_);
  case Canonical::Kind::Stack:
    return 0;
  default:
    return canonical.value;
  }
}

uint64_t ScratchMemory::brightenedValue(const Canonical &canonical) const {
  switch (canonical.kind) {
  case Canonical::Kind::Import:
    return canonical.value < importAddresses_.size() ? importAddresses_[canonical.value].second : 0;
  case Canonical::Kind::Heap:
    return reinterpret_cast<uint64_t>(heap_) + canonical.value;
  case Canonical::Kind::Stack:
    return 0;
  case Canonical::Kind::Image:
    for (const CarriedSection &section : carried_)
      if (canonical.value >= section.address && canonical.value < section.address + section.size)
        return reinterpret_cast<uint64_t>(section.host) + (canonical.value - section.address);
    return canonical.value;
  default:
    return canonical.value;
  }
}

std::string ScratchMemory::differenceIn(const char *what, const std::vector<uint8_t> &lifted,
                                        const std::vector<uint8_t> &brightened,
                                        const uint8_t *liftedBefore,
                                        const uint8_t *brightenedBefore) const {
  size_t size = std::min(lifted.size(), brightened.size());
  for (size_t at = 0; at < size; ++at) {
    if (lifted[at] == brightened[at])
      continue;
    // Data that started different (a pointer to another module's symbol, which each run
    // resolves its own way) and that neither run wrote is no difference of the function's.
    if (liftedBefore && lifted[at] == liftedBefore[at] && brightened[at] == brightenedBefore[at])
      continue;
    // The same pointer in both runs' terms, in any 8-byte word holding the byte (a pointer
    // a function stores through an unaligned address).
    bool samePointer = false;
    for (size_t word = at >= 7 ? at - 7 : 0; word <= at && word + 8 <= size; ++word)
      if (sameValue(load64(&lifted[word]), load64(&brightened[word]))) {
        samePointer = true;
        at = word + 7;
        break;
      }
    if (samePointer)
      continue;
    return llvm::formatv("{0} byte {1:x}: {2:x} (lifted) and {3:x} (brightened)", what, at,
                         unsigned(lifted[at]), unsigned(brightened[at]))
        .str();
  }
  return "";
}

std::string ScratchMemory::firstDifference(const Snapshot &lifted,
                                           const Snapshot &brightened) const {
  if (std::string heap = differenceIn("heap", lifted.heap, brightened.heap, nullptr, nullptr);
      !heap.empty())
    return heap;
  size_t index = 0;
  for (size_t i = 0; i < carried_.size(); ++i) {
    const CarriedSection &section = carried_[i];
    if (!section.writable)
      continue;
    std::string data = differenceIn("data", lifted.data[index], brightened.data[index],
                                    pristineImage_.data() + (section.address - imageLow_),
                                    pristineCarried_[i].data());
    if (!data.empty())
      return llvm::formatv("{0} (section at {1:x})", data, section.address).str();
    ++index;
  }
  return "";
}

} // namespace hoist::check
