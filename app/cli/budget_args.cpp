#include "app/cli/budget_args.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>

#include "core/ir/model.h"
#include "core/pipeline/numeric_check.h"

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

void warnTopKNotLimiting(const pipeline::ExecOutputChecker& checker, const ir::Model& model,
                         const pipeline::AccuracyBudget& budget) {
  if (!(budget.minTopK > 0)) return;
  // The model against itself, from the outputs the checker ran it for: an
  // output with a top-1 but no top-k is a classifier with no more than k
  // classes (accuracy.h).
  for (const pipeline::OutputAccuracy& a : checker.referenceAccuracy(budget.topK)) {
    if (!a.top1 || a.topK) continue;
    std::string classes = "no more than " + std::to_string(budget.topK) + " classes";
    for (const ir::Value* out : model.graph().outputs())
      if (out && out->name() == a.output && out->type().isTensor() && out->type().hasShape() &&
          !out->type().shape()->dims().empty()) {
        const ir::Dim& last = out->type().shape()->dims().back();
        if (last.isStatic()) classes = std::to_string(last.value()) + " classes";
      }
    std::printf(
        "warning: --budget-topk does not limit output '%s': it has %s, not more than k = %d, so "
        "its reference class is always among its %d largest (it counts as agreeing; "
        "docs/precision.md)\n",
        a.output.c_str(), classes.c_str(), budget.topK, budget.topK);
  }
}

}  // namespace passlab::cli
