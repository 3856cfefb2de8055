// The accuracy budget of lossy passes on the command line (optimize,
// precision): --budget-cosine, --budget-snr, --budget-max-rel, --budget-top1,
// --budget-topk and its --budget-k.
#pragma once

#include <optional>

#include "core/pipeline/accuracy.h"

namespace CLI {
class App;
}

namespace passlab::ir {
class Model;
}

namespace passlab::pipeline {
class ExecOutputChecker;
}

namespace passlab::cli {

struct BudgetArgs {
  std::optional<double> cosine, snr, maxRel, top1, topK;  // where given
  std::optional<int> k;

  void addTo(CLI::App& cmd);
  // `budget` with the given figures put in, validated (accuracy.h).
  Status applyTo(pipeline::AccuracyBudget& budget) const;
};

// With a top-k limit (budget.minTopK > 0): a warning for each classifier
// output of `model` with no more than k classes, which the limit does not
// hold (its reference class is always among its k largest: it counts as
// agreeing), naming the output and its class count. Tells its classifier
// outputs from the reference outputs the checker holds (`model` is the one
// it was created on; no run); nothing without a limit.
void warnTopKNotLimiting(const pipeline::ExecOutputChecker& checker, const ir::Model& model,
                         const pipeline::AccuracyBudget& budget);

}  // namespace passlab::cli
