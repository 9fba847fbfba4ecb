// Memory for concolic lifting: forwards the values of concrete memory to the loads that read
// them (constants out of the image, the stack's spills, return addresses a push or call left)
// while every store is still emitted, so that a load it cannot answer reads the same memory.
//
// Policy: the stack (relative to the entry RSP) and the image's read-only memory are concrete;
// so is writable image memory the path stored itself, or that no store of the program reaches
// (UnwrittenData.h); --symbolic-memory ranges and import slots are not. Any other writable
// image byte is symbolic at entry: the program may have set it before the call, unless a
// --concrete-memory range assumes the file's bytes (reads under that assumption are logged, and
// the branches they decide say so). A store through a symbolic address is assumed not to
// write concrete memory, except that one computed from the stack pointer forgets the stack,
// and one from a constant inside a writable section forgets that section.
#pragma once

#include "Arch/LiftContext.h"
#include "Deobf/Concolic/AbstractValue.h"
#include "Deobf/Concolic/DeobfuscateOptions.h"
#include "Deobf/Concolic/JoinMerging.h"
#include "Deobf/Concolic/MemoryState.h"
#include "Deobf/Concolic/UnwrittenData.h"
#include "hoist/Image.h"

#include <llvm/IR/DataLayout.h>

#include <array>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace hoist {

/// Memory a callee writes: where (a pointer it got) and how many bytes, if known.
struct WrittenObject {
  AbstractValue where;
  std::optional<uint64_t> bytes;
};

/// A load of writable image memory that the path did not store: read as the file's bytes
/// only because --concrete-memory assumes them (`assumed`), or left symbolic since the program
/// may write them (`why`: UnwrittenData's reason).
struct WritableDataRead {
  uint64_t address = 0;
  uint64_t size = 0;
  bool assumed = false;
  std::string why;
};

/// "4 bytes of .bss at 0x404028 read as symbolic: written at ...; --concrete-memory
/// 0x404028-0x40402c assumes the file's bytes", or for an assumed read, what was assumed.
std::string describeDataRead(const Image &image, const WritableDataRead &read);
/// "0x404028 (.bss), ...": the addresses a path read under --concrete-memory's assumption.
std::string describeAssumptions(const Image &image, const std::set<uint64_t> &addresses);

class ConcreteMemory final : public MemoryObserver {
public:
  ConcreteMemory(const Image &image, const DeobfuscateOptions &options,
                 const llvm::DataLayout &layout, UnwrittenData &unwritten);

  void setEntryStack(llvm::Value *entryStack) { entryStack_ = entryStack; }
  llvm::Value *entryStack() const { return entryStack_; }
  /// The values the tracked (callee-saved) registers have at entry, null for the others:
  /// stored, they stay known across block instances (they dominate every block).
  void setEntryRegisters(const std::array<llvm::Value *, 16> &values) { entryRegisters_ = values; }
  MemoryState &state() { return state_; }
  /// The instruction being lifted (named by the diagnostics of what it stores).
  void setInstructionAddress(uint64_t address) { instructionAddress_ = address; }
  /// Where the known bytes loads consult and stores write are logged (the block instance
  /// being lifted; JoinMerging.h), or null.
  void setAccessLog(MemoryAccesses *log) { log_ = log; }

  llvm::Value *knownLoad(llvm::IRBuilderBase &ir, llvm::Value *address, llvm::Type *type) override;
  void stored(llvm::Value *address, llvm::Value *value) override;

