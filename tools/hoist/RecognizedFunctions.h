// Library functions recognized by signature among the functions discovery found
// (lib/Signatures; docs/SIGNATURES.md), for `cfg` and `lift`.
#pragma once

#include "Discover/ProgramDiscovery.h"
#include "Signatures/FunctionRecognition.h"

#include <llvm/IR/Module.h>

#include <map>
#include <string>
#include <vector>

namespace hoist {

/// Every function that a signature of the built-in database matches, by entry: of those
/// discovery explored, the functions they call directly and every start the image records.
/// Only ELF images are matched: the database holds Linux libraries.
std::map<uint64_t, Recognition>
recognizeProgram(const Image &image, const std::map<uint64_t, DiscoveredFunction> &functions);

/// "memcpy"; a collision is shown as "?a|b" (the first four names and a count past four).
std::string recognizedLabel(const Recognition &recognition);

/// The recognized functions that lifted code calls by name (Image::callByName) rather than
/// lifting them, in a statically linked ELF executable (no imports): named uniquely, declared
/// by the C library's headers (the host has them), and neither an IFUNC's resolver (its
/// callers get an implementation's address from it, not the function's work) nor a `static`
/// function of the library.
std::vector<Import> callableByName(const Image &image,
                                   const std::map<uint64_t, Recognition> &recognized);

/// Marks each lifted function (found by its `!hoist.entry`) that a signature named with
/// "hoist-recognized" (its library) and "hoist-recognized-name".
void markRecognized(llvm::Module &module, const std::map<uint64_t, Recognition> &recognized);

} // namespace hoist
