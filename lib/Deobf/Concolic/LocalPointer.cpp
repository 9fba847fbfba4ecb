#include "Deobf/Concolic/LocalPointer.h"

#include "Arch/Registers.h"

#include <Zydis/Zydis.h>

#include <set>

namespace hoist {
namespace {

// System V's argument registers, Win64's (rcx, rdx, r8, r9 among them) and syscall's r10.
constexpr ZydisRegister ArgumentRegisters[] = {ZYDIS_REGISTER_RDI, ZYDIS_REGISTER_RSI,
                                               ZYDIS_REGISTER_RDX, ZYDIS_REGISTER_RCX,
                                               ZYDIS_REGISTER_R8,  ZYDIS_REGISTER_R9,
                                               ZYDIS_REGISTER_R10};
constexpr ZydisRegister ReturnRegisters[] = {ZYDIS_REGISTER_RAX, ZYDIS_REGISTER_RDX};

ZydisRegister wide(ZydisRegister reg) {
  return reg == ZYDIS_REGISTER_NONE
             ? reg
             : ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, reg);
}

bool flagsOrIp(ZydisRegister reg) {
  ZydisRegisterClass kind = ZydisRegisterGetClass(reg);
  return kind == ZYDIS_REGCLASS_FLAGS || kind == ZYDIS_REGCLASS_IP;
}

class Taint {
public:
  Taint(const FunctionCode &function, size_t taker, std::pair<uint64_t, uint64_t> object)
      : function_(function), taker_(taker), object_(object) {}

  std::optional<std::string> run(const std::function<bool(uint64_t, uint64_t)> &targetsStayIn) {
    const std::vector<Instr> &code = function_.instructions;
    for (const Instr &instr : code)
      if (instr.mnemonic == ZYDIS_MNEMONIC_POP && instr.op(0).isReg())
        restored_.insert(wide(instr.op(0).reg));
    // Registers only ever join the set: at most one pass per register until it is stable.
    for (size_t before = ~size_t(0); before != tainted_.size();) {
      before = tainted_.size();
      for (size_t i = 0; i < code.size(); ++i)
        if (std::optional<std::string> why = step(code[i], i == taker_))
          return why;
    }
    const Instr *call = nullptr, *ret = nullptr;
    for (const Instr &instr : code) {
      if (instr.mnemonic == ZYDIS_MNEMONIC_RET)
        ret = ret ? ret : &instr;
      else if (!call && leaves(instr, targetsStayIn))
        call = &instr;
    }
    for (ZydisRegister reg : ArgumentRegisters)
      if (call && tainted_.count(reg))
        return "it may be passed in " + std::string(ZydisRegisterGetString(reg)) + " at " +
               call->describe();
    for (ZydisRegister reg : ReturnRegisters)
      if (ret && tainted_.count(reg))
        return "it may be returned in " + std::string(ZydisRegisterGetString(reg));
    return std::nullopt;
  }

private:
  bool through(const Operand &operand) const {
    return operand.isMem() &&
           (tainted_.count(wide(operand.base)) || tainted_.count(wide(operand.index)));
  }

  /// Follows the pointer through one instruction: the registers it goes to, or why it escapes.
  std::optional<std::string> step(const Instr &instr, bool seed) {
    bool valueRead = seed;
    for (unsigned i = 0; i < instr.operandCount; ++i) {
      const Operand &operand = instr.op(i);
      if (through(operand)) {
        if (operand.isAgen)
          valueRead = true;
        else if (operand.written)
          return "it is stored through at " + instr.describe();
      } else if (operand.isReg() && operand.read && tainted_.count(wide(operand.reg))) {
        valueRead = true;
      }
    }
    if (!valueRead)
      return std::nullopt;
    switch (instr.mnemonic) {
    case ZYDIS_MNEMONIC_CMP:
    case ZYDIS_MNEMONIC_TEST:
      return std::nullopt;
    case ZYDIS_MNEMONIC_PUSH:
      // Saving a callee-saved register that the function restores: the slot is the frame's
      // own, which no code given a pointer to a local may reach (C's rule, as above).
      if (instr.op(0).isReg() && isSysVCalleeSaved(wide(instr.op(0).reg)) &&
          restored_.count(wide(instr.op(0).reg)))
        return std::nullopt;
      return "it is pushed at " + instr.describe();
    case ZYDIS_MNEMONIC_CALL:
    case ZYDIS_MNEMONIC_JMP:
      return "control goes to it at " + instr.describe();
    default:
      break;
    }
    for (unsigned i = 0; i < instr.operandCount; ++i) {
      const Operand &operand = instr.op(i);
      if (!operand.written)
        continue;
      if (operand.isMem())
        return "it is stored at " + instr.describe();
      if (!operand.isReg() || flagsOrIp(operand.reg))
        continue;
      ZydisRegister reg = wide(operand.reg);
      if (ZydisRegisterGetClass(reg) != ZYDIS_REGCLASS_GPR64 || reg == ZYDIS_REGISTER_RSP)
        return "it is moved into " + std::string(ZydisRegisterGetString(operand.reg)) +
               " at " + instr.describe();
      tainted_.insert(reg);
    }
    return std::nullopt;
  }

