#include "Brighten/LaneFlow.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include <array>
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

/// Per byte position of a value, the argument's bytes that can be there.
using Origins = std::array<ByteSet, MaxTrackedBytes>;

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
  // Per value, per byte position: the argument's bytes that can be there. A shuffle that
  // broadcasts lane 0 (shufps $0) then reads lane 0's bytes in every lane, not every byte.
  std::map<const llvm::Value *, Origins> carried;
  std::vector<const llvm::Value *> worklist = {&argument};
  Origins &start = carried[&argument];
  for (unsigned i = 0; i < elementBytes(argument.getType()) * elementCount(argument.getType()); ++i)
    start[i].set(i);
  ByteSet read;
  auto flowInto = [&](const llvm::Value *user, const Origins &origins) {
    Origins &known = carried[user];
    bool changed = false;
    for (unsigned i = 0; i < MaxTrackedBytes; ++i)
      if ((known[i] | origins[i]) != known[i]) {
        known[i] |= origins[i];
        changed = true;
      }
    if (changed)
      worklist.push_back(user);
  };
  // The origins at positions [first, first + count), moved to [to, to + count).
  auto moved = [](const Origins &origins, unsigned first, unsigned count, unsigned to) {
    Origins out;
    for (unsigned b = 0; b < count && first + b < MaxTrackedBytes && to + b < MaxTrackedBytes; ++b)
      out[to + b] = origins[first + b];
    return out;
  };
  auto readAt = [&](const Origins &origins, unsigned first, unsigned count) {
    for (unsigned b = first; b < first + count && b < MaxTrackedBytes; ++b)
      read |= origins[b];
  };
  while (!worklist.empty()) {
    const llvm::Value *value = worklist.back();
    worklist.pop_back();
    Origins origins = carried[value];
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
        if (use.getOperandNo() == 0) {   // the vector: its other lanes pass through
          Origins through = origins;
          for (unsigned b = 0; b < width && lane * width + b < MaxTrackedBytes; ++b)
            through[lane * width + b].reset();
          flowInto(user, through);
        } else {                         // the scalar: lands in the lane
          flowInto(user, moved(origins, 0, width, lane * width));
        }
      } else if (const auto *extract = llvm::dyn_cast<llvm::ExtractElementInst>(user)) {
        const auto *index = llvm::dyn_cast<llvm::ConstantInt>(extract->getIndexOperand());
        if (!index || use.getOperandNo() != 0)
          return std::nullopt;
        unsigned lane = index->getZExtValue();
        if (user->getType()->isIntegerTy())
          flowInto(user, moved(origins, lane * size, size, 0));   // its users say which bits count
        else
          readAt(origins, lane * size, size);
      } else if (llvm::isa<llvm::BitCastInst>(user) || llvm::isa<llvm::PHINode>(user) ||
                 (llvm::isa<llvm::SelectInst>(user) && use.getOperandNo() != 0)) {
        flowInto(user, origins);
      } else if (const auto *shuffle = llvm::dyn_cast<llvm::ShuffleVectorInst>(user)) {
        unsigned inputs = elementCount(value->getType());
        Origins out;
        for (unsigned lane = 0; lane < shuffle->getShuffleMask().size(); ++lane) {
          int source = shuffle->getMaskValue(lane);
          if (source < 0 || unsigned(source) / inputs != use.getOperandNo())
            continue;
          for (unsigned b = 0; b < size; ++b)
            if ((source % inputs) * size + b < MaxTrackedBytes && lane * size + b < MaxTrackedBytes)
              out[lane * size + b] = origins[(source % inputs) * size + b];
        }
        flowInto(user, out);
      } else if (value->getType()->isIntegerTy()) {
        // A scalar: what counts is the bits its users keep (cvtss2sd reads a float as i64 bit
        // fields).
        unsigned kept = size;
        if (user->getType()->isIntegerTy())
          kept = (demanded.getDemandedBits(&const_cast<llvm::Use &>(use)).getActiveBits() + 7) / 8;
        readAt(origins, 0, kept);
      } else if (value->getType()->isIntOrIntVectorTy() && llvm::isa<llvm::BinaryOperator>(user)) {
        // Lane-wise integer arithmetic: the bytes of each lane the result depends on (an
        // arithmetic shift that keeps only the top byte of each lane after an unpack).
        llvm::APInt laneBits = demanded.getDemandedBits(&const_cast<llvm::Use &>(use));
        for (unsigned lane = 0; lane < elementCount(value->getType()); ++lane)
          for (unsigned b = 0; b < size; ++b)
            if (!laneBits.extractBits(8, b * 8).isZero())
              readAt(origins, lane * size + b, 1);
      } else if (value->getType()->isFPOrFPVectorTy() &&
                 (llvm::isa<llvm::BinaryOperator>(user) || llvm::isa<llvm::UnaryOperator>(user) ||
                  llvm::isa<llvm::FCmpInst>(user))) {
        // Lane-wise floating-point arithmetic reads every lane of its operand.
        readAt(origins, 0, size * elementCount(value->getType()));
      } else {
        return std::nullopt;
      }
    }
  }
  return read;
}

} // namespace hoist
