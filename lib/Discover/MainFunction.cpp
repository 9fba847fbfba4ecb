#include "Discover/MainFunction.h"

#include "Discover/FunctionExplorer.h"

#include <array>

namespace hoist {
namespace {

constexpr unsigned MaxInstructions = 64;   // _start is about 15; musl's _start_c about 10


/// The registers of __libc_start_main's arguments that name code: main, and an older glibc's
/// init and fini (`__libc_start_main(main, argc, argv, init, fini, rtld_fini, stack_end)`).
constexpr ZydisRegister ArgumentRegisters[] = {ZYDIS_REGISTER_RDI, ZYDIS_REGISTER_RCX,
                                               ZYDIS_REGISTER_R8};
constexpr unsigned ArgumentCount = std::size(ArgumentRegisters);
using ArgumentValues = std::array<std::optional<uint64_t>, ArgumentCount>;

ZydisRegister enclosing(ZydisRegister reg) {
  return ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, reg);
}

/// The constant an instruction writes to all of a 64-bit register (or its 32-bit part, which
/// zeroes the rest), if it writes one.
std::optional<uint64_t> constantWritten(const Instr &instr) {
  const Operand &dst = instr.op(0), &src = instr.op(1);
  if (!dst.isReg() || ZydisRegisterGetWidth(ZYDIS_MACHINE_MODE_LONG_64, dst.reg) < 32)
    return std::nullopt;
  bool narrow = ZydisRegisterGetWidth(ZYDIS_MACHINE_MODE_LONG_64, dst.reg) == 32;
  if (instr.mnemonic == ZYDIS_MNEMONIC_LEA && src.base == ZYDIS_REGISTER_RIP &&
      src.index == ZYDIS_REGISTER_NONE)
    return instr.next() + static_cast<uint64_t>(src.disp);
  if (instr.mnemonic == ZYDIS_MNEMONIC_MOV && src.isImm())
    return narrow ? (src.imm & 0xffffffffu) : src.imm;
  return std::nullopt;
}

/// Updates what the argument registers hold after `instr`.
void track(const Instr &instr, ArgumentValues &values) {
  std::optional<uint64_t> constant = constantWritten(instr);
  for (unsigned i = 0; i < instr.operandCount; ++i) {
    const Operand &op = instr.op(i);
    if (!op.isReg() || !op.written)
      continue;
    for (unsigned a = 0; a < ArgumentCount; ++a)
      if (enclosing(op.reg) == ArgumentRegisters[a])
        values[a] = i == 0 ? constant : std::nullopt;
  }
}

struct StartArguments {
  uint64_t main;
  std::optional<uint64_t> init, fini;
};

/// Follows the straight-line code at `start`; `depth` direct calls may be followed into.
std::optional<StartArguments> argumentsPassedFrom(const Image &image, InstructionCache &cache,
                                                  uint64_t start, unsigned depth) {
  ArgumentValues values;
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
          import && import->name == "__libc_start_main") {
        auto code = [&](const std::optional<uint64_t> &value) {
          return value && image.isExecutable(*value) ? value : std::nullopt;
        };
        if (!code(values[0]))
          return std::nullopt;
        return StartArguments{*values[0], code(values[1]), code(values[2])};
      }
      if (throughSlot)
        return std::nullopt;
      uint64_t target = *reached;
      if (isJump)
        address = target;   // a tail call: its code is the rest of this path
      else if (depth > 0)
        if (std::optional<StartArguments> found =
                argumentsPassedFrom(image, cache, target, depth - 1))
          return found;
      if (isCall) {
        values = {};   // a call may change them
        address = instr.next();
      }
      continue;
    }
    if (instr.category == ZYDIS_CATEGORY_RET || instr.category == ZYDIS_CATEGORY_COND_BR ||
        instr.mnemonic == ZYDIS_MNEMONIC_HLT)
      return std::nullopt;
    track(instr, values);
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
  std::optional<StartArguments> passed = argumentsPassedFrom(image, cache, image.entryPoint(), 1);
  if (!passed)
    return std::nullopt;
  MainFunction main{passed->main, false,
                    "the first argument the entry point passes to __libc_start_main"};
  main.startFilesInit = passed->init;
  main.startFilesFini = passed->fini;
  return main;
}

} // namespace hoist
