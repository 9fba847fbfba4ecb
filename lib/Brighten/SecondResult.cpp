#include "Brighten/SecondResult.h"

#include "Decode/Decoder.h"
#include "Discover/UnwindTables.h"
#include "Decode/Instr.h"
#include "Prototypes/LibraryPrototype.h"

#include <llvm/Support/FormatVariadic.h>

#include <cstring>
#include <functional>

namespace hoist {

CallSites::CallSites(const Image &image) {
  for (const Symbol &symbol : image.symbols())
    if (symbol.kind == Symbol::Kind::Function && symbol.size)
      functions_.emplace(symbol.address, symbol.address + symbol.size);
  if (llvm::Expected<std::vector<CodeRange>> ranges = ehFrameFunctionRanges(image))
    for (const CodeRange &range : *ranges)
      functions_.emplace(range.start, range.continuesFrame ? 0 : range.start + range.size);
  else
    llvm::consumeError(ranges.takeError());
  for (const Section &section : image.sections()) {
    if (!section.executable || !section.mapped)
      continue;
    llvm::ArrayRef<uint8_t> bytes = image.bytesAt(section.address);
    bytes = bytes.take_front(std::min<uint64_t>(bytes.size(), section.size));
    auto add = [&](size_t offset, size_t length, int64_t displacement, bool isCall) {
      uint64_t site = section.address + offset;
      sites_[site + length + displacement].push_back({site, uint8_t(length), isCall});
    };
    auto rel32 = [&](size_t at) {
      int32_t value;
      std::memcpy(&value, bytes.data() + at, 4);
      return int64_t(value);
    };
    for (size_t i = 0; i < bytes.size(); ++i) {
      uint8_t byte = bytes[i];
      if ((byte == 0xe8 || byte == 0xe9) && i + 5 <= bytes.size())
        add(i, 5, rel32(i + 1), byte == 0xe8);
      else if (byte == 0x0f && i + 6 <= bytes.size() && (bytes[i + 1] & 0xf0) == 0x80)
        add(i, 6, rel32(i + 2), false);
      if ((byte == 0xeb || (byte & 0xf0) == 0x70) && i + 2 <= bytes.size())
        add(i, 2, int8_t(bytes[i + 1]), false);
    }
  }
}

const std::vector<CallSites::Site> &CallSites::at(uint64_t target) const {
  static const std::vector<Site> none;
  auto found = sites_.find(target);
  return found == sites_.end() ? none : found->second;
}

std::optional<std::pair<uint64_t, uint64_t>> CallSites::functionAround(uint64_t address) const {
  auto after = functions_.upper_bound(address);
  if (after == functions_.begin())
    return std::nullopt;
  auto [start, end] = *std::prev(after);
  if (address >= end)
    return std::nullopt;
  return std::make_pair(start, end);
}

namespace {

constexpr unsigned InstructionBudget = 256;

/// The register whose uses a scan follows: all of RDX or RAX, or all of ZMM1 or ZMM0.
ZydisRegister widest(SecondRegister which) {
  switch (which) {
  case SecondRegister::Rdx: return ZYDIS_REGISTER_RDX;
  case SecondRegister::Xmm1: return ZYDIS_REGISTER_ZMM1;
  case SecondRegister::Rax: return ZYDIS_REGISTER_RAX;
  case SecondRegister::Xmm0: return ZYDIS_REGISTER_ZMM0;
  }
  llvm_unreachable("a second register");
}

bool isInteger(SecondRegister which) {
  return which == SecondRegister::Rdx || which == SecondRegister::Rax;
}

bool isPartOf(ZydisRegister reg, ZydisRegister whole) {
  return reg != ZYDIS_REGISTER_NONE &&
         ZydisRegisterGetLargestEnclosing(ZYDIS_MACHINE_MODE_LONG_64, reg) == whole;
}

enum class Use { None, Read, Written };

/// A register xored or subtracted from itself: written (zero), not read.
bool clearsItself(const Instr &instr) {
  switch (instr.mnemonic) {
  case ZYDIS_MNEMONIC_XOR: case ZYDIS_MNEMONIC_SUB: case ZYDIS_MNEMONIC_PXOR:
  case ZYDIS_MNEMONIC_XORPS: case ZYDIS_MNEMONIC_XORPD: case ZYDIS_MNEMONIC_VPXOR:
  case ZYDIS_MNEMONIC_VPXORD: case ZYDIS_MNEMONIC_VPXORQ: case ZYDIS_MNEMONIC_VXORPS:
  case ZYDIS_MNEMONIC_VXORPD:
    return instr.explicitCount >= 2 && instr.op(0).isReg() &&
           instr.op(instr.explicitCount - 1).isReg() &&
           instr.op(0).reg == instr.op(instr.explicitCount - 1).reg;
  default:
    return false;
  }
}

/// What `instr` does with the register: reads it (any part, as a value or in an address),
/// writes the part a result is in (32 or 64 bits of RDX or RAX, the low 64 or more of XMM1 or
/// XMM0) without reading it, or neither. A register xored or subtracted from itself is
/// written, not read.
Use useOf(const Instr &instr, ZydisRegister whole) {
  bool written = false, selfCleared = clearsItself(instr);
  unsigned fullBits = whole == ZYDIS_REGISTER_RDX || whole == ZYDIS_REGISTER_RAX ? 32 : 64;
  for (unsigned i = 0; i < instr.operandCount; ++i) {
    const Operand &operand = instr.op(i);
    if (operand.isMem() && (isPartOf(operand.base, whole) || isPartOf(operand.index, whole)))
      return Use::Read;
    if (!operand.isReg() || !isPartOf(operand.reg, whole))
      continue;
    if (operand.read && !selfCleared)
      return Use::Read;
    written |= operand.written && operand.bits >= fullBits;
  }
  return written ? Use::Written : Use::None;
}

enum class Step { Next, EndPath, Abort };

/// Follows every path from `start` within InstructionBudget instructions, each with its own
/// `state` (copied where it branches), calling `visit(instr, state)` on each instruction but
/// nops: Next goes on (through a direct jump, a branch both ways), EndPath ends the path,
/// Abort the walk.
/// An indirect jump, an instruction that does not decode and the budget spent abort too.
/// Whether the walk ended without aborting.
template <typename State, typename Visit>
bool walkPaths(const Image &image, uint64_t start, State state, Visit visit) {
  Decoder decoder;
  std::vector<std::pair<uint64_t, State>> pending = {{start, state}};
  std::set<uint64_t> seen;
  unsigned budget = InstructionBudget;
  while (!pending.empty()) {
    auto [address, path] = pending.back();
    pending.pop_back();
    while (seen.insert(address).second) {
      if (budget-- == 0)
        return false;
      llvm::ArrayRef<uint8_t> bytes = image.bytesAt(address);
      Instr instr;
      if (bytes.empty() || !image.isExecutable(address) ||
          decoder.decode(bytes.data(), bytes.size(), address, instr) != DecodeStatus::Ok)
        return false;
      // Padding: a multi-byte nop's memory operand (`nopw 0x0(%rax,%rax,1)`) is never read.
      if (instr.mnemonic == ZYDIS_MNEMONIC_NOP) {
        address = instr.next();
        continue;
      }
      Step step = visit(instr, path);
      if (step == Step::Abort)
        return false;
      if (step == Step::EndPath)
        break;
      bool branch = instr.category == ZYDIS_CATEGORY_UNCOND_BR ||
                    instr.category == ZYDIS_CATEGORY_COND_BR;
      if (!branch) {
        address = instr.next();
        continue;
      }
      const Operand &target = instr.op(0);
      if (!target.isImm() || !target.immRelative)
        return false;   // an indirect jump: to code not seen
      pending.push_back({instr.next() + target.imm, path});
      if (instr.category == ZYDIS_CATEGORY_UNCOND_BR)
        break;
      address = instr.next();
    }
  }
  return true;
}

enum class After { Unread, Returned, Read };

After scanAfter(const Image &image, uint64_t start, SecondRegister which, unsigned depth);

/// Whether a direct call of `target` may read the register as it finds it (Read): an import
/// whose prototype takes it (a third integer argument for RDX, a first or second
/// floating-point one for XMM0 or XMM1; a variadic one unless AL, set to `vectors` before the
/// call, says how many XMM registers it passes; RAX only as a variadic one's AL), or code that
/// may read it before writing it. Returned: code that returns with it unchanged; Unread: the
/// callee clobbers it.
After calleeUse(const Image &image, uint64_t target, SecondRegister which,
                std::optional<uint64_t> vectors, unsigned depth) {
  if (const Import *import = image.importAtStub(target)) {
    const LibraryPrototype *prototype = findImportPrototype(import->name, import->library);
    if (!prototype)
      return After::Read;
    unsigned passed = 0;
    for (const AbiType &parameter : prototype->parameters())
      passed += isInteger(which)
                    ? parameter.abiClass == AbiClass::Integer ||
                          parameter.abiClass == AbiClass::Pointer
                    : parameter.isFloatingPoint() || parameter.abiClass == AbiClass::Vector;
    // The argument position of the register among its class's: RDI RSI RDX, XMM0 XMM1.
    unsigned position = which == SecondRegister::Rdx ? 3 : which == SecondRegister::Xmm1 ? 2 : 1;
    bool reads = which == SecondRegister::Rax ? prototype->isVariadic()
                 : isInteger(which)
                     ? passed >= position || prototype->isVariadic()
                     : passed >= position ||
                           (prototype->isVariadic() && (!vectors || *vectors >= position));
    return reads ? After::Read : After::Unread;
  }
  return depth >= 2 ? After::Read : scanAfter(image, target, which, depth + 1);
}

/// Whether the code from `start` on may read the register before writing it on some path
/// within InstructionBudget instructions (an indirect jump or call, or the budget spent,
/// count as a read), or else returns with it unchanged, handing it on to its own caller.
After scanAfter(const Image &image, uint64_t start, SecondRegister which, unsigned depth) {
  ZydisRegister whole = widest(which);
  bool returned = false;
  // Each path carries what it last put in AL (`xor %eax, %eax`, `mov $1, %eax`).
  bool complete = walkPaths(
      image, start, std::optional<uint64_t>(),
      [&](const Instr &instr, std::optional<uint64_t> &al) {
        if (instr.category == ZYDIS_CATEGORY_CALL) {
          const Operand &target = instr.op(0);
          After callee = target.isImm() && target.immRelative
                             ? calleeUse(image, instr.next() + target.imm, which, al, depth)
                             : After::Read;
          if (callee == After::Read)
            return Step::Abort;
          // The callee clobbers the register, or returns it unchanged.
          return callee == After::Unread ? Step::EndPath : Step::Next;
        }
        Use use = useOf(instr, whole);
        if (use == Use::Read)
          return Step::Abort;
        if (instr.category == ZYDIS_CATEGORY_RET) {
          returned = true;
          return Step::EndPath;
        }
        if (use == Use::Written)
          return Step::EndPath;
        if (instr.explicitCount >= 1 && instr.op(0).isReg() && instr.op(0).written &&
            isPartOf(instr.op(0).reg, ZYDIS_REGISTER_RAX)) {
          bool cleared = instr.mnemonic == ZYDIS_MNEMONIC_XOR && instr.op(1).isReg() &&
                         instr.op(1).reg == instr.op(0).reg;
          bool moved = instr.mnemonic == ZYDIS_MNEMONIC_MOV && instr.op(1).isImm();
          al = cleared ? std::optional<uint64_t>(0)
               : moved ? std::optional<uint64_t>(instr.op(1).imm & 0xff)
                       : std::nullopt;
        }
        return Step::Next;
      });
  if (!complete)
    return After::Read;
  return returned ? After::Returned : After::Unread;
}

/// secondResult for the function at `entry`, with `isOwn` telling its own instructions, and
/// the functions in `open` (being decided further up) taken as not reading the register: their
/// callers decide. Without `scanCallers`, only a prototype decides (No otherwise).
std::variant<SecondResult, std::string>
decide(const Image &image, const CallSites &sites, uint64_t entry, SecondRegister which,
       const std::function<bool(uint64_t)> &isOwn, std::set<uint64_t> &open,
       bool scanCallers = true) {
  for (const Export &exported : image.exports()) {
    if (exported.address != entry)
      continue;
    const LibraryPrototype *prototype = findLibraryPrototype(exported.name);
    if (!prototype || !prototype->isFunction())
      return SecondResult::IfWritten;   // callers anywhere, type unknown
    const AbiType &result = prototype->result;
    bool twoEightbytes = result.abiClass == AbiClass::StructInRegisters && result.size > 8;
    bool pair = false;
    switch (which) {
    case SecondRegister::Rdx:
      pair = (twoEightbytes && result.low == Eightbyte::Integer &&
              result.high == Eightbyte::Integer) ||
             (result.abiClass == AbiClass::Integer && result.size > 8);
      break;
    case SecondRegister::Xmm1:
      pair = twoEightbytes && result.low == Eightbyte::Sse && result.high == Eightbyte::Sse;
      break;
    // RAX or XMM0 beside the other: a struct of one eightbyte of each, or a result the
    // prototype puts in that register alone, where the probe took the other for the result
    // (returning both is right for either).
    case SecondRegister::Rax:
      pair = (twoEightbytes && result.low != result.high) ||
             (!twoEightbytes && (result.abiClass == AbiClass::Integer ||
                                 result.abiClass == AbiClass::Pointer));
      break;
    case SecondRegister::Xmm0:
      pair = (twoEightbytes && result.low != result.high) ||
             (!twoEightbytes && (result.isFloatingPoint() || result.abiClass == AbiClass::Vector ||
                                 (result.abiClass == AbiClass::StructInRegisters &&
                                  result.low == Eightbyte::Sse)));
      break;
    }
    return pair ? SecondResult::Required : SecondResult::No;
  }
  if (!scanCallers)
    return SecondResult::No;
  open.insert(entry);
  for (const CallSites::Site &site : sites.at(entry)) {
    if (isOwn(site.address))
      continue;
    if (site.isCall) {
      After after = scanAfter(image, site.address + site.length, which, 0);
      if (after == After::Unread)
        continue;
      if (after == After::Read)
        return SecondResult::IfWritten;
    }
    // A tail call, or a return right after the call: the register goes on to the caller of
    // the function around the site, whose own callers decide.
    std::optional<std::pair<uint64_t, uint64_t>> around = sites.functionAround(site.address);
    if (!around)
      return SecondResult::IfWritten;
    auto [begin, end] = *around;
    if (open.count(begin))
      continue;
    std::variant<SecondResult, std::string> outer = decide(
        image, sites, begin, which,
        [begin, end](uint64_t address) { return begin <= address && address < end; }, open);
    if (!std::holds_alternative<SecondResult>(outer) ||
        std::get<SecondResult>(outer) != SecondResult::No)
      return SecondResult::IfWritten;
  }
  return SecondResult::No;
}

/// The most low bits of RAX the code from `start` reads before writing it on any path within
/// InstructionBudget instructions (a call, AL at most); 64 at a return, an indirect jump, or
/// past the budget.
unsigned raxBitsReadAfter(const Image &image, uint64_t start) {
  unsigned bits = 0;
  bool complete = walkPaths(image, start, 0, [&](const Instr &instr, int &) {
    if (instr.category == ZYDIS_CATEGORY_RET)
      return Step::Abort;
    // What the instruction reads of RAX (AH counts as 16 bits), and whether it then writes
    // all the bits a reader after it could see (32 or 64).
    bool writesWhole = false, selfCleared = clearsItself(instr);
    for (unsigned i = 0; i < instr.operandCount; ++i) {
      const Operand &operand = instr.op(i);
      if (operand.isMem() && (isPartOf(operand.base, ZYDIS_REGISTER_RAX) ||
                              isPartOf(operand.index, ZYDIS_REGISTER_RAX)))
        return Step::Abort;
      if (!operand.isReg() || !isPartOf(operand.reg, ZYDIS_REGISTER_RAX))
        continue;
      if (operand.read && !selfCleared)
        bits = std::max(bits, operand.reg == ZYDIS_REGISTER_AH ? 16u : unsigned(operand.bits));
      writesWhole |= operand.written && operand.bits >= 32;
    }
    if (bits >= 64)
      return Step::Abort;
    if (instr.category == ZYDIS_CATEGORY_CALL) {
      // A library function with a prototype takes nothing in RAX but a variadic one's AL,
      // and so does any function brightened code may call (a function reading more of RAX
      // at entry is declined, and so are its callers); each leaves its result there.
      const Operand &target = instr.op(0);
      const Import *import = target.isImm() && target.immRelative
                                 ? image.importAtStub(instr.next() + target.imm)
                                 : nullptr;
      const LibraryPrototype *prototype =
          import ? findImportPrototype(import->name, import->library) : nullptr;
      if (!prototype || prototype->isVariadic())
        bits = std::max(bits, 8u);
      return Step::EndPath;
    }
    return writesWhole ? Step::EndPath : Step::Next;
  });
  return complete ? bits : 64;
}

/// Whether the 8 bytes of `address` (or its low 4, for a 32-bit absolute reference), or a
/// RIP-relative displacement reaching it, occur anywhere in the image's sections: the
/// function may be called through a pointer.
bool mayBeAddressTaken(const Image &image, const CallSites &sites, uint64_t address) {
  // The direct calls and jumps of it reach it by a displacement too.
  std::set<uint64_t> direct;
  for (const CallSites::Site &site : sites.at(address))
    if (site.length >= 5)
      direct.insert(site.address + site.length - 4);
  for (const Section &section : image.sections()) {
    if (!section.mapped)
      continue;
    llvm::ArrayRef<uint8_t> bytes = image.bytesAt(section.address);
    bytes = bytes.take_front(std::min<uint64_t>(bytes.size(), section.size));
    for (size_t i = 0; i + 4 <= bytes.size(); ++i) {
      uint32_t low;
      std::memcpy(&low, bytes.data() + i, 4);
      if (low == uint32_t(address))
        return true;
      // A RIP-relative operand's disp32 follows a ModRM byte of mod 00, r/m 101.
      if (!section.executable || direct.count(section.address + i) || i == 0 ||
          (bytes[i - 1] & 0xc7) != 0x05)
        continue;
      // disp32 of an instruction that may end 0, 1, 2 or 4 bytes (its immediate) later.
      int64_t displacement = int32_t(low);
      for (uint64_t tail : {0, 1, 2, 4})
        if (section.address + i + 4 + tail + displacement == address)
          return true;
    }
  }
  return false;
}

} // namespace

unsigned raxBitsReadByCallers(const Image &image, const CallSites &sites, uint64_t entry,
                              const std::set<uint64_t> &ownInstructions) {
  for (const Export &exported : image.exports())
    if (exported.address == entry)
      return 64;
  unsigned bits = 0;
  for (const CallSites::Site &site : sites.at(entry)) {
    if (ownInstructions.count(site.address))
      continue;
    if (!site.isCall)
      return 64;   // a jump: a tail call, whose callers read what it returns
    bits = std::max(bits, raxBitsReadAfter(image, site.address + site.length));
    if (bits >= 64)
      return 64;
  }
  // Checked last: the scan of every section is the dearest part.
  if (mayBeAddressTaken(image, sites, entry))
    return 64;
  return std::max(bits, 8u);
}

std::variant<SecondResult, std::string> secondResult(const Image &image, const CallSites &sites,
                                                     uint64_t entry,
                                                     const std::set<uint64_t> &ownInstructions,
                                                     SecondRegister which, bool written) {
  std::set<uint64_t> open;
  return decide(
      image, sites, entry, which,
      [&ownInstructions](uint64_t address) { return ownInstructions.count(address) > 0; },
      open, written);
}

} // namespace hoist
