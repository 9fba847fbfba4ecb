// Semantics of rotates and double shifts (Zydis categories ROTATE and SHIFT's shld/shrd).
#include "Semantics/Semantics.h"

namespace hoist {

void registerRotate(SemanticTable &table) {}

} // namespace hoist
