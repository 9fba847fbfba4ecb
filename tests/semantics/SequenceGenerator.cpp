#include "SequenceGenerator.h"

#include "Assembler.h"
#include "CodeLayout.h"
#include "Decode/Decoder.h"
#include "StateGenerator.h"

#include <llvm/Support/FormatVariadic.h>

#include <algorithm>
#include <iterator>
#include <map>

namespace hoist::test {
namespace {

struct Condition {
  const char *mnemonic;
  uint32_t flags;
};
const Condition Conditions[] = {
    {"jo", FlagOF},  {"jno", FlagOF},  {"jb", FlagCF},           {"jae", FlagCF},
    {"je", FlagZF},  {"jne", FlagZF},  {"jbe", FlagCF | FlagZF}, {"ja", FlagCF | FlagZF},
    {"js", FlagSF},  {"jns", FlagSF},  {"jp", FlagPF},           {"jnp", FlagPF},
    {"jl", FlagSF | FlagOF},           {"jge", FlagSF | FlagOF},
    {"jle", FlagZF | FlagSF | FlagOF}, {"jg", FlagZF | FlagSF | FlagOF},
};

std::string registerName(ZydisRegister reg, unsigned width) {
  ZydisRegisterClass regClass = width == 32 ? ZYDIS_REGCLASS_GPR32 : ZYDIS_REGCLASS_GPR64;
  return ZydisRegisterGetString(ZydisRegisterEncode(regClass, uint8_t(gprIndex(reg))));
}

std::string hex(int64_t value) {
  return value < 0 ? llvm::formatv("-{0:x}", uint64_t(-value)).str()
                   : llvm::formatv("{0:x}", uint64_t(value)).str();
}

/// The text of a one-operand form's operand: "div byte ptr [rsi]" gives "byte ptr [rsi]".
std::string onlyOperand(const std::string &form) {
  size_t space = form.find(' ');
  return space == std::string::npos ? "" : form.substr(space + 1);
}

/// Lines that point the registers of `operand` (a memory operand of `instr`) at `address`, or
/// near it where the scale leaves no exact solution. RSP and RIP are never address registers
/// here (SequenceForms.cpp).
void pointOperandAt(const Instr &instr, const Operand &operand, uint64_t address, Random &random,
                    std::vector<std::string> &lines) {
  unsigned width = instr.addressWidth == 32 ? 32 : 64;
  int64_t sinceDisp = int64_t(address - segmentBase(operand)) - operand.disp;
  bool hasBase = operand.base != ZYDIS_REGISTER_NONE;
  bool hasIndex = operand.index != ZYDIS_REGISTER_NONE;
  int64_t scale = operand.scale ? operand.scale : 1;
  if (hasBase && hasIndex && gprIndex(operand.base) == gprIndex(operand.index)) {
    lines.push_back("mov " + registerName(operand.base, width) + ", " +
                    hex(sinceDisp / (1 + scale)));   // [rax+rax*2]
    return;
  }
  int64_t index = 0;
  if (hasIndex) {
    index = hasBase ? int64_t(random.below(8)) - 2 : sinceDisp / scale;
    lines.push_back("mov " + registerName(operand.index, width) + ", " + hex(index));
  }
  if (hasBase)
    lines.push_back("mov " + registerName(operand.base, width) + ", " +
                    hex(sinceDisp - index * scale));
}

/// The flag effect of one line the generator writes itself (not a table form).
FlagEffect effectOfLine(const std::string &line) {
  static std::map<std::string, FlagEffect> effects;
  auto known = effects.find(line);
  if (known != effects.end())
    return known->second;
  FlagEffect effect;
  effect.tested = StatusFlags;   // unusable unless it assembles
  if (llvm::Expected<std::vector<uint8_t>> bytes = assemble(line)) {
    Instr instr;
    if (Decoder().decode(bytes->data(), bytes->size(), layout::InstructionAddress, instr) ==
        DecodeStatus::Ok)
      effect = flagEffect(instr);
  } else {
    llvm::consumeError(bytes.takeError());
  }
  return effects.emplace(line, effect).first->second;
}

/// General-purpose registers by encoding (no RSP), and the names of their parts.
const char *const Names64[] = {"rax", "rcx", "rdx", "rbx", "", "rbp", "rsi", "rdi",
                               "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
const char *const Names32[] = {"eax",  "ecx",  "edx",  "ebx",  "",     "ebp",  "esi",  "edi",
                               "r8d",  "r9d",  "r10d", "r11d", "r12d", "r13d", "r14d", "r15d"};
const char *const Names16[] = {"ax",   "cx",   "dx",   "bx",   "",     "bp",   "si",   "di",
                               "r8w",  "r9w",  "r10w", "r11w", "r12w", "r13w", "r14w", "r15w"};
const char *const Names8[] = {"al",   "cl",   "dl",   "bl",   "",     "bpl",  "sil",  "dil",
                              "r8b",  "r9b",  "r10b", "r11b", "r12b", "r13b", "r14b", "r15b"};
const char *const HighNames8[] = {"ah", "ch", "dh", "bh"};

unsigned randomRegister(Random &random) {
  unsigned index;
  do
    index = unsigned(random.below(16));
  while (index == 4);   // RSP stays the stack's
  return index;
}

} // namespace

std::pair<std::string, std::string> SequenceGenerator::partialRegisterLines(Random &random,
                                                                         uint64_t window) {
  unsigned target = randomRegister(random), source = randomRegister(random);
  // A high byte (ah..bh) cannot meet a register that needs REX in one instruction.
  bool high = target < 4 && random.below(3) == 0;
  std::string narrow, sourceNarrow;
  bool byteWide = true;
  if (high) {
    narrow = HighNames8[target];
    source = unsigned(random.below(4));
    sourceNarrow = random.below(2) ? HighNames8[source] : Names8[source];
  } else if (random.below(2)) {
    narrow = Names8[target];
    sourceNarrow = Names8[source];
  } else {
    narrow = Names16[target];
    sourceNarrow = Names16[source];
    byteWide = false;
  }
  static const char *const Writes[] = {"mov", "add", "sub", "xor", "xchg", "adc", "sbb", "and"};
  // A third of the writes read memory (absolute, in the window): a byte or word load merged
  // into a register is the shape LLVM 19's selection mishandled (FreezeZeroExtensions.h).
  std::string from = sourceNarrow;
  if (random.below(3) == 0)
    from = llvm::formatv("{0} ptr [{1:x}]", byteWide ? "byte" : "word", window + random.below(8))
               .str();
  std::string write =
      std::string(Writes[random.below(std::size(Writes))]) + " " + narrow + ", " + from;
  std::string other32 = Names32[randomRegister(random)], other64 = Names64[randomRegister(random)];
  const std::string reads[] = {
      std::string("sbb ") + Names32[target] + ", 0",
      std::string("adc ") + Names64[target] + ", 0",
      std::string("add ") + Names32[target] + ", " + other32,
      std::string("sub ") + other64 + ", " + Names64[target],
      std::string("mov ") + other64 + ", " + Names64[target],
      std::string("lea ") + other32 + ", [" + Names64[target] + "+1]",
      std::string("imul ") + Names32[target] + ", " + other32,
      std::string("cmp ") + narrow + ", " + sourceNarrow,
      std::string("movzx ") + other32 + ", " + (high ? "ax" : Names16[target]),
      std::string("shr ") + Names64[target] + ", 8",
      std::string("mov ") + Names32[target] + ", " + Names32[target],
      std::string("add ") + Names32[target] + ", 0",
  };
  return {write, reads[random.below(std::size(reads))]};
}

std::vector<std::string> Sequence::lines() const {
  std::vector<std::string> out;
  for (const SequenceStep &step : steps)
    out.insert(out.end(), step.lines.begin(), step.lines.end());
  return out;
}

std::string Sequence::text() const {
  std::string out;
  for (const std::string &line : lines())
    out += (out.empty() ? "" : "; ") + line;
  return out;
}

unsigned Sequence::stepCount() const {
  unsigned count = 0;
  for (const SequenceStep &step : steps)
    count += step.kind != SequenceStep::Kind::Label;
  return count;
}

Sequence sequenceOf(const std::vector<std::string> &lines) {
  Sequence sequence;
  for (const std::string &line : lines) {
    SequenceStep step;
    step.lines = {line};
    if (!line.empty() && line.back() == ':') {
      step.kind = SequenceStep::Kind::Label;
      step.label = line.substr(0, line.size() - 1);
    }
    sequence.steps.push_back(std::move(step));
  }
  return sequence;
}

SequenceGenerator::SequenceGenerator(const std::vector<SequenceForm> &forms) {
  std::map<ZydisMnemonic, std::vector<const SequenceForm *>> general, consumers, simd;
  for (const SequenceForm &form : forms) {
    (form.simd ? simd : general)[form.instr.mnemonic].push_back(&form);
    if (form.flags.tested)
      consumers[form.instr.mnemonic].push_back(&form);
  }
  for (auto [from, to] : {std::pair{&general, &general_}, std::pair{&consumers, &consumers_},
                          std::pair{&simd, &simd_}})
    for (auto &[mnemonic, group] : *from)
      to->push_back(std::move(group));
}

const SequenceForm *SequenceGenerator::draw(const Pool &pool, Random &random) {
  const std::vector<const SequenceForm *> &group = pool[random.below(pool.size())];
  return group[random.below(group.size())];
}

void SequenceGenerator::addSetup(const SequenceForm &form, Random &random, uint64_t window,
                                 unsigned windowSize, std::vector<std::string> &lines) const {
  const Instr &instr = form.instr;
  if (form.setup == FormSetup::None)
    return;
  if (form.setup == FormSetup::BitOffsetMemory) {
    // A signed bit offset of -64..255: the access stays within 8 bytes before and 32 after.
    lines.push_back("mov " + registerName(instr.op(1).reg, 64) + ", " +
                    hex(int64_t(random.below(320)) - 64));
  }
  for (unsigned i = 0; i < instr.explicitCount; ++i) {
    const Operand &operand = instr.op(i);
    if (!operand.isMem() || operand.isAgen)
      continue;
    uint64_t address = window + random.below(windowSize);
    // 16-byte operands are aligned but one time in 16, so that the fault of a misaligned
    // movdqa or cmpxchg16b ends a sequence now and then, not most of the time.
    if (operand.bits >= 128 && random.below(16) != 0)
      address &= ~uint64_t(15);
    pointOperandAt(instr, operand, address, random, lines);
  }
  if (form.setup != FormSetup::Divide)
    return;
  const Operand &divisor = instr.op(0);
  unsigned bits = divisor.bits;
  uint64_t mask = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  bool isSigned = instr.mnemonic == ZYDIS_MNEMONIC_IDIV;
  // Signed: |divisor| >= 2 and a sign-extended dividend, so the quotient always fits.
  // Unsigned: any nonzero divisor and a high half below it.
  static const int64_t SignedDivisors[] = {2, 3, 7, 0x10, 0x7f, -2, -3, -7, -0x10, -0x80};
  static const int64_t UnsignedDivisors[] = {1, 2, 3, 7, 0x10, 0x7f, 0xff, -1, -2};
  int64_t value = isSigned ? SignedDivisors[random.below(std::size(SignedDivisors))]
                           : UnsignedDivisors[random.below(std::size(UnsignedDivisors))];
  if (!isSigned && random.below(3) == 0)
    value = int64_t((random.next() & mask & 0x7fffffff) | 1);
  std::string divisorText = onlyOperand(form.text);
  lines.push_back("mov " + divisorText + ", " + hex(bits == 8 ? int64_t(int8_t(value)) : value));
  if (isSigned) {
    lines.push_back(bits == 8 ? "cbw" : bits == 16 ? "cwd" : bits == 32 ? "cdq" : "cqo");
    return;
  }
  uint64_t unsignedDivisor = uint64_t(value) & mask;
  uint64_t high = random.below(2) ? 0 : random.below(std::min<uint64_t>(unsignedDivisor, 0x10000));
  const char *highHalf = bits == 8 ? "ah" : bits == 16 ? "dx" : "edx";
  lines.push_back(std::string("mov ") + highHalf + ", " + hex(int64_t(high)));
}

Sequence SequenceGenerator::generate(uint64_t seed) const {
  Random random(seed);
  Sequence sequence;
  unsigned steps = 5 + unsigned(random.below(26));
  // The window every memory operand points into: small, so accesses overlap.
  static const unsigned WindowSizes[] = {8, 16, 32, 64};
  unsigned windowSize = WindowSizes[random.below(std::size(WindowSizes))];
  uint64_t window = layout::DataAddress + 0x100 + random.below(0xc00);
  uint32_t undefined = 0;
  std::map<unsigned, std::vector<std::string>> labelsAt;   // step -> labels before it
  std::map<unsigned, uint32_t> joinedAt;
  bool lastDefinedFlags = false;
  unsigned jumps = 0;
  auto placeLabels = [&](unsigned at) {
    for (const std::string &label : labelsAt[at])
      sequence.steps.push_back({SequenceStep::Kind::Label, {label + ":"}, label});
    undefined |= joinedAt[at];
  };
  for (unsigned step = 0; step < steps; ++step) {
    placeLabels(step);
    if (step + 1 < steps && random.below(8) == 0) {
      const Condition &condition = Conditions[random.below(std::size(Conditions))];
      if (!(condition.flags & undefined)) {
        unsigned over = 1 + unsigned(random.below(3));
        unsigned target = std::min(step + 1 + over, steps);
        std::string label = llvm::formatv("skip_{0}", jumps++).str();
        sequence.steps.push_back({SequenceStep::Kind::Jump,
                                  {std::string(condition.mnemonic) + " " + label}, label});
        labelsAt[target].push_back(label);
        joinedAt[target] |= undefined;
        continue;
      }
    }
    if (step + 1 < steps && random.below(8) == 0) {
      auto [write, read] = partialRegisterLines(random, window);
      for (const std::string &line : {write, read}) {
        if (line == read)
          placeLabels(++step);
        // A line that would test a flag left undefined is left out; the step is then empty.
        FlagEffect effect = effectOfLine(line);
        if (effect.tested & undefined)
          continue;
        sequence.steps.push_back({SequenceStep::Kind::Form, {line}, ""});
        undefined = effect.apply(undefined);
        lastDefinedFlags = effect.defines != 0;
      }
      continue;
    }
    const Pool &pool =
        lastDefinedFlags && random.below(3) == 0 ? consumers_
        : random.below(5) == 0 && !simd_.empty() ? simd_
                                                 : general_;
    // A candidate that tests a flag left undefined is drawn again; most forms test none.
    const SequenceForm *form = nullptr;
    for (unsigned attempt = 0; !form; ++attempt) {
      const SequenceForm *candidate = draw(attempt < 32 ? pool : general_, random);
      if (!(candidate->flags.tested & undefined))
        form = candidate;
    }
    SequenceStep formStep;
    addSetup(*form, random, window, windowSize, formStep.lines);
    formStep.lines.push_back(form->text);
    sequence.steps.push_back(std::move(formStep));
    undefined = form->flags.apply(undefined);
    lastDefinedFlags = form->flags.defines != 0;
  }
  placeLabels(steps);
  return sequence;
}

} // namespace hoist::test
