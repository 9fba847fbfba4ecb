// Shrinks a sequence that mismatches to one that still does, a step at a time, so that a report
// shows the few instructions that matter.
#pragma once

#include "SequenceChecker.h"
#include "SequenceGenerator.h"

namespace hoist::test {

/// Drops steps (a form with its setup lines, or a jump) one at a time as long as the same state
/// still mismatches in `pipeline`, until no single step can go; then drops the labels no jump
/// names. `run` says how the states are made (its stateSeed); `state` is the mismatching one.
Sequence minimizeSequence(const Sequence &sequence, const SequenceRun &run, Pipeline pipeline,
                          unsigned state);

} // namespace hoist::test
