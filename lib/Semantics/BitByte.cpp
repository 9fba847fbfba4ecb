// Semantics of bit tests and scans, counts, bswap (Zydis categories BITBYTE).
#include "Semantics/Semantics.h"

namespace hoist {

void registerBitByte(SemanticTable &table) {}

} // namespace hoist
