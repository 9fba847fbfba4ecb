// The prototypes of the library functions and data objects a program imports, generated at
// build time from the system headers: the Linux libraries' (generate_library_prototypes.py
// over LibraryHeaders.h) and the Windows DLLs' (generate_windows_prototypes.py over
// mingw-w64's headers and import libraries; docs/PROTOTYPES.md). This is the one source of
// truth for how an import is called, whether it returns, and whether it may call back into
// the program.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <cstdint>

namespace hoist {

/// The calling convention of an entry's classes: System V x86-64 for the Linux libraries,
/// Microsoft x64 for the Windows DLLs.
enum class CallingConvention : uint8_t { SysV, Win64 };

/// A C type reduced to how the System V x86-64 ABI (3.2.3) or the Microsoft x64 convention
/// passes it. Under Win64 `long` is 4 bytes, an aggregate of 1, 2, 4 or 8 bytes is a
/// StructInRegisters with one Integer eightbyte, and other aggregates, long double and
/// __m128 arguments are ByReference.
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
  ByReference,       ///< Win64: an argument passed as a pointer to a copy in its position's
                     ///< integer register; a result returned through a hidden pointer in rcx
};

/// The register class of one eightbyte of a StructInRegisters.
enum class Eightbyte : uint8_t { None, Integer, Sse };

struct AbiType {
  AbiClass abiClass = AbiClass::Void;
  uint16_t size = 0; ///< bytes
  Eightbyte low = Eightbyte::None, high = Eightbyte::None;
  bool pointsToConst = false; ///< a Pointer whose pointee is const-qualified
  bool pointsToCode = false;  ///< a Pointer to a function (qsort's comparator)

  bool isFloatingPoint() const {
    return abiClass == AbiClass::Float || abiClass == AbiClass::Double;
  }
  friend bool operator==(const AbiType &, const AbiType &) = default;
};

namespace PrototypeFlag {
enum : uint16_t {
  Variadic = 1 << 0, ///< `...`: a call passes more than the parameters, and sets al
  NoReturn = 1 << 1, ///< __attribute__((noreturn)) or _Noreturn
  NoThrow = 1 << 2,  ///< glibc's __THROW: no exception leaves it
  Leaf = 1 << 3,     ///< __leaf__: it never calls back into the program
  Data = 1 << 4,     ///< an extern object (stdout, optind), not a function
  KnownWrites = 1 << 5, ///< its writes() are all the memory it writes: it keeps no pointer
                        ///< it is given and calls nothing back (glibc's access attributes
                        ///< and const parameters; the Windows SDK's SAL annotations)
  /// It is given code of the program: a function pointer, or a struct holding one (by
  /// value or through a pointer): qsort's comparator, zlib's allocator in a z_stream.
  TakesCode = 1 << 6,
  /// Variadic, and its last parameter is a printf format whose conversions are the variadic
  /// arguments (`format(printf, N, N+1)`, or glibc's `__format`/`__fmt` name where the header
  /// gives no attribute: `__fprintf_chk`).
  PrintfFormat = 1 << 7,
  /// The same with a scanf format: each conversion but `%*...` takes a pointer.
  ScanfFormat = 1 << 8,
  /// Variadic without a format (VariadicAnnotations.h): one int, the mode, when the last fixed
  /// parameter has O_CREAT or O_TMPFILE (open, openat).
  ModeIfCreating = 1 << 9,
  /// One int or pointer unless the last fixed parameter is a command that takes none (fcntl).
  ArgumentByCommand = 1 << 10,
  /// One int or pointer (ioctl).
  OneVariadicArgument = 1 << 11,
  /// Six longs, as many as a system call takes (syscall).
  SixLongs = 1 << 12,
  /// Pointers up to and including the first null one (execl, execlp).
  NullTerminated = 1 << 13,
  /// The same, then one more pointer (execle's environment).
  NullTerminatedThenOne = 1 << 14,
  /// Four longs (prctl's arguments after the option).
  FourLongs = 1 << 15,
};
} // namespace PrototypeFlag

/// A pointer parameter the function writes through (SAL's `_Out_`, `_Out_writes_bytes_`).
struct ParameterWrite {
  uint8_t parameter = 0;
  uint16_t bytes = 0;        ///< a fixed size (the pointee's: `_Out_ LPDWORD` writes 4), or
  int8_t sizeParameter = -1; ///< the parameter that holds the byte count
};

struct LibraryPrototype {
  const char *name;
  AbiType result; ///< for a data object, the object's own type
  const AbiType *firstParameter;
  uint8_t parameterCount;
  uint16_t flags;
  const char *library = nullptr; ///< the DLL that exports it, in lower case; null on Linux
  CallingConvention convention = CallingConvention::SysV;
  const ParameterWrite *firstWrite = nullptr;
  uint8_t writeCount = 0;

  llvm::ArrayRef<AbiType> parameters() const { return {firstParameter, parameterCount}; }
  llvm::ArrayRef<ParameterWrite> writes() const { return {firstWrite, writeCount}; }
  bool isFunction() const { return !(flags & PrototypeFlag::Data); }
  bool isVariadic() const { return flags & PrototypeFlag::Variadic; }
  bool isNoReturn() const { return flags & PrototypeFlag::NoReturn; }
  bool isNoThrow() const { return flags & PrototypeFlag::NoThrow; }
  bool isLeaf() const { return flags & PrototypeFlag::Leaf; }
  bool hasKnownWrites() const { return flags & PrototypeFlag::KnownWrites; }
  bool takesCode() const { return flags & PrototypeFlag::TakesCode; }
  bool hasPrintfFormat() const { return flags & PrototypeFlag::PrintfFormat; }
  bool hasScanfFormat() const { return flags & PrototypeFlag::ScanfFormat; }
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

/// Whether the import `name` saves its caller's registers to return a second time later
/// (setjmp, _setjmp, __sigsetjmp, sigsetjmp, savectx, getcontext: the second return comes from
/// longjmp or setcontext) or returns once in each of two processes sharing one stack (vfork).
/// The headers do not say so; compilers know these names (clang's builtins, gcc's
/// special_function_p). A symbol version is ignored.
bool returnsTwice(llvm::StringRef name);

/// The prototype of `name` as the DLL `dll` exports it (the DLL's name in any case:
/// "KERNEL32.dll"), or null when the DLL does not export it or no header declares it.
const LibraryPrototype *findWindowsPrototype(llvm::StringRef name, llvm::StringRef dll);

/// Every Windows entry, sorted by name, then DLL.
llvm::ArrayRef<LibraryPrototype> allWindowsPrototypes();

/// The prototype of an import as Image reports it: from the DLL `library` for a PE import
/// (an import by ordinal, "#<n>", has none), from the Linux libraries when `library` is
/// empty (ELF binds symbols to no library). A PE import never gets a Linux prototype, nor
/// the reverse: msvcrt's strlen and glibc's are different functions.
const LibraryPrototype *findImportPrototype(llvm::StringRef name, llvm::StringRef library);

} // namespace hoist
