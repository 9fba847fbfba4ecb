// Which implementation an IFUNC's resolver picks on this host, found without running any code
// of the input: only when the input is a shared object this very process has loaded (the C
// library hoist runs on, libm, libstdc++), whose dynamic linker already ran the resolver.
#pragma once

#include "hoist/Image.h"

#include <optional>

namespace hoist {

/// The address in `image` of the implementation the host's dynamic linker chose for the IFUNC
/// `ifunc` (a symbol of `image` with Symbol::indirect), when `image` is a file this process
/// has mapped (same device and inode) and the implementation lies in it; nullopt otherwise.
/// Host-specific by nature: another CPU may get another implementation.
std::optional<uint64_t> hostIfuncImplementation(const Image &image, const Symbol &ifunc);

} // namespace hoist
