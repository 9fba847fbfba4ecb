// Random instruction sequences for the sequence tests (SequenceTest.cpp): 5 to 30 steps drawn
// from sequenceForms(), biased so that flag producers feed flag consumers, with forward
// conditional jumps over 1 to 3 steps, with narrow register writes read back at other widths,
// and with every memory operand pointed into a small window of the data page, so that accesses
// of different widths overlap.
//
// A step's setup lines come right before its form and change no flag (mov, cbw/cwd/cdq/cqo):
// the address registers of a memory operand; a nonzero divisor and a dividend whose quotient
// fits for div and idiv; a small bit offset for bt* on memory. No step tests a flag that an
// earlier step may have left undefined (SequenceFlags.h).
#pragma once

#include "Random.h"
#include "SequenceForms.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hoist::test {

/// One step of a sequence: a form with its setup lines, a conditional jump, or a label. The
/// minimizer drops whole steps.
struct SequenceStep {
  enum class Kind { Form, Jump, Label };
  Kind kind = Kind::Form;
  std::vector<std::string> lines;
  std::string label;   ///< Jump: the label it jumps to; Label: its name
};

struct Sequence {
  std::vector<SequenceStep> steps;

  /// The assembly lines, in order (labels end with ':').
  std::vector<std::string> lines() const;
  /// The lines joined by "; ", for reports.
  std::string text() const;
  /// Forms and jumps, without setup lines and labels.
  unsigned stepCount() const;
};

/// A sequence of the given lines, one step each (fixed regression sequences).
Sequence sequenceOf(const std::vector<std::string> &lines);

class SequenceGenerator {
public:
  explicit SequenceGenerator(const std::vector<SequenceForm> &forms);

  /// The sequence of `seed`: the same seed gives the same sequence on every machine.
  Sequence generate(uint64_t seed) const;

private:
  /// A narrow write of a register and a read of it at another width (`mov al, r11b`, then
  /// `sbb eax, 0`): the lines of two steps.
  static std::pair<std::string, std::string> partialRegisterLines(Random &random,
                                                                  uint64_t window);
  void addSetup(const SequenceForm &form, Random &random, uint64_t window, unsigned windowSize,
                std::vector<std::string> &lines) const;

  /// Forms grouped by mnemonic: a step draws a mnemonic, then one of its forms, so that the
  /// table's many rotate and SIMD forms do not crowd out the rest.
  using Pool = std::vector<std::vector<const SequenceForm *>>;
  static const SequenceForm *draw(const Pool &pool, Random &random);

  Pool general_, consumers_, simd_;
};

} // namespace hoist::test
