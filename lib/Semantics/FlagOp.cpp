// Semantics of flag instructions (Zydis category FLAGOP): clc stc cmc cld std lahf sahf pushf popf.
#include "Semantics/Semantics.h"

namespace hoist {

void registerFlagOp(SemanticTable &table) {}

} // namespace hoist
