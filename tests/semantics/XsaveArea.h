// The xsave family in the harness (SDM vol. 1, ch. 13): the standard-format image the native
// entry loads with xrstor, the requested-feature bitmap of a state, and the comparison rule
// for what the manual leaves to the processor's tracking of state components.
#pragma once

#include "CpuState.h"
#include "Decode/Instr.h"

#include <cstdint>

namespace hoist::test {

namespace xsave {
constexpr unsigned HeaderOffset = 512, XcompBvOffset = 520, AvxOffset = 576;
/// An image of the components Hoist models (x87, SSE, AVX): legacy region, header, AVX.
constexpr unsigned ModelledSize = 832;
constexpr uint64_t Modelled = 0x7, CompactedFormat = uint64_t(1) << 63;
constexpr unsigned X87 = 0, Sse = 1, Avx = 2;
} // namespace xsave

/// Bit i set when component i of `fp` is not in its initial configuration (vol. 1, 13.6):
/// 0, x87 (FCW 037FH, FSW 0, all empty, registers zero); 1, the XMM registers (zero; MXCSR is
/// not part of this); 2, the upper halves of the YMM registers (zero).
uint64_t componentsInUse(const FpState &fp);

/// The standard-format image of `fp` (xsave::ModelledSize bytes): the fxsave legacy region,
/// the header with XSTATE_BV = `xstateBv` and XCOMP_BV zero, the upper halves at 576.
void toXsave(const FpState &fp, uint64_t xstateBv, uint8_t *image);

/// The instructions that save or load a whole area, and how.
enum class AreaKind { None, Fxsave, Fxrstor, Xsave, Xsaveopt, Xsavec, Xrstor };
AreaKind areaKind(const Instr &instr);
/// 16 for the fxsave pair, 64 for the xsave family (#GP otherwise).
unsigned areaAlignment(AreaKind kind);
bool isXsaveFamily(AreaKind kind);

/// RFBM = EDX:EAX & XCR0 of this machine.
uint64_t requestedFeatures(const CpuState &in);

/// Whether Hoist's lifted code hands `instr` to the runtime (__hoist_unsupported) from `in`:
/// an xsave-family instruction whose RFBM names a component Hoist does not model.
bool leavesToRuntime(const Instr &instr, const CpuState &in);

/// For xsave, xsaveopt and xsavec that both runs completed: where the manual lets the
/// processor choose, accepts the lifted run's choice by copying the native bytes over it in
/// `lifted` (a copy of the lifted arena), and only there:
///  - XSTATE_BV[i] for i in RFBM may be 0 or 1 when component i was in its initial
///    configuration (for xsavec, SSE counts as initial only with MXCSR 1F80H too);
///  - xsaveopt and xsavec may skip a component they report as not in use: where the native
///    XSTATE_BV[i] is 0, the lifted bytes of component i may be the untouched ones or the
///    component's initial values, nothing else.
/// Anything else that differs stays different and is reported by the arena comparison.
void acceptProcessorChoices(const Instr &instr, const CpuState &in, const uint8_t *native,
                            uint8_t *lifted);

/// For xrstor that faulted in both runs: the manual lets an XRSTOR that faults after it began
/// restoring leave each element of a requested component with its old, loaded or initial
/// value (SDM vol. 1, 13.8). This CPU does so for the compacted form's MXCSR #GP, having
/// loaded or initialized x87, XMM and AVX state already; Hoist checks first and changes
/// nothing. Copies the native values of the components in RFBM over `lifted` when the fault
/// is that one (compacted form, MXCSR loaded and invalid), and only then.
void acceptPartialRestore(const Instr &instr, const CpuState &in, const uint8_t *arena,
                          const FpState &native, FpState &lifted);

} // namespace hoist::test
