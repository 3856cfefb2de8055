// The reference a precision analysis measures against (per-layer
// sensitivity, automatic mixed precision: core/pipeline/sensitivity.h), set
// up the same way by `passlab-cli precision` and the GUI's Precision panel:
// the model's outputs on the first `checkSets` calibration sets when there
// are any (the data the model is meant for), else on `checkSets`
// synthesized sets; no noise floor, as the budget decides, not equality.
#pragma once

#include <memory>
#include <vector>

#include "core/exec/executor.h"
#include "core/pipeline/numeric_check.h"

namespace passlab::pipeline {

Expected<std::unique_ptr<ExecOutputChecker>> precisionChecker(
    const ir::Model& model, const std::vector<exec::NamedInputs>& calibration, int checkSets);

}  // namespace passlab::pipeline
