// Semantics of atomic exchange and compare (Zydis category SEMAPHORE): xadd cmpxchg cmpxchg8b cmpxchg16b.
#include "Semantics/Semantics.h"

namespace hoist {

void registerSemaphore(SemanticTable &table) {}

} // namespace hoist
