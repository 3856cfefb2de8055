// The accuracy budget of lossy passes on the command line (optimize,
// precision): --budget-cosine, --budget-snr, --budget-max-rel, --budget-top1,
// --budget-topk and its --budget-k.
#pragma once

#include <optional>

#include "core/pipeline/accuracy.h"

namespace CLI {
class App;
}

namespace passlab::cli {

struct BudgetArgs {
  std::optional<double> cosine, snr, maxRel, top1, topK;  // where given
  std::optional<int> k;

  void addTo(CLI::App& cmd);
  // `budget` with the given figures put in, validated (accuracy.h).
  Status applyTo(pipeline::AccuracyBudget& budget) const;
};

}  // namespace passlab::cli
