// What a model costs at the input shapes `run` and `optimize --check` make up
// (input_synthesis.h). A file whose inputs have symbolic dims (a batch "N")
// leaves most node costs unknown at its own shapes; `info` shows this estimate
// beside the file's own, saying at which shapes it was taken.
#pragma once

#include <vector>

#include "core/analysis/cost_model.h"
#include "core/ir/model.h"
#include "core/pipeline/input_synthesis.h"
#include "core/support/error.h"

namespace passlab::pipeline {

struct PlannedCost {
  analysis::ModelCost cost;
  std::vector<InputPlan> inputs;  // the shapes the cost was estimated at
};

// An error when the synthesis cannot plan an input (the model is not changed).
Expected<PlannedCost> costAtPlannedInputs(const ir::Model& model);

}  // namespace passlab::pipeline
