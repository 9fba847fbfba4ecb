// Error helpers for the boundaries of Hoist: every failure carries what and where.
#pragma once

#include <llvm/Support/Error.h>
#include <llvm/Support/FormatVariadic.h>

#include <cstdint>
#include <string>

namespace hoist {

/// "0x401a2c": the one spelling of an address in every message Hoist prints.
std::string formatAddress(uint64_t address);

/// An llvm::Error with a formatted message, e.g. makeError("{0}: no section at {1}", path, addr).
template <typename... Ts>
llvm::Error makeError(const char *format, Ts &&...values) {
  return llvm::make_error<llvm::StringError>(
      llvm::formatv(format, std::forward<Ts>(values)...).str(), llvm::inconvertibleErrorCode());
}

} // namespace hoist
