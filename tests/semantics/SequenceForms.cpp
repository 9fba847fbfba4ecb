#include "SequenceForms.h"

#include "Assembler.h"
#include "CodeLayout.h"
#include "Decode/Decoder.h"
#include "StateGenerator.h"

#include <cstdio>

namespace hoist::test {
namespace {

const char *const TableForms[] = {
#define FORM(text) text,
#include "Forms.def"
};

/// The sequence tests' own forms: a memory operand whose address is built from the register
/// the instruction writes, at several widths, so that a lifter that recomputed the address
/// after the write would touch the wrong bytes.
const char *const AliasingForms[] = {
    "add rbx, qword ptr [rbx]",
    "mov eax, dword ptr [rax+0x8]",
    "movzx ecx, byte ptr [rcx+rdx]",
    "movsx rdx, word ptr [rdx+rcx*2]",
    "xadd qword ptr [rdx], rdx",
    "xadd word ptr [rsi+2], si",
    "sub word ptr [rsi+rsi*1], si",
    "xor dword ptr [rdi+rax*4], edi",
    "adc al, byte ptr [rax+1]",
    "sbb r8d, dword ptr [r8+r9*8]",
    "imul r10, qword ptr [r10-0x10]",
    "or byte ptr [rbx+3], bl",
    "xchg qword ptr [rcx], rcx",
    "xchg byte ptr [rdx+1], dh",
    "cmovs r11w, word ptr [r11+6]",
    "lea rax, [rax+rax*2+1]",
    "btc dword ptr [rdi+rdi*1], eax",
    "cmpxchg dword ptr [rcx+4], ecx",
    "movq xmm1, qword ptr [rbx+rbx*1]",
    "pinsrw xmm2, word ptr [rax+6], 3",
};

bool usesRegisterClass(const Instr &instr, bool (*bad)(ZydisRegisterClass)) {
  for (unsigned i = 0; i < instr.operandCount; ++i) {
    const Operand &operand = instr.op(i);
    if (operand.isReg() && bad(ZydisRegisterGetClass(operand.reg)))
      return true;
    if (operand.isMem())   // the segment is checked apart: every operand has one
      for (ZydisRegister reg : {operand.base, operand.index})
        if (reg != ZYDIS_REGISTER_NONE && reg != ZYDIS_REGISTER_RIP &&
            bad(ZydisRegisterGetClass(reg)))
          return true;
  }
  return false;
}

bool usesStackPointer(const Instr &instr) {
  constexpr int Rsp = 4;
  for (unsigned i = 0; i < instr.operandCount; ++i) {
    const Operand &operand = instr.op(i);
    if (operand.isReg() && gprIndex(operand.reg) == Rsp)
      return true;
    if (operand.isMem() && (gprIndex(operand.base) == Rsp || gprIndex(operand.index) == Rsp))
      return true;
  }
  return false;
}

bool isGeneralCategory(ZydisInstructionCategory category) {
  switch (category) {
  case ZYDIS_CATEGORY_BINARY:
  case ZYDIS_CATEGORY_LOGICAL:
  case ZYDIS_CATEGORY_SHIFT:
  case ZYDIS_CATEGORY_ROTATE:
  case ZYDIS_CATEGORY_BITBYTE:
  case ZYDIS_CATEGORY_DATAXFER:
  case ZYDIS_CATEGORY_CMOV:
  case ZYDIS_CATEGORY_SETCC:
  case ZYDIS_CATEGORY_FLAGOP:
  case ZYDIS_CATEGORY_CONVERT:
  case ZYDIS_CATEGORY_SEMAPHORE:
  case ZYDIS_CATEGORY_NOP:
  case ZYDIS_CATEGORY_BMI1:
  case ZYDIS_CATEGORY_BMI2:
  case ZYDIS_CATEGORY_WIDENOP:
  case ZYDIS_CATEGORY_ADOX_ADCX:
  case ZYDIS_CATEGORY_LZCNT:
  case ZYDIS_CATEGORY_MISC:   // lea, fences
    return true;
  default:
    return false;
  }
}

/// SSE through SSE4.1 in legacy encoding: the code generator of `--emit obj` targets a generic
/// x86-64, and these lift to plain IR it can select (AES, SHA and SSE4.2's string compares
/// lift to intrinsics that need the host's features).
bool isPlainSse(const Instr &instr) {
  if (instr.encoding != ZYDIS_INSTRUCTION_ENCODING_LEGACY)
    return false;
  switch (instr.isaExt) {
  case ZYDIS_ISA_EXT_SSE:
  case ZYDIS_ISA_EXT_SSE2:
  case ZYDIS_ISA_EXT_SSE3:
  case ZYDIS_ISA_EXT_SSSE3:
  case ZYDIS_ISA_EXT_SSE4:
    return true;
  default:
    return false;
  }
}

bool leftOutMnemonic(ZydisMnemonic mnemonic) {
  switch (mnemonic) {
  case ZYDIS_MNEMONIC_CLI:
  case ZYDIS_MNEMONIC_STI:
  case ZYDIS_MNEMONIC_LDMXCSR:   // a random MXCSR unmasks exceptions and rounds otherwise
  case ZYDIS_MNEMONIC_STMXCSR:   // stores the exception flags Hoist does not model
  case ZYDIS_MNEMONIC_FXSAVE:    // so do these, and the host's MXCSR_MASK (HostModel.h)
  case ZYDIS_MNEMONIC_FXSAVE64:
  case ZYDIS_MNEMONIC_FXRSTOR:
  case ZYDIS_MNEMONIC_FXRSTOR64:
  case ZYDIS_MNEMONIC_RDRAND:
  case ZYDIS_MNEMONIC_RDSEED:
  case ZYDIS_MNEMONIC_CPUID:
  case ZYDIS_MNEMONIC_CLFLUSH:
  case ZYDIS_MNEMONIC_MASKMOVDQU:
  case ZYDIS_MNEMONIC_XLAT:
  case ZYDIS_MNEMONIC_DPPS:   // which NaN the adder tree propagates is the model's (HostModel.h)
  case ZYDIS_MNEMONIC_DPPD:
  case ZYDIS_MNEMONIC_CRC32:
  case ZYDIS_MNEMONIC_UD0:
  case ZYDIS_MNEMONIC_UD1:
  case ZYDIS_MNEMONIC_UD2:
  case ZYDIS_MNEMONIC_HLT:
    return true;
  default:
    return false;
  }
}

/// Why `instr` cannot be used in a sequence, or null.
const char *whyLeftOut(const Instr &instr, const FlagEffect &flags) {
  if (leftOutMnemonic(instr.mnemonic))
    return "model-specific, system or MXCSR-changing";
  bool general = instr.isGeneralPurpose() && isGeneralCategory(instr.category);
  if (!general && !isPlainSse(instr))
    return "not a general-purpose or plain SSE instruction of a sequence's kind";
  if (usesStackPointer(instr))
    return "uses RSP";
  if (usesRegisterClass(instr, [](ZydisRegisterClass c) {
        return c == ZYDIS_REGCLASS_SEGMENT || c == ZYDIS_REGCLASS_MMX || c == ZYDIS_REGCLASS_X87 ||
               c == ZYDIS_REGCLASS_YMM || c == ZYDIS_REGCLASS_ZMM || c == ZYDIS_REGCLASS_MASK ||
               c == ZYDIS_REGCLASS_CONTROL || c == ZYDIS_REGCLASS_DEBUG ||
               c == ZYDIS_REGCLASS_IP;
      }))
    return "uses a register a sequence does not set up";
  for (unsigned i = 0; i < instr.operandCount; ++i) {
    const Operand &operand = instr.op(i);
    if (operand.isMem() && !operand.isAgen && !operand.explicitOperand)
      return "has an implicit memory operand";
    if (operand.isMem() && operand.base == ZYDIS_REGISTER_RIP)
      return "RIP-relative";   // `[rip+0x100]` means another place in a sequence
    if (operand.isMem() && operand.segment == ZYDIS_REGISTER_FS)
      return "FS-relative";
  }
  if (flags.undefinesRegister)
    return "leaves a register undefined for some inputs";
  // bsf/bsr of a zero: the destination is the vendor's (UndefinedBitByte.cpp), and the rule
  // sees only register sources; a sequence's stores put zeros in memory far more often than
  // the table's random bytes do (a 32-bit `bsf eax, [rsi]` of 0 kept RAX whole on AMD).
  if ((instr.mnemonic == ZYDIS_MNEMONIC_BSF || instr.mnemonic == ZYDIS_MNEMONIC_BSR) &&
      instr.op(1).isMem())
    return "bsf/bsr of memory: the vendor's destination for a zero";
  return nullptr;
}

bool overlapsDividend(ZydisRegister reg) {
  int index = gprIndex(reg);
  return index == 0 || index == 2;   // rax, rdx
}

FormSetup setupOf(const Instr &instr) {
  bool memory = false;
  for (unsigned i = 0; i < instr.explicitCount; ++i)
    memory |= instr.op(i).isMem() && !instr.op(i).isAgen;
  if (instr.mnemonic == ZYDIS_MNEMONIC_DIV || instr.mnemonic == ZYDIS_MNEMONIC_IDIV)
    return FormSetup::Divide;
  bool bitTest = instr.mnemonic == ZYDIS_MNEMONIC_BT || instr.mnemonic == ZYDIS_MNEMONIC_BTS ||
                 instr.mnemonic == ZYDIS_MNEMONIC_BTR || instr.mnemonic == ZYDIS_MNEMONIC_BTC;
  if (bitTest && instr.op(0).isMem() && instr.op(1).isReg())
    return FormSetup::BitOffsetMemory;
  return memory ? FormSetup::Memory : FormSetup::None;
}

/// Setups that cannot work: a divisor made from RAX or RDX (the dividend's setup overwrites
/// it), a bit offset register that also builds the address.
bool setupConflicts(const Instr &instr, FormSetup setup) {
  const Operand &first = instr.op(0);
  if (setup == FormSetup::Divide) {
    if (first.isReg())
      return overlapsDividend(first.reg) || first.reg == ZYDIS_REGISTER_AH;
    return overlapsDividend(first.base) || overlapsDividend(first.index);
  }
  if (setup == FormSetup::BitOffsetMemory) {
    int offset = gprIndex(instr.op(1).reg);
    return offset == gprIndex(first.base) || offset == gprIndex(first.index);
  }
  return false;
}

std::vector<SequenceForm> collectForms() {
  std::vector<SequenceForm> forms;
  Decoder decoder;
  unsigned considered = 0;
  auto consider = [&](const char *text) {
    ++considered;
    llvm::Expected<std::vector<uint8_t>> bytes = assemble(text);
    if (!bytes) {
      llvm::consumeError(bytes.takeError());
      return;
    }
    SequenceForm form;
    form.text = text;
    if (decoder.decode(bytes->data(), bytes->size(), layout::InstructionAddress, form.instr) !=
        DecodeStatus::Ok)
      return;
    form.flags = flagEffect(form.instr);
    if (whyLeftOut(form.instr, form.flags))
      return;
    form.setup = setupOf(form.instr);
    if (setupConflicts(form.instr, form.setup))
      return;
    form.simd = !form.instr.isGeneralPurpose();
    forms.push_back(std::move(form));
  };
  for (const char *text : TableForms)
    consider(text);
  for (const char *text : AliasingForms)
    consider(text);
  std::printf("sequences: %zu of %u forms usable\n", forms.size(), considered);
  return forms;
}

} // namespace

const std::vector<SequenceForm> &sequenceForms() {
  static const std::vector<SequenceForm> forms = collectForms();
  return forms;
}

} // namespace hoist::test
