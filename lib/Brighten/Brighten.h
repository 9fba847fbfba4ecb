// Brightening (docs/BRIGHTEN.md): lifted functions `void @X(ptr %state, ptr %mem)` become
// functions of a calling convention, `i32 @add3(i32, i32, i32)`, whose body is the lifted code
// inlined against a local State and stack that the optimizer then dissolves.
#pragma once

#include "Brighten/CallingConvention.h"
#include "Brighten/Signature.h"
#include "hoist/Optimize.h"

#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hoist {

class DiagnosticSink;
class Image;

/// What brightening's fixpoints run besides their own passes, before them in each round:
/// `hoist lift --deobfuscate` plugs in the deobfuscation passes (deobfuscationRoundPasses,
/// lib/Deobf/Passes/DeobfPasses.h), a library user its own (LiftRequest::roundPasses).
struct FixpointExtras {
  std::vector<AddPasses> roundPasses = {};
};

/// What the brightened module keeps of the lifted one.
struct BrightenOutput {
  /// Every lifted function a brightened one replaces stays, internal, as `<name>.lifted`
  /// (`lift --keep-lifted`: the two forms side by side). Without it only those a declined
  /// function still calls stay.
  bool keepLifted = false;
  /// A position-dependent executable brightened whole: its data is carried at the addresses it
  /// has in the binary (each section global in a section of its own, `.hoist.data.<address>`,
  /// which the link places there: scripts/brighten-program.sh), so a word the linker stored
  /// there means the same whether it is an address or a number, and the reads and hand-offs
  /// that decline otherwise (ImageData.h, PointerHolders.h) brighten. No effect on a
  /// position-independent image, whose relocations tell.
  bool dataAtOriginalAddresses = false;
  /// Functions to decline whatever the slice says, by entry, with the reason: those whose
  /// brightened form the differential check found computing something else (lib/Check).
  std::map<uint64_t, std::string> declineAt = {};
  /// A test hook (`--brighten-check-inject-fault`): the brightened function of this name
  /// returns a wrong value (integer results xor 1, floating-point ones plus 1), so that the
  /// tests can show the differential check declines a wrong brightening.
  std::string injectFaultInto = {};
};

/// A brightened function as the differential check calls it.
struct BrightenedFunction {
  uint64_t address = 0;   ///< the entry of the machine code
  std::string name;       ///< of the brightened function in the module
  Signature signature;
};

struct BrightenReport {
  std::vector<std::string> brightened;   ///< names of the new functions
  unsigned declined = 0;                 ///< each has a "brighten-declined" warning
  std::vector<BrightenedFunction> functions;   ///< the brightened ones, with their signatures
};

/// Brightens every lifted function of `module` that the slice accepts, replacing it by the
/// brightened function (named after the image's symbol at its address, else like the lifted
/// one; it carries the lifted one's `!hoist.entry`). The lifted function stays, renamed
/// `<name>.lifted`, only while a declined caller calls it (or `output` asks to keep it). A declined function stays lifted,
/// with a warning naming it and the reason. The module is left optimized by the -O1 fixpoint.
llvm::Expected<BrightenReport> brightenModule(llvm::Module &module, const Image &image,
                                              CallingConvention convention,
                                              DiagnosticSink &diagnostics,
                                              const FixpointExtras &extras = {},
                                              BrightenOutput output = {});

} // namespace hoist
