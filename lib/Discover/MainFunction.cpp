#include "Discover/MainFunction.h"

#include "Discover/FunctionExplorer.h"

namespace hoist {
namespace {

constexpr unsigned MaxInstructions = 64;   // _start is about 15; musl's _start_c about 10


/// The constant an instruction writes to rdi/edi, if it writes one.
std::optional<uint64_t> constantIntoRdi(const Instr &instr) {
  const Operand &dst = instr.op(0), &src = instr.op(1);
  if (!dst.isReg() || (dst.reg != ZYDIS_REGISTER_RDI && dst.reg != ZYDIS_REGISTER_EDI))
    return std::nullopt;
  if (instr.mnemonic == ZYDIS_MNEMONIC_LEA && src.base == ZYDIS_REGISTER_RIP &&
      src.index == ZYDIS_REGISTER_NONE)
    return instr.next() + static_cast<uint64_t>(src.disp);
  if (instr.mnemonic == ZYDIS_MNEMONIC_MOV && src.isImm())
    return dst.reg == ZYDIS_REGISTER_EDI ? (src.imm & 0xffffffffu) : src.imm;
  return std::nullopt;
}

bool writesRdi(const Instr &instr) {
  for (unsigned i = 0; i < instr.operandCount; ++i) {
    const Operand &op = instr.op(i);
    if (op.isReg() && op.written &&
        ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, op.reg) == ZYDIS_REGISTER_RDI)
      return true;
  }
  return false;
}

/// Follows the straight-line code at `start`; `depth` direct calls may be followed into.
std::optional<uint64_t> mainPassedFrom(const Image &image, InstructionCache &cache, uint64_t start,
                                       unsigned depth) {
  std::optional<uint64_t> rdi;
  uint64_t address = start;
  for (unsigned n = 0; n < MaxInstructions; ++n) {
    const DecodedAt *decoded = cache.at(address);
    if (!decoded || decoded->status != DecodeStatus::Ok)
      return std::nullopt;
    const Instr &instr = decoded->instr;
    bool isCall = instr.category == ZYDIS_CATEGORY_CALL;
    bool isJump = instr.mnemonic == ZYDIS_MNEMONIC_JMP;
    if (isCall || isJump) {
      bool throughSlot = false;
      std::optional<uint64_t> reached = directTarget(instr, &throughSlot);
      if (!reached)
        return std::nullopt;
      // The import reached through its slot (`call [rip+GOT]`) or its stub.
      if (const Import *import =
              throughSlot ? image.importAtSlot(*reached) : image.importAtStub(*reached);
          import && import->name == "__libc_start_main")
        return rdi && image.isExecutable(*rdi) ? rdi : std::nullopt;
      if (throughSlot)
        return std::nullopt;
      uint64_t target = *reached;
      if (isJump)
        address = target;   // a tail call: its code is the rest of this path
      else if (depth > 0)
        if (std::optional<uint64_t> found = mainPassedFrom(image, cache, target, depth - 1))
          return found;
      if (isCall) {
        rdi.reset();   // a call may change rdi
        address = instr.next();
      }
      continue;
    }
    if (instr.category == ZYDIS_CATEGORY_RET || instr.category == ZYDIS_CATEGORY_COND_BR ||
        instr.mnemonic == ZYDIS_MNEMONIC_HLT)
      return std::nullopt;
    if (std::optional<uint64_t> value = constantIntoRdi(instr))
      rdi = value;
    else if (writesRdi(instr))
      rdi.reset();
    address = instr.next();
  }
  return std::nullopt;
}

} // namespace

std::optional<MainFunction> findMainFunction(const Image &image, InstructionCache &cache) {
  if (std::optional<uint64_t> main = image.lookupSymbol("main"))
    return MainFunction{*main, true, "the symbol main"};
  if (image.format() != ImageFormat::Elf || !image.isExecutable(image.entryPoint()))
    return std::nullopt;
  if (std::optional<uint64_t> main = mainPassedFrom(image, cache, image.entryPoint(), 1))
    return MainFunction{*main, false,
                        "the first argument the entry point passes to __libc_start_main"};
  return std::nullopt;
}

} // namespace hoist