  /// Code outside the lifted function ran (an import, an outlined callee) with `registers`
  /// (those it reads: the argument registers of a call): what it can reach through them, and
  /// through stack pointers stored in memory, is no longer known: from each pointer to the
  /// end of its frame (objects do not straddle the frames of inlined calls). With
  /// `mayWriteGlobals`, so is every writable section (the callee is code of the image).
  void externalCall(llvm::ArrayRef<AbstractValue> registers, bool mayWriteGlobals);
  /// A call of a library function whose writes are known (ImportEffects.h): only `writes`
  /// become unknown (an object of unknown size: to the end of its frame, or its section).
  void knownCall(llvm::ArrayRef<WrittenObject> writes);
  /// The 8 bytes at stack `offset` as a value (a stack argument), if the path knows them.
  AbstractValue stackQuad(int64_t offset) const;
  /// Forgets `size` stack bytes from `offset` (what a callee owns: Win64's home area, stack
  /// arguments).
  void forgetStack(int64_t offset, uint64_t size);
  /// The end of the frame that holds stack offset `from`: the next return address of an
  /// inlined call above it, or the top of the stack (objects do not straddle frames).
  int64_t frameEnd(int64_t from) const;
  /// Stack ranges [begin, end) code outside the function may read (what pointers it got
  /// reach, stack arguments), over the whole lift: stores there are never dead.
  const std::vector<std::pair<int64_t, int64_t>> &externalReads() const { return externalReads_; }
  void noteExternalRead(int64_t begin, int64_t end) { externalReads_.emplace_back(begin, end); }
  /// A hash of the constants loads read from the image (addresses and values) since the
  /// last reset: which bytecode a VM's handler fetched (LoopGeneralization.h).
  uint64_t imageReads() const { return imageReads_; }
  void resetImageReads() { imageReads_ = 0; }
  /// `size` bytes at `address` were written by something the lifter does not see.
  void clobber(llvm::Value *address, unsigned size);
  void clobber(const AbstractValue &where, unsigned size);

  /// The byte at a concrete absolute address as the path knows it (image bytes included;
  /// writable ones only where proved unwritten or assumed by --concrete-memory).
  MemoryByte absoluteByte(const MemoryState &state, uint64_t address) const;
  /// The reads of writable data since the last call that the path did not store (assumed or
  /// left symbolic), for the diagnostics of the instruction that made them.
  std::vector<WritableDataRead> takeWritableDataReads() { return std::exchange(writableReads_, {}); }
  /// Stores at constant addresses in writable data whose object the proof had found
  /// unwritten (code its sweep missed): true once any was seen; the lift must start again.
  bool proofContradicted() const { return proofContradicted_; }
  /// Drops absolute bytes equal to what the image holds, so that equal memory compares equal.
  void normalize(MemoryState &state) const;

private:
  bool concreteAbsolute(uint64_t address, unsigned size) const;
  /// A load whose address is one of a few constants (a jump table indexed by a flattened
  /// dispatcher's `cond ? A : B`): a select over what each holds, when each is known bytes.
  llvm::Value *loadAtFewAddresses(llvm::IRBuilderBase &ir, llvm::Value *address, llvm::Type *type);
  enum class Initial { File, Assumed, Symbolic };
  /// What the byte at `address` holds when the function starts, as far as the lift may say:
  /// the file's byte, the file's byte by the user's assumption, or unknown (`why`).
  Initial initialByte(uint64_t address, std::string *why = nullptr) const;
  /// Logs the read of [address, address + size) of writable data the path did not store.
  void noteWritableRead(uint64_t address, uint64_t size);
  void clobberSection(const Section &section);
  /// Forgets the stack object at `from`, which a callee may write: up to the end of its frame.
  void forgetObjectAt(int64_t from);
  std::vector<MemoryByte> bytesOf(llvm::Value *value, unsigned size) const;

  const Image &image_;
  const DeobfuscateOptions &options_;
  const llvm::DataLayout &layout_;
  llvm::Value *entryStack_ = nullptr;
  std::array<llvm::Value *, 16> entryRegisters_{};
  std::vector<std::pair<int64_t, int64_t>> externalReads_;
  uint64_t imageReads_ = 0;
  MemoryState state_;
  MemoryAccesses *log_ = nullptr;
  std::vector<AddressRange> importSlots_;
  UnwrittenData &unwritten_;
  std::vector<WritableDataRead> writableReads_;
  bool proofContradicted_ = false;
  uint64_t instructionAddress_ = 0;
};

} // namespace hoist
