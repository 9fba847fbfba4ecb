#include "SequenceMinimizer.h"

#include <algorithm>

namespace hoist::test {
namespace {

bool stillMismatches(const Sequence &candidate, const SequenceRun &run, Pipeline pipeline,
                     unsigned state) {
  SequenceRun one = run;
  one.pipelines = {pipeline};
  one.onlyState = int(state);
  one.keepIr = false;
  // A candidate that reads a flag left undefined, or cannot be lifted, is not a smaller
  // example of the same mismatch.
  SequenceReport report = checkSequence(candidate.lines(), one);
  return report.error.empty() && report.mismatchCount > 0;
}

Sequence withoutUnusedLabels(Sequence sequence) {
  auto unused = [&](const SequenceStep &step) {
    if (step.kind != SequenceStep::Kind::Label)
      return false;
    return std::none_of(sequence.steps.begin(), sequence.steps.end(), [&](const SequenceStep &s) {
      return s.kind == SequenceStep::Kind::Jump && s.label == step.label;
    });
  };
  std::vector<SequenceStep> kept;
  for (const SequenceStep &step : sequence.steps)
    if (!unused(step))
      kept.push_back(step);
  sequence.steps = std::move(kept);
  return sequence;
}

} // namespace

Sequence minimizeSequence(const Sequence &sequence, const SequenceRun &run, Pipeline pipeline,
                          unsigned state) {
  Sequence smallest = sequence;
  bool shrunk = true;
  while (shrunk) {
    shrunk = false;
    for (size_t i = 0; i < smallest.steps.size(); ++i) {
      if (smallest.steps[i].kind == SequenceStep::Kind::Label)
        continue;
      Sequence candidate = smallest;
      candidate.steps.erase(candidate.steps.begin() + long(i));
      candidate = withoutUnusedLabels(candidate);
      if (candidate.stepCount() == 0 || !stillMismatches(candidate, run, pipeline, state))
        continue;
      smallest = std::move(candidate);
      shrunk = true;
      --i;   // the next step moved into this place
    }
  }
  return withoutUnusedLabels(smallest);
}

} // namespace hoist::test