  /// Whether `operand` reads the object: through the pointer or at a constant address in it.
  bool fromObject(const Instr &instr, const Operand &operand) const {
    if (!operand.isMem() || operand.isAgen)
      return false;
    if (through(operand))
      return true;
    uint64_t address = static_cast<uint64_t>(operand.disp);
    if (operand.base == ZYDIS_REGISTER_RIP)
      address += instr.next();
    else if (operand.base != ZYDIS_REGISTER_NONE || operand.index != ZYDIS_REGISTER_NONE)
      return false;
    return address >= object_.first && address < object_.second;
  }

  bool inside(uint64_t address) const {
    return address >= function_.begin && address < function_.end;
  }

  /// Whether `instr` may hand control to code outside the function: a call, a syscall, a
  /// branch out, an indirect jump not known to stay.
  bool leaves(const Instr &instr,
              const std::function<bool(uint64_t, uint64_t)> &targetsStayIn) const {
    if (instr.mnemonic == ZYDIS_MNEMONIC_CALL || instr.mnemonic == ZYDIS_MNEMONIC_SYSCALL)
      return true;
    if (instr.category != ZYDIS_CATEGORY_UNCOND_BR && instr.category != ZYDIS_CATEGORY_COND_BR)
      return false;
    const Operand &target = instr.op(0);
    if (target.isImm())
      return !target.immRelative || !inside(instr.next() + target.imm);
    if (fromObject(instr, target))
      return !targetsStayIn(function_.begin, function_.end);
    if (!target.isReg())
      return true;
    // `jmp reg`: stays when every definition of reg reads a target through the pointer or
    // takes a label of the function.
    bool readThrough = false, defined = false;
    for (const Instr &other : function_.instructions) {
      for (unsigned i = 0; i < other.operandCount; ++i) {
        const Operand &operand = other.op(i);
        if (!operand.written || !operand.isReg() || wide(operand.reg) != wide(target.reg))
          continue;
        defined = true;
        const Operand &source = other.op(1);
        if (other.mnemonic == ZYDIS_MNEMONIC_MOV && fromObject(other, source))
          readThrough = true;
        else if (!(other.mnemonic == ZYDIS_MNEMONIC_LEA && source.base == ZYDIS_REGISTER_RIP &&
                   inside(other.next() + static_cast<uint64_t>(source.disp))))
          return true;
      }
    }
    return !defined || (readThrough && !targetsStayIn(function_.begin, function_.end));
  }

  const FunctionCode &function_;
  size_t taker_;
  std::pair<uint64_t, uint64_t> object_;
  std::set<ZydisRegister> tainted_;
  std::set<ZydisRegister> restored_;   ///< registers the function pops
};

} // namespace

std::optional<std::string>
localPointerEscapes(const FunctionCode &function, size_t taker,
                    std::pair<uint64_t, uint64_t> object,
                    const std::function<bool(uint64_t begin, uint64_t end)> &targetsStayIn) {
  if (!function.complete)
    return std::string("its function does not decode whole");
  return Taint(function, taker, object).run(targetsStayIn);
}

} // namespace hoist
