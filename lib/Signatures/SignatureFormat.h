// The signature database's file format, written by the generator (GenerateSignatures.cpp, at
// build time from Debian's static libraries) and read by SignatureDatabase.cpp. Little-endian,
// fixed-size records after a header, so that loading is a few bounds checks and no parsing.
#pragma once

#include <cstdint>

namespace hoist::signatures {

inline constexpr char FileMagic[8] = {'H', 'O', 'S', 'I', 'G', '0', '0', '2'};
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
/// function differ from program to program. A PC-relative field that ends its instruction
/// (call, jmp, lea, a load: the target is the field's end plus its value) also records what it
/// reaches, so that the program's own bytes there can refute the signature: the name of a
/// function (`callee`), or the first bytes of read-only data (`data`, a string up to its NUL).
struct RelocationRecord {
  uint32_t maskBegin, maskEnd;
  uint32_t field;        ///< offset of the rel32, for `callee` and `data`
  int32_t addend;        ///< the relocation's addend
  uint32_t callee;       ///< string offset of the function reached, or NoString
  uint32_t data;         ///< offset of the expected data bytes in the code bytes
  uint32_t dataLength;   ///< 0: no data recorded
};

} // namespace hoist::signatures
