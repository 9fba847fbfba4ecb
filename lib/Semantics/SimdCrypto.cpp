#include "Semantics/Semantics.h"

namespace hoist {

void registerSimdCrypto(SemanticTable &table) { (void)table; }

} // namespace hoist
