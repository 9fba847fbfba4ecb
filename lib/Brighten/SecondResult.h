// Whether RDX, XMM1, or the other of RAX and XMM0 is a second result of a brightened function:
// SysV returns a 9-16 byte integer struct or an __int128 in RAX:RDX, a struct of two SSE
// eightbytes (two doubles, `double complex`, four floats) in XMM0:XMM1, and a struct of an
// integer and an SSE eightbyte (`{long, double}`) in RAX and XMM0. The signature probe says
// whether the function leaves in the register a value of its own at a return; compilers use
// these registers as scratch as often as for a second result, so that alone would widen most functions (`add3` would
// return `{i64, i64}`). What decides is who may read it:
//   - an export under a name the prototype table knows: its C result type;
//   - another export: anyone, so RDX is returned;
//   - any other function: only the binary's own code calls it, through the direct calls and
//     jumps CallSites finds. RDX is a result if the code after one of those calls may read it
//     before writing it (a call there reads it when its callee may: an import taking three
//     integer arguments or more, or code that reads RDX first), or returns with it unchanged
//     to a caller that may, or the site is a jump (a tail call) of a function whose callers
//     may (which function holds a site, a symbol or an .eh_frame FDE tells). Where none of
//     those reads it, a function whose address the program may take (TakenAddresses.h) still
//     returns both RAX and XMM0 where it writes both: its callers through a pointer are beyond
//     the scan (the brightener decides that, secondResult says No).
//     A brightened caller that computes with RDX after a call of a function returning
//     RAX alone is declined (ClobberedRdx.h), so a wrong answer here is never silent there.
#pragma once

#include "hoist/Image.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

namespace hoist {

/// The direct calls and jumps of an image's executable sections, by target: every rel32
/// `call`/`jmp`/`jcc` and rel8 `jmp`/`jcc` whose bytes occur, found by a byte scan. A site
/// inside another instruction's bytes may be found too; it only makes RDX a result more often.
class CallSites {
public:
  explicit CallSites(const Image &image);

  struct Site {
    uint64_t address;
    uint8_t length;
    bool isCall;
  };
  const std::vector<Site> &at(uint64_t target) const;

  /// The function whose code holds `address`, as a function symbol or an .eh_frame FDE
  /// gives it: its entry and end; nullopt where neither does, or the FDE covers a part of a
  /// function moved away from its entry (gcc's `.cold`).
  std::optional<std::pair<uint64_t, uint64_t>> functionAround(uint64_t address) const;

private:
  std::map<uint64_t, std::vector<Site>> sites_;
  /// By start: the end, or 0 for a moved part.
  std::map<uint64_t, uint64_t> functions_;
};

/// RAX is the second register beside a floating-point first result, XMM0 beside an integer one
/// or as the only result where it may be SSE scratch (Signature.h, returnsXmm0IfRead).
enum class SecondRegister { Rdx, Xmm1, Rax, Xmm0 };

enum class SecondResult {
  No,        ///< nobody reads the register after it returns: not a result
  IfWritten, ///< a result where the function leaves a value of its own in the register
  Required,  ///< the prototype returns a result in the register (an eightbyte of its class)
};

/// What decides for `which` of the function at `entry` whose own instructions are at
/// `ownInstructions` (a jump from one of them is not a caller's). Where the function does not
/// leave a value of its own in the register (`written` false), only a prototype can make it a
/// result, so the callers are not scanned and `ownInstructions` may be empty.
std::variant<SecondResult, std::string> secondResult(const Image &image, const CallSites &sites,
                                                     uint64_t entry,
                                                     const std::set<uint64_t> &ownInstructions,
                                                     SecondRegister which, bool written);

/// How many low bits of RAX (8, 16, 32 or 64) the image's own code may read after a direct call
/// of the function at `entry` before writing it: 8 where every caller only tests or extends AL
/// (a `bool` result: `call f; test %al,%al`), which lets the function leave the caller's
/// garbage above a byte it set (`sete %r14b; mov %r14d, %eax; ret`). 64 where another caller
/// may exist: an export, a function whose address occurs anywhere in the image (a call through
/// a pointer), a tail call or a return right after the call (the caller's callers would read
/// it), or code the scan cannot follow.
unsigned raxBitsReadByCallers(const Image &image, const CallSites &sites, uint64_t entry,
                              const std::set<uint64_t> &ownInstructions);

} // namespace hoist
