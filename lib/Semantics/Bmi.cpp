// Semantics of BMI1, BMI2 and ADX (andn ... shrx, adcx, adox).
#include "Semantics/Semantics.h"

namespace hoist {

void registerBmi(SemanticTable &table) {}

} // namespace hoist
