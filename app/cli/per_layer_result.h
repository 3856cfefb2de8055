// What the per-layer searches of `passlab-cli precision` print and save the
// same way (precision_sparsity.h, precision_low_rank.h, the sensitivity
// ranking): SNR figures, the check of the layers together, and the result
// model with the recipe that replays its steps.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "core/ir/model.h"
#include "core/pipeline/accuracy.h"
#include "core/pipeline/numeric_check.h"
#include "core/pipeline/pass_manager.h"

namespace passlab::cli {

// An SNR in dB with one decimal ("inf" for outputs equal to the bit).
std::string snrText(double snr);

// "together: worst output ..." for the check of the layers applied together,
// when it ran.
void printWorstTogether(const pipeline::NumericCheck& check);

// The applied layers of `layers` in the order they were applied (each step
// was checked with the ones before): Layer::applied, Layer::step.
template <class Layer>
std::vector<const Layer*> appliedInStepOrder(const std::vector<Layer>& layers) {
  std::vector<const Layer*> applied;
  for (const Layer& l : layers)
    if (l.applied) applied.push_back(&l);
  std::sort(applied.begin(), applied.end(),
            [](const Layer* a, const Layer* b) { return a->step < b->step; });
  return applied;
}

// Saves `result` to `out` (nothing to do without one), then, with
// `recipePath`, the recipe that replays `steps` in order, checked against
// `budget` on `checkSets` input sets. Prints what it saved; the exit code (0,
// or 1 when a file could not be written).
int saveLayerResult(const ir::Model& result, const std::string& out, const std::string& recipePath,
                    int checkSets, const pipeline::AccuracyBudget& budget,
                    std::vector<pipeline::PassSpec> steps);

}  // namespace passlab::cli
