// What the host CPU's model decides where the manual leaves vendors and models a choice, and
// the differential harness's allowance for exactly those cases (docs/TESTING.md, "Model
// differences"). The lifter models a CPU without the choices below; a host that makes them
// (AMD's misaligned-SSE MXCSR bit, for one) must not read as a mismatch.
#pragma once

#include "CpuState.h"
#include "Decode/Instr.h"

#include <cstdint>

namespace hoist::test {

/// The host's MXCSR_MASK as fxsave stores it (0xffbf when the processor stores zero).
uint32_t hostMxcsrMask();

/// Whether the host is AMD's (cpuid's vendor "AuthenticAMD"), whose manual defines some
/// results Intel's leaves undefined (bsf/bsr with a zero source).
bool hostIsAmd();

/// Whether the host runs the AVX-512 forms: AVX512F, CD, BW, DQ and VL, enabled by the OS
/// (XCR0 bits 5..7). HOIST_SEMANTICS_NO_AVX512=1 makes a host that has them act as one
/// without, to check that such a host skips those forms and counts them as not checked.
bool hostRunsAvx512();

/// Whether the host runs the GFNI forms (gf2p8mulb, gf2p8affineqb, gf2p8affineinvqb and their
/// VEX and EVEX forms). HOIST_SEMANTICS_NO_GFNI=1 makes a host that has GFNI act as one
/// without, as HOIST_SEMANTICS_NO_AVX512 does for AVX-512.
bool hostRunsGfni();

/// What the host lacks to run `instr` natively ("AVX-512 (F, CD, BW, DQ, VL)", "GFNI"), or
/// null when it runs it. The harness skips such forms loudly.
const char *hostLacks(const Instr &instr);

/// Whether the host runs `instr` natively: false only for AVX-512 forms (Instr::isAvx512) on
/// a host without them and GFNI forms on a host without GFNI.
bool hostRunsForm(const Instr &instr);

/// HOIST_SEMANTICS_NO_IA32_EMULATION=1 makes this host act as one whose kernel runs without
/// IA32 emulation: a native `mov ds/es` of the 32-bit user code selector (0x20..0x23) that
/// loaded reads as the SIGSEGV such a kernel raises, so that the harness's skip path for it
/// (modelChoiceRule) runs on a host whose kernel loads the selector (docs/TESTING.md,
/// "Segment registers").
void actAsHostWithoutIa32Emulation(const Instr &instr, const CpuState &in,
                                   const uint8_t *nativeArena, RunResult &native);

/// Whether a state where native and lifted outcomes differ shows a model's choice: an MXCSR
/// value with a bit only this host defines (ldmxcsr, fxrstor, xrstor load it without #GP),
/// or a misaligned SHA memory operand that this host reads without #GP.
bool modelChoosesOutcome(const Instr &instr, const CpuState &in, const RunResult &native,
                         const RunResult &lifted, const uint8_t *nativeArena);
/// The same, naming the rule that decides the state; nullptr where none does.
const char *modelChoiceRule(const Instr &instr, const CpuState &in, const RunResult &native,
                            const RunResult &lifted, const uint8_t *nativeArena);
/// Why the host's model may decide more than 1% of the instruction's states, for the forms
/// where that is expected; nullptr for every other (the harness then fails such a form).
const char *whyModelChoosesOften(const Instr &instr);

/// Copies into `lifted` what the host chose where the model decides: the MXCSR_MASK field of
/// an fxsave/xsave area (`area` bytes into the arenas), if the host's mask only adds bits.
void acceptHostMxcsrMask(const uint8_t *nativeArea, uint8_t *liftedArea);

/// dpps/dppd with more than one NaN among the products: which NaN the sum propagates is the
/// adder tree's order, a model's choice. Lanes of the destination where both runs hold a NaN
/// take the native payload.
void acceptDotProductNans(const Instr &instr, const FpState &native, FpState &lifted);

} // namespace hoist::test
