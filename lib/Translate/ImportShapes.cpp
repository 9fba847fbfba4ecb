#include "Translate/ImportShapes.h"

#include "Prototypes/LibraryPrototype.h"

namespace hoist {
namespace {

constexpr unsigned IntegerRegisters = 6; // rdi, rsi, rdx, rcx, r8, r9
constexpr unsigned VectorRegisters = 8;  // xmm0..xmm7

/// The registers a prototype's arguments take, or its result, when all of them fit in
/// registers an import call passes whole: general registers and XMM registers (a 32-byte
/// vector does not fit; long double and large structs go through memory).
struct RegisterUse {
  unsigned integer = 0, vector = 0;
  bool fits = true;

  void add(const AbiType &type) {
    switch (type.abiClass) {
    case AbiClass::Void:
      return;
    case AbiClass::Integer:
      integer += type.size > 8 ? 2 : 1;
      return;
    case AbiClass::Pointer:
      ++integer;
      return;
    case AbiClass::Float:
    case AbiClass::Double:
      ++vector;
      return;
    case AbiClass::Vector:
      if (type.size > 16)
        fits = false;
      ++vector;
      return;
    case AbiClass::StructInRegisters:
      for (Eightbyte half : {type.low, type.high}) {
        if (half == Eightbyte::Integer)
          ++integer;
        else if (half == Eightbyte::Sse)
          ++vector;
      }
      return;
    default:
      fits = false;
      return;
    }
  }
};

} // namespace

ImportCallShape importCallShape(llvm::StringRef name) {
  const LibraryPrototype *prototype = findLibraryPrototype(name);
  if (!prototype || !prototype->isFunction())
    return {};
  if (prototype->isVariadic())
    return {ImportShape::Variadic, IntegerRegisters};
  RegisterUse arguments, result;
  for (const AbiType &parameter : prototype->parameters())
    arguments.add(parameter);
  result.add(prototype->result);
  // A struct that no longer fits in the registers left goes to the stack whole (ABI 3.2.3).
  if (!arguments.fits || !result.fits || arguments.integer > IntegerRegisters ||
      arguments.vector > VectorRegisters)
    return {};
  bool usesVectors = arguments.vector || result.vector;
  return {usesVectors ? ImportShape::Float : ImportShape::Integer, arguments.integer};
}

bool importMayCallBack(llvm::StringRef name) {
  const LibraryPrototype *prototype = findLibraryPrototype(name);
  return !prototype || !prototype->isFunction() || prototype->mayCallBack();
}

} // namespace hoist
