#include "Brighten/LaneFlow.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include <map>
#include <vector>

namespace hoist {
namespace {

/// Bytes per element of a vector (or the whole of a scalar); 0 when not whole bytes.
unsigned elementBytes(const llvm::Type *type) {
  unsigned bits = type->getScalarSizeInBits();
  return bits % 8 ? 0 : bits / 8;
}

unsigned elementCount(const llvm::Type *type) {
  if (const auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type))
    return vector->getNumElements();
  return 1;
}

ByteSet range(unsigned first, unsigned count) {
  ByteSet bytes;
  for (unsigned i = first; i < first + count && i < MaxTrackedBytes; ++i)
    bytes.set(i);
  return bytes;
}

/// Whether the bytes of `type` can be tracked.
bool trackable(const llvm::Type *type) {
  unsigned bytes = elementBytes(type);
  return bytes && bytes * elementCount(type) <= MaxTrackedBytes &&
         (type->isIntOrIntVectorTy() || type->isFPOrFPVectorTy());
}

} // namespace

std::optional<ByteSet> bytesRead(const llvm::Argument &argument, llvm::DemandedBits &demanded,
                                 llvm::function_ref<bool(const llvm::User *)> ignored) {
  if (!trackable(argument.getType()))
    return std::nullopt;
  std::map<const llvm::Value *, ByteSet> carried;
  std::vector<const llvm::Value *> worklist = {&argument};
  carried[&argument] = range(0, elementBytes(argument.getType()) * elementCount(argument.getType()));
  ByteSet read;
  auto flowInto = [&](const llvm::Value *user, ByteSet bytes) {
    ByteSet &known = carried[user];
    if ((known | bytes) != known) {
      known |= bytes;
      worklist.push_back(user);
    }
  };
  while (!worklist.empty()) {
    const llvm::Value *value = worklist.back();
    worklist.pop_back();
    ByteSet bytes = carried[value];
    for (const llvm::Use &use : value->uses()) {
      const llvm::User *user = use.getUser();
      if (ignored(user))
        continue;
      unsigned size = elementBytes(value->getType());
      bool followed = llvm::isa<llvm::InsertElementInst>(user) ||
                      llvm::isa<llvm::ShuffleVectorInst>(user) ||
                      llvm::isa<llvm::BitCastInst>(user) || llvm::isa<llvm::PHINode>(user) ||
                      llvm::isa<llvm::SelectInst>(user);
      if (followed && !trackable(user->getType()))
        return std::nullopt;
      if (const auto *insert = llvm::dyn_cast<llvm::InsertElementInst>(user)) {
        const auto *index = llvm::dyn_cast<llvm::ConstantInt>(insert->getOperand(2));
        if (!index || use.getOperandNo() == 2)
          return std::nullopt;
        unsigned width = elementBytes(insert->getType());
        unsigned lane = index->getZExtValue();
        if (use.getOperandNo() == 0)   // the vector: its other lanes pass through
          flowInto(user, bytes & ~range(lane * width, width));
        else if (bytes.any())          // the scalar: lands in the lane
          flowInto(user, range(lane * width, width));
      } else if (const auto *extract = llvm::dyn_cast<llvm::ExtractElementInst>(user)) {
        const auto *index = llvm::dyn_cast<llvm::ConstantInt>(extract->getIndexOperand());
        if (!index || use.getOperandNo() != 0)
          return std::nullopt;
        unsigned lane = index->getZExtValue();
        ByteSet laneBytes = (bytes & range(lane * size, size)) >> (lane * size);
        if (user->getType()->isIntegerTy())
          flowInto(user, laneBytes);   // its users say which bits count
        else
          read |= laneBytes;
      } else if (llvm::isa<llvm::BitCastInst>(user) || llvm::isa<llvm::PHINode>(user) ||
                 (llvm::isa<llvm::SelectInst>(user) && use.getOperandNo() != 0)) {
        flowInto(user, bytes);
      } else if (const auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(user)) {
        unsigned inputs = elementCount(value->getType());
        ByteSet out;
        for (unsigned lane = 0; lane < shuffle->getShuffleMask().size(); ++lane) {
          int source = shuffle->getMaskValue(lane);
          if (source < 0 || unsigned(source) / inputs != use.getOperandNo())
            continue;
          ByteSet sourceBytes = bytes & range((source % inputs) * size, size);
          for (unsigned b = 0; b < size; ++b)
            if (sourceBytes.test((source % inputs) * size + b))
              out.set(lane * size + b);
        }
        flowInto(user, out);
      } else if (value->getType()->isIntegerTy()) {
        // A scalar: what counts is the bits its users keep (cvtss2sd reads a float as i64 bit
        // fields).
        unsigned kept = size;
        if (user->getType()->isIntegerTy())
          kept = (demanded.getDemandedBits(&const_cast<llvm::Use &>(use)).getActiveBits() + 7) / 8;
        read |= bytes & range(0, kept);
      } else if (value->getType()->isIntOrIntVectorTy() && llvm::isa<llvm::BinaryOperator>(user)) {
        // Lane-wise integer arithmetic: the bytes of each lane the result depends on (an
        // arithmetic shift that keeps only the top byte of each lane after an unpack).
        llvm::APInt laneBits = demanded.getDemandedBits(&const_cast<llvm::Use &>(use));
        ByteSet laneBytes;
        for (unsigned b = 0; b < size; ++b)
          if (!laneBits.extractBits(8, b * 8).isZero())
            laneBytes.set(b);
        ByteSet demandedBytes;
        for (unsigned lane = 0; lane < elementCount(value->getType()); ++lane)
          demandedBytes |= laneBytes << (lane * size);
        read |= bytes & demandedBytes;
      } else {
        return std::nullopt;
      }
    }
  }
  return read;
}

} // namespace hoist
