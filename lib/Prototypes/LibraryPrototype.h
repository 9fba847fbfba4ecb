// The prototypes of the C library functions and data objects a program imports, generated at
// build time from the system headers (generate_library_prototypes.py over LibraryHeaders.h;
// docs/PROTOTYPES.md). This is the one source of truth for how an import is called, whether
// it returns, and whether it may call back into the program.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <cstdint>

namespace hoist {

/// A C type reduced to how the System V x86-64 ABI passes it (ABI 3.2.3).
enum class AbiClass : uint8_t {
  Void,
  Integer,           ///< bool, char, short, int, long, enums, __int128: general registers
  Pointer,           ///< a general register
  Float,             ///< the low 32 bits of an xmm register
  Double,            ///< the low 64 bits of an xmm register
  LongDouble,        ///< x87: in memory as an argument, st0 as a result
  ComplexLongDouble, ///< in memory as an argument, st0 and st1 as a result
  Vector,            ///< __m128, _Float128: a whole xmm register
  StructInRegisters, ///< a struct, union or complex of up to 16 bytes: see the eightbytes
  StructInMemory,    ///< a larger or unaligned aggregate: on the stack, or returned via rdi
  Aggregate,         ///< an array (data objects only)
};

/// The register class of one eightbyte of a StructInRegisters.
enum class Eightbyte : uint8_t { None, Integer, Sse };

struct AbiType {
  AbiClass abiClass = AbiClass::Void;
  uint16_t size = 0; ///< bytes
  Eightbyte low = Eightbyte::None, high = Eightbyte::None;
  bool pointsToConst = false; ///< a Pointer whose pointee is const-qualified

  bool isFloatingPoint() const {
    return abiClass == AbiClass::Float || abiClass == AbiClass::Double;
  }
  friend bool operator==(const AbiType &, const AbiType &) = default;
};

namespace PrototypeFlag {
enum : uint8_t {
  Variadic = 1 << 0, ///< `...`: a call passes more than the parameters, and sets al
  NoReturn = 1 << 1, ///< __attribute__((noreturn)) or _Noreturn
  NoThrow = 1 << 2,  ///< glibc's __THROW: no exception leaves it
  Leaf = 1 << 3,     ///< __leaf__: it never calls back into the program
  Data = 1 << 4,     ///< an extern object (stdout, optind), not a function
  /// It is given code of the program: a function pointer, or a struct holding one (by
  /// value or through a pointer): qsort's comparator, zlib's allocator in a z_stream.
  TakesCode = 1 << 5,
};
} // namespace PrototypeFlag

struct LibraryPrototype {
  const char *name;
  AbiType result; ///< for a data object, the object's own type
  const AbiType *firstParameter;
  uint8_t parameterCount;
  uint8_t flags;

  llvm::ArrayRef<AbiType> parameters() const { return {firstParameter, parameterCount}; }
  bool isFunction() const { return !(flags & PrototypeFlag::Data); }
  bool isVariadic() const { return flags & PrototypeFlag::Variadic; }
  bool isNoReturn() const { return flags & PrototypeFlag::NoReturn; }
  bool isNoThrow() const { return flags & PrototypeFlag::NoThrow; }
  bool isLeaf() const { return flags & PrototypeFlag::Leaf; }
  bool takesCode() const { return flags & PrototypeFlag::TakesCode; }
  /// Whether a call may run code of the program before it returns: anything not a leaf, a
  /// leaf given code (glibc calls atexit a leaf), and a function that never returns (exit
  /// runs the program's exit handlers, though glibc calls it a leaf).
  bool mayCallBack() const { return !isLeaf() || takesCode() || isNoReturn(); }
};

/// The prototype the headers declare for the imported symbol `name`, or null when no header
/// declares it. A symbol version is ignored: `memcpy@GLIBC_2.14` and `memcpy@@GLIBC_2.14`
/// find `memcpy`. Only imports may be looked up: a function the binary defines is its own,
/// whatever its name.
const LibraryPrototype *findLibraryPrototype(llvm::StringRef name);

/// Every entry, sorted by name.
llvm::ArrayRef<LibraryPrototype> allLibraryPrototypes();

} // namespace hoist
