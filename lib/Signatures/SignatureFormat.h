// The signature database's file format, written by the generator (GenerateSignatures.cpp, at
// build time from Debian's static libraries) and read by SignatureDatabase.cpp. Little-endian,
// fixed-size records after a header, so that loading is a few bounds checks and no parsing.
#pragma once

#include <cstdint>

namespace hoist::signatures {

inline constexpr char FileMagic[8] = {'H', 'O', 'S', 'I', 'G', '0', '0', '1'};
inline constexpr uint32_t NoString = UINT32_MAX;

struct FileHeader {
  char magic[8];
  uint32_t libraries;     ///< LibraryRecord count
  uint32_t functions;     ///< FunctionRecord count
  uint32_t names;         ///< NameRecord count
  uint32_t relocations;   ///< RelocationRecord count
  uint32_t stringBytes;   ///< NUL-terminated strings, referred to by offset
  uint32_t codeBytes;     ///< every function's bytes, masked bytes zero
};

/// A library the signatures come from: "glibc 2.36-9+deb12u13 libc.a".
struct LibraryRecord {
  uint32_t label;   ///< string offset
};

enum FunctionFlags : uint32_t {
  /// An ELF IFUNC (STT_GNU_IFUNC): the bytes are its resolver's, which returns the chosen
  /// implementation instead of doing the function's work.
  IndirectFunction = 1u << 0,
  /// Every name of the function is local to its object (a `static` function): no other
  /// library exports it, so it can be named but never called in place of its code.
  LocalOnly = 1u << 1,
};

/// One function of an archive member: its symbol's bytes, and every name that member gives the
/// same address (aliases such as `__libc_malloc` and `malloc`).
struct FunctionRecord {
  uint32_t firstName, nameCount;               ///< into the NameRecords
  uint32_t library;                            ///< into the LibraryRecords
  uint32_t code, length;                       ///< into the code bytes
  uint32_t firstRelocation, relocationCount;   ///< into the RelocationRecords
  uint32_t flags;                              ///< FunctionFlags
};

struct NameRecord {
  uint32_t name;   ///< string offset
};

/// What the linker may write into the function's bytes: the bytes [maskBegin, maskEnd) of the
/// function differ from program to program. A call or jmp rel32 to a named symbol also
/// records the name (`callee`), so that a callee Hoist recognized can confirm or refute it.
struct RelocationRecord {
  uint32_t maskBegin, maskEnd;
  uint32_t field;      ///< offset of the rel32 of a call/jmp, for `callee`
  int32_t addend;      ///< the relocation's addend (target = field address + rel32 - addend)
  uint32_t callee;     ///< string offset of the called symbol, or NoString
};

} // namespace hoist::signatures
