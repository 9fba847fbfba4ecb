// The arguments of one differential-check trial (BrightenCheck.h), drawn at random for a
// brightened function's signature: small numbers, boundary values and pointers into the
// scratch heap for integers; ordinary, extreme and special values for floating point.
#pragma once

#include "Brighten/Signature.h"
#include "Check/ScratchMemory.h"

#include <random>
#include <string>
#include <vector>

namespace hoist::check {

struct TrialArgument {
  const Signature::Argument *parameter = nullptr;
  Canonical value;       ///< an integer or pointer: in both runs' terms
  uint64_t bits[2] = {}; ///< floating point and vectors: the register's low 128 bits
  /// Garbage above an integer's width, in the lifted run's register: the machine code of a
  /// function that takes an `int` must not read it.
  uint64_t upperGarbage = 0;
};

/// One draw of the arguments of `signature`.
std::vector<TrialArgument> drawArguments(const Signature &signature, std::mt19937_64 &random);

/// `rdi=heap+0x2000, xmm0=0x3ff0000000000000`: the arguments as a diagnostic names them.
std::string describeArguments(const std::vector<TrialArgument> &arguments);

/// The register's name: `rdi`, `xmm1`, or `stack slot 2`.
std::string parameterName(const Signature::Argument &parameter);

} // namespace hoist::check
