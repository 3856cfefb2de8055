#include "app/cli/budget_args.h"

#include <CLI/CLI.hpp>

namespace passlab::cli {

void BudgetArgs::addTo(CLI::App& cmd) {
  cmd.add_option(
      "--budget-cosine", cosine,
      "Accuracy budget of lossy passes: least cosine similarity per output (default 0.99)");
  cmd.add_option("--budget-snr", snr,
                 "Accuracy budget: least signal-to-noise ratio per output, dB (default 20)");
  cmd.add_option("--budget-max-rel", maxRel,
                 "Accuracy budget: largest error relative to the output's largest magnitude "
                 "(default: reported, not limited)");
  cmd.add_option("--budget-top1", top1,
                 "Accuracy budget: least share of rows with the same top-1 class, for "
                 "classifier outputs (default: reported, not limited)");
  cmd.add_option("--budget-topk", topK,
                 "Accuracy budget: least share of rows whose reference top-1 class is among the "
                 "output's k largest (k: --budget-k), for classifier outputs with more than k "
                 "classes (default: reported, not limited)");
  cmd.add_option("--budget-k", k, "The k of --budget-topk and of the top-k reported (default 5)");
}

Status BudgetArgs::applyTo(pipeline::AccuracyBudget& budget) const {
  if (cosine) budget.minCosine = *cosine;
  if (snr) budget.minSnrDb = *snr;
  if (maxRel) budget.maxRelError = *maxRel;
  if (top1) budget.minTop1 = *top1;
  if (topK) budget.minTopK = *topK;
  if (k) budget.topK = *k;
  return pipeline::validateBudget(budget);
}

}  // namespace passlab::cli
