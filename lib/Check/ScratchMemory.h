// The memory both runs of a differential-check trial share in shape (BrightenCheck.h): a
// scratch heap of random bytes that pointer arguments point into, the lifted run's stack, the
// image mapped for the lifted run, and the carried data of the brightened run; and the one
// vocabulary that compares values of the two runs, whose addresses differ: the lifted run
// addresses memory as `%mem + address` (its guest addresses), the brightened run by host
// pointers.
#pragma once

#include <llvm/Support/Error.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hoist {
class Image;
}

namespace hoist::check {

/// A value of either run in terms both share.
struct Canonical {
  enum class Kind : uint8_t {
    Number, ///< no pointer the check knows: the value itself
    Heap,   ///< the scratch heap, at `value` bytes from its start
    Stack,  ///< the running function's stack (offsets differ between the runs: not kept)
    Image,  ///< the image's memory at address `value` (or a number in its range)
    Import, ///< the address of the import `value` (ImportTable's id)
  };
  Kind kind = Kind::Number;
  uint64_t value = 0;
  bool operator==(const Canonical &) const = default;
  std::string describe() const;
};

/// A section of the image as the brightened run carries it: its global's host address.
struct CarriedSection {
  uint64_t address = 0; ///< the section's address in the image
  uint8_t *host = nullptr;
  uint64_t size = 0;
  bool writable = false;
};

class ScratchMemory {
public:
  /// Maps the heap, the lifted run's stack and the image's sections (relocated, as the loader
  /// leaves them). Fails for an image whose sections span more than the check maps.
  static llvm::Expected<std::unique_ptr<ScratchMemory>> create(const Image &image);
  ~ScratchMemory();

  static constexpr uint64_t HeapBytes = 64 * 1024;
  /// Arguments point into the first half; imports return pointers into the second.
  static constexpr uint64_t ArgumentHeapBytes = HeapBytes / 2;
  static constexpr uint64_t StackBytes = 512 * 1024;

  uint8_t *heap() const { return heap_; }
  /// What the lifted run's `%mem` is: its guest address A is the host byte `mem + A`.
  uint8_t *liftedMemory() const { return liftedMemory_; }
  /// The host address one past the lifted run's stack.
  uint8_t *liftedStackTop() const { return stack_ + StackBytes; }

  /// The brightened run's carried sections, once the JIT placed them; snapshots their bytes.
  void setCarriedSections(std::vector<CarriedSection> sections);
  /// The addresses of the imports: the value the lifted run finds in each import's slot (the
  /// check writes it there: non-null, as the loader leaves a slot) and the host address of the
  /// brightened run's stub, by the import's id.
  void setImportAddresses(std::vector<std::pair<uint64_t, uint64_t>> addresses);
  /// Writes the lifted value of the import `id` (setImportAddresses) into its slot at `slot`.
  void writeImportSlot(uint64_t slot, unsigned id);
  static uint64_t liftedImportValue(unsigned id) { return 0xfffe000000000000 + 16 * uint64_t(id); }
  /// The brightened functions' host addresses and their entries in the image: a code pointer
  /// the brightened run holds is the entry the lifted run holds.
  void setCodeAddresses(std::vector<std::pair<uint64_t, uint64_t>> hostToEntry);
  /// The objects both runs share (R_X86_64_COPY: `stdout`, `__progname_full`), as image
  /// address and size: the brightened run writes them in the lifted run's image, so its
  /// snapshot of the carried section around one reads them there.
  void setSharedObjects(std::vector<std::pair<uint64_t, uint64_t>> objects) {
    sharedObjects_ = std::move(objects);
  }
  /// Whether the lifted run's `lifted` and the brightened run's `brightened` are the same
  /// value: equal canonical forms that are not plain numbers, or the lifted value seen as a
  /// host address (a pointer the function moved by a number: `end - start` of a pointer it
  /// was given and one an import returned), or an image address the brightened run computed
  /// from a carried section's host address (a case label's, from its jump table's).
  bool sameValue(uint64_t lifted, uint64_t brightened) const;
  /// The host stack the brightened run uses: an address in it and its extent below.
  void setNativeStack(const void *top, uint64_t bytes);

  /// Fills the heap with bytes from `seed`: both runs of a trial start from the same.
  void fillHeap(uint64_t seed);
  /// Restores the image (lifted run) and the carried sections (brightened run) as they were.
  void restoreData();
  /// Copies out the heap and the writable data after a run, to compare.
  struct Snapshot {
    std::vector<uint8_t> heap;
    std::vector<std::vector<uint8_t>> data; ///< writable sections, in carried order
  };
  Snapshot liftedSnapshot() const;
  Snapshot brightenedSnapshot() const;

  Canonical canonicalLifted(uint64_t value) const;
  Canonical canonicalBrightened(uint64_t value) const;
  /// The value `canonical` is in each run (a Stack value has none: 0).
  uint64_t liftedValue(const Canonical &canonical) const;
  uint64_t brightenedValue(const Canonical &canonical) const;

  /// The first place where the lifted snapshot and the brightened one differ, as a sentence
  /// ("heap byte 0x10: 0x2 (lifted) and 0x3 (brightened)"), or empty. An 8-byte word that
  /// differs in bytes but holds the same pointer in both runs' terms is the same.
  std::string firstDifference(const Snapshot &lifted, const Snapshot &brightened) const;

private:
  ScratchMemory() = default;
  /// In the image, but not in its first page: null and small numbers stay numbers.
  bool inImage(uint64_t address) const {
    return address >= imageLow_ && address < imageHigh_ && address >= 4096;
  }
  std::string differenceIn(const char *what, const std::vector<uint8_t> &lifted,
                           const std::vector<uint8_t> &brightened, const uint8_t *liftedBefore,
                           const uint8_t *brightenedBefore) const;

  uint8_t *heap_ = nullptr;
  uint8_t *stackMapping_ = nullptr; ///< a guard page, then the stack
  uint8_t *stack_ = nullptr;
  uint8_t *imageMapping_ = nullptr;
  uint64_t imageLow_ = 0, imageHigh_ = 0, imageMappingBytes_ = 0;
  uint8_t *liftedMemory_ = nullptr;
  std::vector<uint8_t> pristineImage_;
  std::vector<std::pair<uint64_t, uint64_t>> writableRanges_; ///< offset, size in the mapping
  std::vector<CarriedSection> carried_;
  std::vector<std::vector<uint8_t>> pristineCarried_;
  uint64_t nativeStackLow_ = 0, nativeStackHigh_ = 0;
  std::vector<std::pair<uint64_t, uint64_t>> importAddresses_;
  std::vector<std::pair<uint64_t, uint64_t>> codeAddresses_; ///< host, entry; by host
  std::vector<std::pair<uint64_t, uint64_t>> sharedObjects_; ///< image address, size
};

} // namespace hoist::check
