// Semantics of one-operand multiply and divide (mul, imul r/m, div, idiv).
#include "Semantics/Semantics.h"

namespace hoist {

void registerMulDiv(SemanticTable &table) {}

} // namespace hoist
